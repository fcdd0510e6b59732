import { sql } from 'kysely';
import { type AnyDb, isPostgres, timeType } from './support.js';

/**
 * The telemetry store (docs/telemetry.md): raw samples, per-minute and per-hour rollups, the
 * latest state of each device, wash cycles, and each device type's idle current (what counts as
 * working for `work_start`).
 *
 * - Samples are keyed by (device, ts): a sample delivered twice (an MQTT redelivery, a retried
 *   HTTP request) is stored once. SQLite keeps these tables `WITHOUT ROWID`, clustered by that key,
 *   so one device's range is one contiguous read. Times are epoch milliseconds (integers), states
 *   are their index in `DEVICE_STATES` (@kontrol/contracts).
 * - Samples and rollups carry no foreign key (a check per inserted row would cost ingest speed,
 *   and deleting a device must not wait for millions of rows): every read joins `devices`, scoped
 *   to the caller's organisation, and the retention job removes what a deleted device left.
 * - The live columns move from `devices` to `device_live`: the gateway writes them all the time,
 *   and `devices` changes move the organisation's fleet version (migration 0003), which would
 *   otherwise never stand still.
 */
const IDLE_CURRENT_A: Record<string, number> = {
  combi_oven: 3,
  convection_oven: 2,
  fryer: 2,
  dishwasher: 2,
  refrigerator: 4,
  freezer: 4,
  blast_chiller: 4,
  induction_hob: 1,
  other: 1,
};

export async function up(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  const time = timeType(db);
  const big = postgres ? 'bigint' : 'integer';
  const real = postgres ? 'double precision' : 'real';
  // SQLite: clustered by the primary key. PostgreSQL has no such table kind; its primary key index serves.
  const clustered = postgres ? sql`` : sql`without rowid`;

  await db.schema
    .alterTable('device_types')
    .addColumn('idle_current_a', real, (c) => c.notNull().defaultTo(1))
    .execute();
  for (const [slug, amps] of Object.entries(IDLE_CURRENT_A)) {
    await db.updateTable('device_types').set({ idle_current_a: amps }).where('slug', '=', slug).execute();
  }

  // The HTTP ingest finds a device by the hash of the credential it presents.
  await db.schema
    .createIndex('devices_credential_hash_idx')
    .on('devices')
    .column('credential_hash')
    .execute();

  await db.schema
    .createTable('telemetry_samples')
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('ts', big, (c) => c.notNull())
    .addColumn('current', real, (c) => c.notNull())
    .addColumn('temperature', real)
    .addColumn('door_open', 'smallint')
    .addColumn('state', 'smallint', (c) => c.notNull())
    .addColumn('program', 'varchar(64)')
    .addColumn('error_code', 'varchar(32)')
    .addColumn('core_temperature', real)
    .addColumn('humidity', real)
    .addPrimaryKeyConstraint('telemetry_samples_pk', ['device_id', 'ts'])
    .modifyEnd(clustered)
    .execute();

  for (const table of ['telemetry_minute', 'telemetry_hour'] as const) {
    let builder = db.schema
      .createTable(table)
      .addColumn('device_id', 'integer', (c) => c.notNull())
      .addColumn('bucket', big, (c) => c.notNull())
      .addColumn('samples', 'integer', (c) => c.notNull())
      .addColumn('current_sum', real, (c) => c.notNull())
      .addColumn('current_min', real, (c) => c.notNull())
      .addColumn('current_max', real, (c) => c.notNull())
      .addColumn('temperature_samples', 'integer', (c) => c.notNull())
      .addColumn('temperature_sum', real, (c) => c.notNull())
      .addColumn('temperature_min', real)
      .addColumn('temperature_max', real)
      .addColumn('working', 'integer', (c) => c.notNull())
      .addColumn('washing', 'integer', (c) => c.notNull())
      .addColumn('fault', 'integer', (c) => c.notNull())
      .addColumn('door_open', 'integer', (c) => c.notNull());
    // An hour counts the minutes in which the device worked: worktime reports read hours only.
    if (table === 'telemetry_hour')
      builder = builder.addColumn('working_minutes', 'integer', (c) => c.notNull());
    await builder
      .addPrimaryKeyConstraint(`${table}_pk`, ['device_id', 'bucket'])
      .modifyEnd(clustered)
      .execute();
  }

  await db.schema
    .createTable('device_live')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('last_ts', big)
    .addColumn('last_online_at', time)
    .addColumn('current', real)
    .addColumn('temperature', real)
    .addColumn('door_open', 'smallint')
    .addColumn('state', 'smallint')
    .addColumn('program', 'varchar(64)')
    .addColumn('error_code', 'varchar(32)')
    .addColumn('core_temperature', real)
    .addColumn('humidity', real)
    .addColumn('work_start_date', 'varchar(10)')
    .addColumn('work_start_time', 'varchar(8)')
    /** The wash run in progress (its first `washing` sample), if any. */
    .addColumn('wash_started_ts', big)
    .addColumn('status', 'text')
    .addColumn('status_at', time)
    .execute();

  await db.schema
    .createTable('wash_cycles')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('started_ts', big, (c) => c.notNull())
    .addColumn('ended_ts', big, (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addPrimaryKeyConstraint('wash_cycles_pk', ['device_id', 'started_ts'])
    .execute();

  // What the gateway stored so far (nothing before this issue; tests may have written it).
  await sql`insert into device_live (device_id, last_online_at, work_start_date, work_start_time)
            select id, last_online_at, work_start_date, work_start_time from devices
             where last_online_at is not null or work_start_date is not null`.execute(db);
  for (const column of ['last_online_at', 'work_start_date', 'work_start_time']) {
    await db.schema.alterTable('devices').dropColumn(column).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  const time = timeType(db);
  await db.schema.alterTable('devices').addColumn('last_online_at', time).execute();
  await db.schema.alterTable('devices').addColumn('work_start_date', 'varchar(10)').execute();
  await db.schema.alterTable('devices').addColumn('work_start_time', 'varchar(8)').execute();
  for (const table of [
    'wash_cycles',
    'device_live',
    'telemetry_hour',
    'telemetry_minute',
    'telemetry_samples',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('devices_credential_hash_idx').execute();
  await db.schema.alterTable('device_types').dropColumn('idle_current_a').execute();
}
