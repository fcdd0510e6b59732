import type { DEVICE_SORT_FIELDS } from '@kontrol/contracts';
import type { Database, DevicesTable } from '@kontrol/db';
import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';

/**
 * SQL of devices. Every query takes the caller's organisation, except the two that must look
 * across organisations: the controller id is unique everywhere (the gateway knows a controller by
 * it), and the gateway's credential check, which comes before any organisation is known.
 */

/**
 * A device as the API shows it: one query, only the columns the answer needs (never the credential
 * hash), with the address read from the room by primary key in the same statement. A scalar
 * subquery rather than a JOIN: `paginate` counts with this query's FROM and WHERE, and SQLite keeps
 * a join inside `count(*)` even when nothing of the room is read (10 000 devices: 3.8 ms against
 * 0.3 ms without it). PostgreSQL runs it as an index lookup per row, as it would the join.
 */
export function devicesQuery(db: Kysely<Database>, organisationId: number) {
  return (
    db
      .selectFrom('devices')
      // What the gateway keeps about the device (last online, work start). A left join on its key:
      // both engines drop it from a count that reads nothing of it.
      .leftJoin('device_live', 'device_live.device_id', 'devices.id')
      .select((eb) => [
        'devices.id',
        'devices.name',
        'devices.type_id',
        'devices.room_id',
        eb
          .selectFrom('rooms')
          .select('rooms.address_id')
          .whereRef('rooms.id', '=', 'devices.room_id')
          .$asScalar()
          .$notNull()
          .as('address_id'),
        'devices.serial_number',
        'devices.controller_id',
        'devices.template_id',
        'devices.shift_start',
        'devices.wash_interval_hours',
        'devices.service_interval_days',
        'devices.next_service_date',
        'devices.notes',
        'device_live.last_online_at',
        'device_live.work_start_date',
        'device_live.work_start_time',
        'devices.credential_issued_at',
        'devices.created_at',
        'devices.updated_at',
        eb.case().when('devices.credential_hash', 'is', null).then(0).else(1).end().as('has_credential'),
      ])
      .where('devices.organisation_id', '=', organisationId)
  );
}
export type DevicesQuery = ReturnType<typeof devicesQuery>;
export type DeviceRow = Awaited<ReturnType<DevicesQuery['executeTakeFirstOrThrow']>>;

/**
 * What the gateway wrote last of the organisation's devices (of one type) that ever reported: the
 * device lists' live fields, and the dashboard's state and readings.
 */
export function findDevicesLive(db: Kysely<Database>, organisationId: number, typeId?: number) {
  let query = db
    .selectFrom('devices')
    .innerJoin('device_live', 'device_live.device_id', 'devices.id')
    .select([
      'device_live.device_id',
      'device_live.last_online_at',
      'device_live.work_start_date',
      'device_live.work_start_time',
      'device_live.state',
      'device_live.current',
      'device_live.temperature',
    ])
    .where('devices.organisation_id', '=', organisationId);
  if (typeId !== undefined) query = query.where('devices.type_id', '=', typeId);
  return query.execute();
}
export type DeviceLiveRow = Awaited<ReturnType<typeof findDevicesLive>>[number];

