import { dialectOf, dropSamplePartitionsBefore, type Database, type DatabaseHandle } from '@kontrol/db';
import { sql, type Kysely } from 'kysely';

/**
 * SQL of the telemetry store that the API runs (the gateway writes it: apps/gateway ingest/).
 * Samples and rollups carry no foreign key (migration 0004), so deleting a device deletes them here.
 */

/** Removes every sample and rollup of a device (called when the device is deleted). */
export async function deleteDeviceTelemetry(db: Kysely<Database>, deviceId: number) {
  await db.deleteFrom('telemetry_samples').where('device_id', '=', deviceId).execute();
  await db.deleteFrom('telemetry_minute').where('device_id', '=', deviceId).execute();
  await db.deleteFrom('telemetry_hour').where('device_id', '=', deviceId).execute();
  await db.deleteFrom('telemetry_day').where('device_id', '=', deviceId).execute();
  await db.deleteFrom('device_ingest_days').where('device_id', '=', deviceId).execute();
}

/** The device limits' day counts (docs/device-protocol.md, "Limits") of days before `beforeDay` (`YYYY-MM-DD`). */
export async function purgeOldIngestDays(db: Kysely<Database>, beforeDay: string): Promise<void> {
  await db.deleteFrom('device_ingest_days').where('day', '<', beforeDay).execute();
}

const DEVICES_PER_STEP = 200;
/**
 * How long after the retention cutoff a day's partition of raw samples waits to be dropped: a
 * sample the gateway accepted just inside the retention is written milliseconds later, and must
 * find its partition.
 */
const PARTITION_DROP_MARGIN_MS = 3_600_000;

/**
 * Retention (docs/telemetry.md): raw samples before `rawBefore` and minute rollups before
 * `minuteBefore` (epoch ms) go. On PostgreSQL raw samples go a whole day's partition at a time,
 * once the day has ended before `rawBefore` (and the margin above); on SQLite, and for minute
 * rollups, they are deleted device by device, so each statement walks one device's primary key
 * range and no statement holds the database for long. Hour rollups are kept. Returns the number of
 * samples deleted row by row, and the days whose partitions were dropped.
 */
export async function purgeOldTelemetry(
  db: Kysely<Database>,
  cutoffs: { rawBefore: number; minuteBefore: number },
): Promise<{ deleted: number; droppedDays: number[] }> {
  const partitioned = dialectOf(db) === 'postgres';
  const droppedDays = partitioned
    ? (await dropSamplePartitionsBefore(db, cutoffs.rawBefore - PARTITION_DROP_MARGIN_MS)).map(
        (dropped) => dropped.day,
      )
    : [];
  let deleted = 0;
  let after = 0;
  for (;;) {
    const ids = await db
      .selectFrom('devices')
      .select('id')
      .where('id', '>', after)
      .orderBy('id')
      .limit(DEVICES_PER_STEP)
      .execute();
    if (ids.length === 0) return { deleted, droppedDays };
    for (const { id } of ids) {
      if (!partitioned) {
        const samples = await db
          .deleteFrom('telemetry_samples')
          .where('device_id', '=', id)
          .where('ts', '<', cutoffs.rawBefore)
          .executeTakeFirst();
        deleted += Number(samples.numDeletedRows);
      }
      await db
        .deleteFrom('telemetry_minute')
        .where('device_id', '=', id)
        .where('bucket', '<', cutoffs.minuteBefore)
        .execute();
    }
    after = ids[ids.length - 1]?.id ?? after;
  }
}

