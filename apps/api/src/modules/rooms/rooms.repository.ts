import type { Database } from '@kontrol/db';
import type { Insertable, Kysely, Updateable } from 'kysely';

type RoomsTable = Database['rooms'];

/** The organisation's rooms with how many devices each holds; another organisation's never appear. */
export function roomsQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('rooms')
    .select([
      'rooms.id',
      'rooms.name',
      'rooms.address_id',
      'rooms.floor',
      'rooms.description',
      'rooms.created_at',
      'rooms.updated_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('devices')
        .select((sub) => sub.fn.countAll<number>().as('count'))
        .whereRef('devices.room_id', '=', 'rooms.id')
        .as('devices_count'),
    )
    .where('rooms.organisation_id', '=', organisationId);
}

export type RoomRow = Awaited<ReturnType<ReturnType<typeof roomsQuery>['executeTakeFirstOrThrow']>>;

export function findRoom(db: Kysely<Database>, organisationId: number, roomId: number) {
  return roomsQuery(db, organisationId).where('rooms.id', '=', roomId).executeTakeFirst();
}

export async function insertRoom(db: Kysely<Database>, values: Insertable<RoomsTable>) {
  const row = await db.insertInto('rooms').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Updates the organisation's room; false when there is no such room. */
export async function updateRoom(
  db: Kysely<Database>,
  organisationId: number,
  roomId: number,
  values: Updateable<RoomsTable>,
) {
  const result = await db
    .updateTable('rooms')
    .set(values)
    .where('id', '=', roomId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countRoomDevices(db: Kysely<Database>, roomId: number) {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('room_id', '=', roomId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes the organisation's room; false when there is no such room. */
export async function deleteRoom(db: Kysely<Database>, organisationId: number, roomId: number) {
  const result = await db
    .deleteFrom('rooms')
    .where('id', '=', roomId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
