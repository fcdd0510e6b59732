import { sql } from 'kysely';
import { type AnyDb, isPostgres } from './support.js';

/**
 * PostgreSQL: raw samples partitioned by time (docs/telemetry.md, "Storage and retention"), one
 * partition per UTC day of `ts`, so that retention drops a day's table instead of deleting its
 * rows one by one. The samples already stored move into the partitions of their days. No default
 * partition: a day's partition is made before its samples are written (`ensureSamplePartitions`
 * in `sample-partitions.ts`), and detaching one without stopping the inserts needs there to be none.
 * SQLite keeps its table: nothing changes there.
 */
const DAY_MS = 86_400_000;

/** The columns of migration 0004, and its key. */
const COLUMNS = sql`
  device_id integer not null,
  ts bigint not null,
  current double precision not null,
  temperature double precision,
  door_open smallint,
  state smallint not null,
  program varchar(64),
  error_code varchar(32),
  core_temperature double precision,
  humidity double precision,
  constraint telemetry_samples_pk primary key (device_id, ts)`;

function partitionName(day: number): string {
  return `telemetry_samples_${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

export async function up(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table telemetry_samples rename to telemetry_samples_unpartitioned`.execute(db);
  await sql`alter table telemetry_samples_unpartitioned
    rename constraint telemetry_samples_pk to telemetry_samples_unpartitioned_pk`.execute(db);
  await sql`create table telemetry_samples (${COLUMNS}) partition by range (ts)`.execute(db);
  const { rows } = await sql<{ day: string | number }>`
    select distinct ts / ${DAY_MS} as day from telemetry_samples_unpartitioned`.execute(db);
  const days = new Set(rows.map((row) => Number(row.day)));
  days.add(Math.floor(Date.now() / DAY_MS));
  for (const day of days) {
    await sql`create table ${sql.id(partitionName(day))} partition of telemetry_samples
      for values from (${sql.lit(day * DAY_MS)}) to (${sql.lit((day + 1) * DAY_MS)})`.execute(db);
  }
  await sql`insert into telemetry_samples select * from telemetry_samples_unpartitioned`.execute(db);
  await sql`drop table telemetry_samples_unpartitioned`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table telemetry_samples rename to telemetry_samples_partitioned`.execute(db);
  await sql`alter table telemetry_samples_partitioned
    rename constraint telemetry_samples_pk to telemetry_samples_partitioned_pk`.execute(db);
  await sql`create table telemetry_samples (${COLUMNS})`.execute(db);
  await sql`insert into telemetry_samples select * from telemetry_samples_partitioned`.execute(db);
  // Dropping the parent drops its partitions; any day table left detached goes with its name.
  await sql`drop table telemetry_samples_partitioned`.execute(db);
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class
     where relkind = 'r' and relnamespace = current_schema()::regnamespace
       and relname ~ '^telemetry_samples_[0-9]{8}$'`.execute(db);
  for (const { name } of rows) await sql`drop table ${sql.id(name)}`.execute(db);
}