/** The devices of the organisation among `ids`, with what the reports need about each. */
export function findReportDevices(
  db: Kysely<Database>,
  organisationId: number,
  ids: readonly number[] | undefined,
) {
  let query = db
    .selectFrom('devices')
    .innerJoin('rooms', 'rooms.id', 'devices.room_id')
    .innerJoin('addresses', 'addresses.id', 'rooms.address_id')
    .innerJoin('device_types', 'device_types.id', 'devices.type_id')
    .leftJoin('device_live', 'device_live.device_id', 'devices.id')
    .select([
      'devices.id',
      'devices.name',
      'addresses.time_zone',
      'devices.wash_interval_hours',
      'device_types.wash_interval_hours as type_wash_interval_hours',
      'device_types.slug as type_slug',
      'device_live.last_online_at',
      'device_live.wash_started_ts',
    ])
    .where('devices.organisation_id', '=', organisationId);
  if (ids) query = query.where('devices.id', 'in', ids);
  return query.orderBy('devices.id').execute();
}
export type ReportDevice = Awaited<ReturnType<typeof findReportDevices>>[number];

/**
 * The devices of the organisation among `ids` (all of them without `ids`) with their address's
 * time zone: all the day reports need (two joins instead of {@link findReportDevices}' four).
 */
export function findDeviceZones(
  db: Kysely<Database>,
  organisationId: number,
  ids: readonly number[] | undefined,
) {
  let query = db
    .selectFrom('devices')
    .innerJoin('rooms', 'rooms.id', 'devices.room_id')
    .innerJoin('addresses', 'addresses.id', 'rooms.address_id')
    .select(['devices.id', 'addresses.time_zone'])
    .where('devices.organisation_id', '=', organisationId);
  if (ids) query = query.where('devices.id', 'in', ids);
  return query.orderBy('devices.id').execute();
}

