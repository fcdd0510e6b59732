import type { Database } from '@kontrol/db';
import { sql, type Kysely } from 'kysely';

/**
 * The live state of the organisations' devices whose newest sample is later than `sinceTs`
 * (a sample's own time, epoch ms). Scans `device_live` joined to `devices`: one row per device.
 */
export function findReportedSince(db: Kysely<Database>, organisationIds: readonly number[], sinceTs: number) {
  return db
    .selectFrom('device_live')
    .innerJoin('devices', 'devices.id', 'device_live.device_id')
    .select([
      'device_live.device_id',
      'devices.organisation_id',
      'device_live.last_ts',
      'device_live.last_online_at',
      'device_live.state',
      'device_live.current',
      'device_live.temperature',
      'device_live.work_start_date',
      'device_live.work_start_time',
    ])
    .where('devices.organisation_id', 'in', organisationIds)
    .where('device_live.last_ts', '>', sinceTs)
    .execute();
}
export type ReportedDevice = Awaited<ReturnType<typeof findReportedSince>>[number];

/** The newest samples of a device after `afterTs` up to `untilTs` inclusive, at most `limit`, oldest first. */
export async function findNewSamples(
  db: Kysely<Database>,
  deviceId: number,
  afterTs: number,
  untilTs: number,
  limit: number,
) {
  const rows = await db
    .selectFrom('telemetry_samples')
    .select(['ts', 'current', 'temperature', 'door_open', 'state'])
    .where('device_id', '=', deviceId)
    .where('ts', '>', afterTs)
    .where('ts', '<=', untilTs)
    .orderBy('ts', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** The newest sample time of each of the devices that ever reported. */
export async function findNewestSamples(db: Kysely<Database>, deviceIds: readonly number[]) {
  const rows = await db
    .selectFrom('device_live')
    .select(['device_id', 'last_ts'])
    .where('device_id', 'in', deviceIds)
    .where('last_ts', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.device_id, Number(row.last_ts)]));
}

/** How many of `ids` are devices of the organisation. */
export async function countOwnDevices(db: Kysely<Database>, organisationId: number, ids: readonly number[]) {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Device events of the organisations changed at or after `since` (ISO), oldest change first. */
export function findChangedEvents(db: Kysely<Database>, organisationIds: readonly number[], since: string) {
  return db
    .selectFrom('device_events')
    .select([
      'id',
      'organisation_id',
      'device_id',
      'kind',
      'severity',
      'started_ts',
      'ended_ts',
      'updated_at',
    ])
    .where('organisation_id', 'in', organisationIds)
    .where('updated_at', '>=', since)
    .orderBy('updated_at')
    .limit(1000)
    .execute();
}

/**
 * The notifications of these users created at or after `since` (ISO), newest first: the index on
 * user and creation time serves it. At most `limit` rows.
 */
export function findRecentNotifications(
  db: Kysely<Database>,
  userIds: readonly number[],
  since: string,
  limit: number,
) {
  return db
    .selectFrom('notifications')
    .select([
      'id',
      'organisation_id',
      'user_id',
      'kind',
      'severity',
      'title',
      'body',
      'device_id',
      'event_id',
      'complaint_id',
      'created_at',
      sql<string>`coalesce(occurred_at, created_at)`.as('occurred_at'),
      'read_at',
    ])
    .where('user_id', 'in', userIds)
    .where('created_at', '>=', since)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
export type RecentNotification = Awaited<ReturnType<typeof findRecentNotifications>>[number];