/** `%term%` for LIKE … ESCAPE '\': the user's `%`, `_` and `\` match themselves. */
function containsPattern(term: string) {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Name, serial number or controller id contains `term`. `lower()` on both sides, as PostgreSQL's
 * LIKE is case-sensitive (on SQLite `lower()` is replaced by a Unicode one: packages/db create-db.ts).
 */
export function whereDeviceMatches(query: DevicesQuery, term: string): DevicesQuery {
  const pattern = sql<string>`${containsPattern(term)} escape '\\'`;
  return query.where((eb) =>
    eb.or([
      eb(eb.fn('lower', ['devices.name']), 'like', pattern),
      eb(eb.fn('lower', ['devices.serial_number']), 'like', pattern),
      eb(eb.fn('lower', ['devices.controller_id']), 'like', pattern),
    ]),
  );
}

/** Devices in rooms of the organisation matching `rooms` (a query of room ids, filtered already). */
export function whereRoomIn(query: DevicesQuery, rooms: RoomIdsQuery): DevicesQuery {
  return query.where('devices.room_id', 'in', rooms);
}

/** Room ids of the organisation, for filters on the room's fields (`address_id`). */
export function organisationRoomIds(db: Kysely<Database>, organisationId: number) {
  return db.selectFrom('rooms').select('rooms.id').where('rooms.organisation_id', '=', organisationId);
}
export type RoomIdsQuery = ReturnType<typeof organisationRoomIds>;

/** docs/contract.md, "Entities": smart means a controller id or a current template. */
export function whereSmart(query: DevicesQuery, smart: boolean): DevicesQuery {
  return query.where((eb) =>
    smart
      ? eb.or([eb('devices.controller_id', 'is not', null), eb('devices.template_id', 'is not', null)])
      : eb.and([eb('devices.controller_id', 'is', null), eb('devices.template_id', 'is', null)]),
  );
}

export type DeviceSortField = (typeof DEVICE_SORT_FIELDS)[number];
const SORT_COLUMNS = {
  name: { column: 'devices.name', nullable: false },
  created_at: { column: 'devices.created_at', nullable: false },
  next_service_date: { column: 'devices.next_service_date', nullable: true },
  last_online: { column: 'device_live.last_online_at', nullable: true },
} as const satisfies Record<DeviceSortField, { column: string; nullable: boolean }>;

/**
 * Orders by one field, then by id so that pages never overlap or skip a row. Empty values go last
 * in both directions and on both dialects (SQLite puts NULL first, PostgreSQL last). Names sort
 * as stored (by the database's collation), so the default order walks the (organisation, name)
 * index and a first page reads 25 rows, not the whole fleet.
 */
export function orderDevices(
  query: DevicesQuery,
  field: DeviceSortField,
  direction: 'asc' | 'desc',
): DevicesQuery {
  const { column, nullable } = SORT_COLUMNS[field];
  const ordered = nullable
    ? query.orderBy(sql`case when ${sql.ref(column)} is null then 1 else 0 end`)
    : query;
  return ordered.orderBy(column, direction).orderBy('devices.id', direction);
}

/** The fields the service's rules read, including whether a credential exists. */
export function findDeviceState(db: Kysely<Database>, organisationId: number, deviceId: number) {
  return db
    .selectFrom('devices')
    .select([
      'id',
      'controller_id',
      'template_id',
      'credential_hash',
      'service_interval_days',
      'next_service_date',
    ])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', deviceId)
    .executeTakeFirst();
}

export function findDevice(db: Kysely<Database>, organisationId: number, deviceId: number) {
  return devicesQuery(db, organisationId).where('devices.id', '=', deviceId).executeTakeFirst();
}

/** A room of this organisation with its address, or undefined (another organisation's or none). */
export function findOrganisationRoom(db: Kysely<Database>, organisationId: number, roomId: number) {
  return db
    .selectFrom('rooms')
    .select(['id', 'address_id'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', roomId)
    .executeTakeFirst();
}

/** Whether any device of any organisation, other than `exceptDeviceId`, holds this controller id. */
export async function controllerIdTaken(
  db: Kysely<Database>,
  controllerId: string,
  exceptDeviceId?: number,
): Promise<boolean> {
  let query = db.selectFrom('devices').select('id').where('controller_id', '=', controllerId);
  if (exceptDeviceId !== undefined) query = query.where('id', '!=', exceptDeviceId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertDevice(db: Kysely<Database>, values: Insertable<DevicesTable>) {
  const row = await db.insertInto('devices').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateDevice(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  values: Updateable<DevicesTable>,
) {
  await db
    .updateTable('devices')
    .set(values)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', deviceId)
    .execute();
}

/** True when a device was deleted; its group memberships and service log go with it (cascade). */
export async function deleteDevice(db: Kysely<Database>, organisationId: number, deviceId: number) {
  const result = await db
    .deleteFrom('devices')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', deviceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The stored credential hash of a device named by id or by controller id, across organisations. */
export function findDeviceCredential(db: Kysely<Database>, device: number | string) {
  const query = db
    .selectFrom('devices')
    .select(['id', 'organisation_id', 'controller_id', 'template_id', 'credential_hash']);
  return (
    typeof device === 'number' ? query.where('id', '=', device) : query.where('controller_id', '=', device)
  ).executeTakeFirst();
}

/** The device's days of traffic as the gateways counted them for its limits, from `fromDay` on, newest first. */
export function findIngestDays(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  fromDay: string,
) {
  return db
    .selectFrom('device_ingest_days')
    .select(['day', 'samples', 'refused', 'last_refused_ts', 'last_reason'])
    .where('organisation_id', '=', organisationId)
    .where('device_id', '=', deviceId)
    .where('day', '>=', fromDay)
    .orderBy('day', 'desc')
    .execute();
}