/** Raw samples of the devices in [start, finish), ordered by device then time, one page (+1 to tell if more). */
export function findSamples(
  db: Kysely<Database>,
  deviceIds: readonly number[],
  range: { start: number; finish: number },
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('telemetry_samples')
    .selectAll()
    .where('device_id', 'in', deviceIds)
    .where('ts', '>=', range.start)
    .where('ts', '<', range.finish)
    .orderBy('device_id')
    .orderBy('ts')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * A sample as the CSV export reads it, a row of values without names: ts, current, temperature,
 * door_open, state, program, error_code, core_temperature, humidity.
 */
export type ExportSampleRow = [
  number,
  number,
  number | null,
  number | null,
  number,
  string | null,
  string | null,
  number | null,
  number | null,
];

const exportSamplesSql = (parameter: (index: number) => string) =>
  `select ts, current, temperature, door_open, state, program, error_code, core_temperature, humidity
     from telemetry_samples
    where device_id = ${parameter(1)} and ts >= ${parameter(2)} and ts < ${parameter(3)}
    order by ts limit ${parameter(4)}`;

/**
 * Reads one device's samples with `from <= ts < finish`, oldest first, at most `limit`, handing
 * each to `take`; returns how many there were. A range of the primary key (device, ts), so an
 * export walks a long range in short queries. Rows come straight from the driver as arrays
 * (better-sqlite3's raw mode, pg's `rowMode: 'array'`): through Kysely a million rows were a
 * million objects, half of the export's time. On SQLite the statement runs while Kysely's
 * connection is held, so no Kysely transaction is open around the read.
 */
export function exportSampleReader(database: DatabaseHandle) {
  const { driver } = database;
  if (driver.dialect === 'sqlite') {
    const statement = driver.sqlite.prepare(exportSamplesSql(() => '?')).raw(true);
    return (
      deviceId: number,
      from: number,
      finish: number,
      limit: number,
      take: (row: ExportSampleRow) => void,
    ) =>
      database.db.connection().execute(async () => {
        const rows = statement.all(deviceId, from, finish, limit) as ExportSampleRow[];
        for (const row of rows) take(row);
        return rows.length;
      });
  }
  const text = exportSamplesSql((index) => `$${index}`);
  return async (
    deviceId: number,
    from: number,
    finish: number,
    limit: number,
    take: (row: ExportSampleRow) => void,
  ) => {
    const { rows } = await driver.pool.query<ExportSampleRow>({
      name: 'telemetry-export-samples',
      text,
      values: [deviceId, from, finish, limit],
      rowMode: 'array',
    });
    for (const row of rows) take(row);
    return rows.length;
  };
}

/** Minute or hour rollups of the devices in [start, finish), ordered by device then bucket. */
export function findRollups(
  db: Kysely<Database>,
  table: 'telemetry_minute' | 'telemetry_hour',
  deviceIds: readonly number[],
  range: { start: number; finish: number },
) {
  return db
    .selectFrom(table)
    .select([
      'device_id',
      'bucket',
      'samples',
      'current_sum',
      'current_min',
      'current_max',
      'temperature_samples',
      'temperature_sum',
      'temperature_min',
      'temperature_max',
      'working',
      'washing',
      'fault',
      'door_open',
    ])
    .where('device_id', 'in', deviceIds)
    .where('bucket', '>=', range.start)
    .where('bucket', '<', range.finish)
    .orderBy('device_id')
    .orderBy('bucket')
    .execute();
}
export type RollupRow = Awaited<ReturnType<typeof findRollups>>[number];

/** The devices' local days from `start` to `finish` (`YYYY-MM-DD`, both included). */
export function findDays(db: Kysely<Database>, deviceIds: readonly number[], start: string, finish: string) {
  return db
    .selectFrom('telemetry_day')
    .select([
      'device_id',
      'date',
      'working_minutes',
      'first_working_ts',
      'last_working_ts',
      'temperature_samples',
      'temperature_sum',
      'temperature_min',
      'temperature_max',
    ])
    .where('device_id', 'in', deviceIds)
    .where('date', '>=', start)
    .where('date', '<=', finish)
    .execute();
}

/**
 * Per device and UTC hour in [start, finish): the minutes whose mean temperature lay outside
 * [`band.min`, `band.max`] (the minute rollups: a sum below `min` times the samples, or above
 * `max` times them). The hour is written out in the SQL, so PostgreSQL groups by what it selects.
 */
export async function findMinutesOutside(
  db: Kysely<Database>,
  deviceIds: readonly number[],
  range: { start: number; finish: number },
  band: { min: number; max: number },
) {
  const hour = sql<number>`bucket - (bucket % 3600000)`;
  const rows = await db
    .selectFrom('telemetry_minute')
    .select([
      'device_id',
      hour.as('hour'),
      sql<number>`sum(case when temperature_samples > 0 and (temperature_sum < cast(${band.min} as double precision) * temperature_samples or temperature_sum > cast(${band.max} as double precision) * temperature_samples) then 1 else 0 end)`.as(
        'outside',
      ),
    ])
    .where('device_id', 'in', deviceIds)
    .where('bucket', '>=', range.start)
    .where('bucket', '<', range.finish)
    .groupBy(['device_id', hour])
    .execute();
  return rows.map((row) => ({
    device_id: row.device_id,
    hour: Number(row.hour),
    outside: Number(row.outside),
  }));
}

/** The minutes in [start, finish) in which a device sent anything. */
export async function findOnlineMinutes(
  db: Kysely<Database>,
  deviceId: number,
  range: { start: number; finish: number },
) {
  const rows = await db
    .selectFrom('telemetry_minute')
    .select('bucket')
    .where('device_id', '=', deviceId)
    .where('bucket', '>=', range.start)
    .where('bucket', '<', range.finish)
    .orderBy('bucket')
    .execute();
  return rows.map((row) => Number(row.bucket));
}

export function findWashCycles(
  db: Kysely<Database>,
  deviceId: number,
  range: { start: number; finish: number },
) {
  return db
    .selectFrom('wash_cycles')
    .selectAll()
    .where('device_id', '=', deviceId)
    .where('started_ts', '>=', range.start)
    .where('started_ts', '<', range.finish)
    .orderBy('started_ts')
    .execute();
}

export async function findLastCompletedWash(db: Kysely<Database>, deviceId: number) {
  const row = await db
    .selectFrom('wash_cycles')
    .select('ended_ts')
    .where('device_id', '=', deviceId)
    .where('outcome', '=', 'completed')
    .orderBy('ended_ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.ended_ts) : undefined;
}
