import type { Database } from '@kontrol/db';
import type { Insertable, Kysely, Updateable } from 'kysely';

type AddressesTable = Database['addresses'];

/**
 * The organisation's addresses with how many rooms and devices each holds (devices are counted
 * through their rooms). Another organisation's addresses never appear.
 */
export function addressesQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('addresses')
    .select([
      'addresses.id',
      'addresses.name',
      'addresses.full_address',
      'addresses.city',
      'addresses.time_zone',
      'addresses.work_time',
      'addresses.latitude',
      'addresses.longitude',
      'addresses.image_file',
      'addresses.image_type',
      'addresses.image_updated_at',
      'addresses.created_at',
      'addresses.updated_at',
    ])
    .select((eb) => [
      eb
        .selectFrom('rooms')
        .select((sub) => sub.fn.countAll<number>().as('count'))
        .whereRef('rooms.address_id', '=', 'addresses.id')
        .as('rooms_count'),
      eb
        .selectFrom('devices')
        .innerJoin('rooms', 'rooms.id', 'devices.room_id')
        .select((sub) => sub.fn.countAll<number>().as('count'))
        .whereRef('rooms.address_id', '=', 'addresses.id')
        .as('devices_count'),
    ])
    .where('addresses.organisation_id', '=', organisationId);
}

export type AddressRow = Awaited<ReturnType<ReturnType<typeof addressesQuery>['executeTakeFirstOrThrow']>>;

export function findAddress(db: Kysely<Database>, organisationId: number, addressId: number) {
  return addressesQuery(db, organisationId).where('addresses.id', '=', addressId).executeTakeFirst();
}

/** Whether the address exists in the organisation (rooms may only point at such an address). */
export async function addressExists(db: Kysely<Database>, organisationId: number, addressId: number) {
  const row = await db
    .selectFrom('addresses')
    .select('id')
    .where('id', '=', addressId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertAddress(db: Kysely<Database>, values: Insertable<AddressesTable>) {
  const row = await db.insertInto('addresses').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Updates the organisation's address; false when there is no such address. */
export async function updateAddress(
  db: Kysely<Database>,
  organisationId: number,
  addressId: number,
  values: Updateable<AddressesTable>,
) {
  const result = await db
    .updateTable('addresses')
    .set(values)
    .where('id', '=', addressId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countAddressRooms(db: Kysely<Database>, addressId: number) {
  const row = await db
    .selectFrom('rooms')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('address_id', '=', addressId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes the address; answers its image file as it was at that moment, or undefined if none was deleted. */
export function deleteAddress(db: Kysely<Database>, organisationId: number, addressId: number) {
  return db
    .deleteFrom('addresses')
    .where('id', '=', addressId)
    .where('organisation_id', '=', organisationId)
    .returning('image_file')
    .executeTakeFirst();
}

export function findAddressImage(db: Kysely<Database>, organisationId: number, addressId: number) {
  return db
    .selectFrom('addresses')
    .select(['image_file', 'image_type'])
    .where('id', '=', addressId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
}

/**
 * Sets the address's image only if its file is still `expectedFile` (compare-and-set), so two
 * uploads at once cannot both believe they replaced the same old file. True when it was set.
 */
export async function swapAddressImage(
  db: Kysely<Database>,
  organisationId: number,
  addressId: number,
  expectedFile: string | null,
  image: { file: string | null; type: string | null; updatedAt: string | null },
  now: string,
) {
  const result = await db
    .updateTable('addresses')
    .set({
      image_file: image.file,
      image_type: image.type,
      image_updated_at: image.updatedAt,
      updated_at: now,
    })
    .where('id', '=', addressId)
    .where('organisation_id', '=', organisationId)
    .where('image_file', expectedFile === null ? 'is' : '=', expectedFile)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
