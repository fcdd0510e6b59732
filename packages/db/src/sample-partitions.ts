import { sql, type Kysely } from 'kysely';
import { dialectOf } from './create-db.js';
import type { Database } from './schema.js';

/**
 * PostgreSQL keeps raw samples (`telemetry_samples`, migration 0017) in one partition per UTC day of
 * their `ts`, named `telemetry_samples_YYYYMMDD`, with no default partition: a sample of a day
 * without its partition is refused, so whoever writes samples makes the partitions first
 * ({@link ensureSamplePartitions}), and retention drops whole days
 * ({@link dropSamplePartitionsBefore}). On SQLite these do nothing: the table is not partitioned.
 */
export const SAMPLE_DAY_MS = 86_400_000;

const PREFIX = 'telemetry_samples_';
/** Advisory lock keys: one process at a time makes partitions, and one drops them. */
const CREATE_LOCK = 7_123_401;
const DROP_LOCK = 7_123_402;

/** The partition's day: whole UTC days since the epoch. */
export function sampleDay(ts: number): number {
  return Math.floor(ts / SAMPLE_DAY_MS);
}

/** `telemetry_samples_20261129` for the day holding 2026-11-29 UTC. */
export function samplePartitionName(day: number): string {
  return PREFIX + new Date(day * SAMPLE_DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');
}

/** A day's partition that retention dropped: how long it took to leave the table, and to be dropped. */
export interface DroppedSampleDay {
  day: number;
  detachMs: number;
  dropMs: number;
}

/** The day a partition's name stands for, or undefined for another table's name. */
function dayOfName(name: string): number | undefined {
  const match = /^telemetry_samples_(\d{4})(\d{2})(\d{2})$/.exec(name);
  if (!match) return undefined;
  return sampleDay(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

interface DayTable {
  day: number;
  name: string;
  /** A partition of `telemetry_samples` (not one detached, or being detached). */
  attached: boolean;
  /** Being detached concurrently: a detach that stopped halfway, to be finished. */
  detaching: boolean;
}

/** The day tables of this schema: the partitions and any left detached. */
async function dayTables(db: Kysely<Database>): Promise<DayTable[]> {
  const { rows } = await sql<{ name: string; attached: boolean; detaching: boolean }>`
    select c.relname as name,
           coalesce(i.inhparent = 'telemetry_samples'::regclass, false) as attached,
           coalesce(i.inhdetachpending, false) as detaching
      from pg_class c
      left join pg_inherits i on i.inhrelid = c.oid
     where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace
       and c.relname like ${`${PREFIX}%`}`.execute(db);
  return rows.flatMap((row) => {
    const day = dayOfName(row.name);
    return day === undefined
      ? []
      : [{ day, name: row.name, attached: row.attached && !row.detaching, detaching: row.detaching }];
  });
}

/** The days that have a partition now (PostgreSQL; empty on SQLite). */
export async function samplePartitionDays(db: Kysely<Database>): Promise<number[]> {
  if (dialectOf(db) === 'sqlite') return [];
  return (await dayTables(db))
    .filter((table) => table.attached)
    .map((table) => table.day)
    .sort((a, b) => a - b);
}

/**
 * Makes the partitions of `days` that are missing, each as a table of its own attached to
 * `telemetry_samples`: attaching locks the parent only against other schema changes, where
 * `create table … partition of` would stop every insert and read of samples for the moment.
 * Several processes may call it at once. Returns the days made.
 */
export async function ensureSamplePartitions(
  db: Kysely<Database>,
  days: Iterable<number>,
): Promise<number[]> {
  if (dialectOf(db) === 'sqlite') return [];
  const wanted = [...new Set(days)].sort((a, b) => a - b);
  if (wanted.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CREATE_LOCK})`.execute(trx);
    const tables = new Map((await dayTables(trx)).map((table) => [table.day, table]));
    const made: number[] = [];
    for (const day of wanted) {
      const table = tables.get(day);
      if (table?.attached || table?.detaching) continue;
      const name = sql.id(samplePartitionName(day));
      // A day's table left detached by a retention that stopped before dropping it is past
      // retention: start that day afresh.
      if (table) await sql`drop table ${name}`.execute(trx);
      await sql`create table ${name} (like telemetry_samples including defaults)`.execute(trx);
      await sql`alter table telemetry_samples attach partition ${name}
        for values from (${sql.lit(day * SAMPLE_DAY_MS)}) to (${sql.lit((day + 1) * SAMPLE_DAY_MS)})`.execute(
        trx,
      );
      made.push(day);
    }
    return made;
  });
}

/**
 * Retention of raw samples on PostgreSQL: detaches and drops every day's partition that ends at or
 * before `before` (epoch ms), so a day of samples goes in the time of a few catalog changes
 * whatever it holds. `detach … concurrently` lets inserts and reads go on meanwhile (it waits for
 * the statements that use the day, not the other way round). Dropping the detached table then gives
 * its files back to the filesystem, which takes as long as the filesystem needs for that many
 * bytes and holds no lock that a statement on samples waits for. One process at a time; another returns at once. Returns the days
 * dropped, each with the milliseconds of its two steps.
 */
export async function dropSamplePartitionsBefore(
  db: Kysely<Database>,
  before: number,
): Promise<DroppedSampleDay[]> {
  if (dialectOf(db) === 'sqlite') return [];
  // A session's advisory lock and `detach … concurrently` (never in a transaction) on one connection.
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${DROP_LOCK}) as locked`.execute(connection);
    if (!rows[0]?.locked) return [];
    try {
      const dropped: DroppedSampleDay[] = [];
      const tables = (await dayTables(connection)).sort((a, b) => a.day - b.day);
      for (const table of tables) {
        if ((table.day + 1) * SAMPLE_DAY_MS > before) continue;
        const name = sql.id(table.name);
        const started = performance.now();
        if (table.detaching)
          await sql`alter table telemetry_samples detach partition ${name} finalize`.execute(connection);
        else if (table.attached)
          await sql`alter table telemetry_samples detach partition ${name} concurrently`.execute(connection);
        const detached = performance.now();
        await sql`drop table ${name}`.execute(connection);
        dropped.push({ day: table.day, detachMs: detached - started, dropMs: performance.now() - detached });
      }
      return dropped;
    } finally {
      await sql`select pg_advisory_unlock(${DROP_LOCK})`.execute(connection);
    }
  });
}
