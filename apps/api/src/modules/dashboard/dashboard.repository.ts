import { OPEN_COMPLAINT_STATUSES } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { sql, type Kysely } from 'kysely';

/** SQL of the dashboard (docs/dashboard.md); every read is scoped to the organisation. */

/**
 * Every device of the organisation (of one type) with what the dashboard's rules read of the fleet
 * itself, in the order of their names: what changes only when the fleet does.
 */
export function findStatFleet(db: Kysely<Database>, organisationId: number, typeId: number | undefined) {
  let query = db
    .selectFrom('devices')
    .innerJoin('rooms', 'rooms.id', 'devices.room_id')
    .innerJoin('addresses', 'addresses.id', 'rooms.address_id')
    .innerJoin('device_types', 'device_types.id', 'devices.type_id')
    .select((eb) => [
      'devices.id',
      'devices.name',
      'devices.type_id',
      'rooms.address_id',
      'devices.room_id',
      'devices.controller_id',
      'devices.template_id',
      'devices.shift_start',
      eb.fn
        .coalesce('devices.wash_interval_hours', 'device_types.wash_interval_hours')
        .as('wash_interval_hours'),
      'addresses.time_zone',
    ])
    .where('devices.organisation_id', '=', organisationId);
  if (typeId !== undefined) query = query.where('devices.type_id', '=', typeId);
  return query.orderBy('devices.name').orderBy('devices.id').execute();
}
export type StatFleetRow = Awaited<ReturnType<typeof findStatFleet>>[number];

/**
 * The end of the newest completed wash of each device of the organisation (of one type) that
 * completed one: per device, its cycles walked back from the newest (primary key order), so the
 * other organisations' cycles and the device's older ones are never read.
 */
export function findLastWashes(db: Kysely<Database>, organisationId: number, typeId: number | undefined) {
  let devices = db
    .selectFrom('devices')
    .select((eb) => [
      'devices.id as device_id',
      eb
        .selectFrom('wash_cycles')
        .select('wash_cycles.ended_ts')
        .whereRef('wash_cycles.device_id', '=', 'devices.id')
        .where('wash_cycles.outcome', '=', 'completed')
        .orderBy('wash_cycles.started_ts', 'desc')
        .limit(1)
        .as('last_wash_ts'),
    ])
    .where('devices.organisation_id', '=', organisationId);
  if (typeId !== undefined) devices = devices.where('devices.type_id', '=', typeId);
  return db
    .selectFrom(devices.as('washed'))
    .select(['washed.device_id', 'washed.last_wash_ts'])
    .where('washed.last_wash_ts', 'is not', null)
    .execute();
}
export type LastWashRow = Awaited<ReturnType<typeof findLastWashes>>[number];

const SEVERITY_RANK = sql<number>`max(case severity when 'critical' then 3 when 'warning' then 2 else 1 end)`;

/** Per device with open events: how many, the highest severity (1–3) and the oldest start. */
export function findOpenEventTotals(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('device_events')
    .select((eb) => [
      'device_id',
      eb.fn.countAll<number>().as('open_events'),
      SEVERITY_RANK.as('severity_rank'),
      eb.fn.min('started_ts').as('since_ts'),
    ])
    .where('organisation_id', '=', organisationId)
    .where('ended_ts', 'is', null)
    .groupBy('device_id')
    .execute();
}

export type OpenEventTotal = Awaited<ReturnType<typeof findOpenEventTotals>>[number];

/**
 * Per device named by open complaints (OPEN_COMPLAINT_STATUSES): how many. One grouped count over
 * the organisation's open complaints (index `complaints_organisation_status_idx`), in device id order
 * so the same complaints always read the same.
 */
export function findOpenComplaintTotals(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('complaints')
    .select((eb) => ['device_id', eb.fn.countAll<number>().as('open_complaints')])
    .where('organisation_id', '=', organisationId)
    .where('status', 'in', [...OPEN_COMPLAINT_STATUSES])
    .where('device_id', 'is not', null)
    .groupBy('device_id')
    .orderBy('device_id')
    .execute();
}
export type OpenComplaintTotal = Awaited<ReturnType<typeof findOpenComplaintTotals>>[number];

/** A device type by id or slug. */
export function findDeviceType(db: Kysely<Database>, idOrSlug: string) {
  const query = db.selectFrom('device_types').select('id');
  return (
    /^\d+$/.test(idOrSlug) ? query.where('id', '=', Number(idOrSlug)) : query.where('slug', '=', idOrSlug)
  ).executeTakeFirst();
}

/**
 * Per hour bucket in [start, finish): devices of the organisation (of one type, when `typeId` is
 * given) that reported, worked and washed.
 */
export function findHourTotals(
  db: Kysely<Database>,
  organisationId: number,
  range: { start: number; finish: number },
  typeId?: number,
) {
  const query = db
    .selectFrom('telemetry_hour')
    .innerJoin('devices', 'devices.id', 'telemetry_hour.device_id')
    .select((eb) => [
      'telemetry_hour.bucket',
      eb.fn.countAll<number>().as('online'),
      sql<number>`sum(case when telemetry_hour.working_minutes > 0 then 1 else 0 end)`.as('working'),
      sql<number>`sum(case when telemetry_hour.washing > 0 then 1 else 0 end)`.as('washing'),
    ])
    .where('devices.organisation_id', '=', organisationId)
    .where('telemetry_hour.bucket', '>=', range.start)
    .where('telemetry_hour.bucket', '<', range.finish);
  return (typeId === undefined ? query : query.where('devices.type_id', '=', typeId))
    .groupBy('telemetry_hour.bucket')
    .execute();
}

/** One device of the organisation with its template's norms and its address's zone. */
export function findReportDevice(db: Kysely<Database>, organisationId: number, deviceId: number) {
  return db
    .selectFrom('devices')
    .innerJoin('rooms', 'rooms.id', 'devices.room_id')
    .innerJoin('addresses', 'addresses.id', 'rooms.address_id')
    .leftJoin('device_event_templates as t', (join) =>
      join
        .onRef('t.id', '=', 'devices.template_id')
        .onRef('t.organisation_id', '=', 'devices.organisation_id'),
    )
    .select(['devices.id', 'addresses.time_zone', 't.norms'])
    .where('devices.organisation_id', '=', organisationId)
    .where('devices.id', '=', deviceId)
    .executeTakeFirst();
}

/** The device's events that overlap [start, finish). */
export function findEventIdsOverlapping(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  range: { start: number; finish: number },
) {
  return db
    .selectFrom('device_events')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('device_id', '=', deviceId)
    .where('started_ts', '<', range.finish)
    .where((eb) => eb.or([eb('ended_ts', 'is', null), eb('ended_ts', '>=', range.start)]))
    .orderBy('started_ts')
    .limit(500)
    .execute();
}
