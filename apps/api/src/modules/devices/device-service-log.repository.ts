import type { Database, DeviceServiceEntriesTable } from '@kontrol/db';
import type { Insertable, Kysely } from 'kysely';

/** Service log entries with the console user who wrote them (gone users leave `null`). */
function entriesQuery(db: Kysely<Database>, organisationId: number, deviceId: number) {
  return db
    .selectFrom('device_service_entries')
    .leftJoin('users', 'users.id', 'device_service_entries.created_by_user_id')
    .select([
      'device_service_entries.id',
      'device_service_entries.device_id',
      'device_service_entries.date',
      'device_service_entries.kind',
      'device_service_entries.performed_by',
      'device_service_entries.part',
      'device_service_entries.note',
      'device_service_entries.created_by_user_id',
      'users.name as created_by_name',
      'device_service_entries.created_at',
    ])
    .where('device_service_entries.organisation_id', '=', organisationId)
    .where('device_service_entries.device_id', '=', deviceId);
}
export type ServiceEntryRow = Awaited<ReturnType<ReturnType<typeof entriesQuery>['executeTakeFirstOrThrow']>>;

/** Newest work first; entries of one day in the order they were written, latest first. */
export function listServiceEntries(db: Kysely<Database>, organisationId: number, deviceId: number) {
  return entriesQuery(db, organisationId, deviceId)
    .orderBy('device_service_entries.date', 'desc')
    .orderBy('device_service_entries.id', 'desc')
    .execute();
}

export function findServiceEntry(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  entryId: number,
) {
  return entriesQuery(db, organisationId, deviceId)
    .where('device_service_entries.id', '=', entryId)
    .executeTakeFirst();
}

export async function insertServiceEntry(
  db: Kysely<Database>,
  values: Insertable<DeviceServiceEntriesTable>,
) {
  const row = await db
    .insertInto('device_service_entries')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteServiceEntry(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  entryId: number,
) {
  const result = await db
    .deleteFrom('device_service_entries')
    .where('organisation_id', '=', organisationId)
    .where('device_id', '=', deviceId)
    .where('id', '=', entryId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Moves the device's next service date to `date` only if that is later than the stored one (or
 * none is stored): one conditional UPDATE, so two entries saved at once cannot move it back.
 */
export async function advanceNextServiceDate(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  date: string,
  now: string,
) {
  await db
    .updateTable('devices')
    .set({ next_service_date: date, updated_at: now })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', deviceId)
    .where((eb) => eb.or([eb('next_service_date', 'is', null), eb('next_service_date', '<', date)]))
    .execute();
}
