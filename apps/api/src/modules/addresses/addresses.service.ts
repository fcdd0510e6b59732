import type { addressBodySchema } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { FieldValidationError, notFound } from '../../lib/http-errors.js';
import { nowIso } from '../../lib/time.js';
import { discardImageFile, type AddressImageDeps } from './address-image.service.js';
import {
  addressExists,
  countAddressRooms,
  deleteAddress as deleteAddressRow,
  insertAddress,
  updateAddress as updateAddressRow,
} from './addresses.repository.js';

export type AddressInput = z.output<typeof addressBodySchema>;

const columnsOf = (input: AddressInput) => ({
  name: input.name,
  full_address: input.full_address,
  city: input.city,
  time_zone: input.time_zone,
  work_time: JSON.stringify(input.work_time),
  latitude: input.latitude ?? null,
  longitude: input.longitude ?? null,
});

export async function createAddress(db: Kysely<Database>, organisationId: number, input: AddressInput) {
  const now = nowIso();
  return insertAddress(db, {
    organisation_id: organisationId,
    ...columnsOf(input),
    image_file: null,
    image_type: null,
    image_updated_at: null,
    created_at: now,
    updated_at: now,
  });
}

/** PUT replaces every field of the address; its image and rooms stay. */
export async function updateAddress(
  db: Kysely<Database>,
  organisationId: number,
  addressId: number,
  input: AddressInput,
) {
  const updated = await updateAddressRow(db, organisationId, addressId, {
    ...columnsOf(input),
    updated_at: nowIso(),
  });
  if (!updated) throw notFound();
}

const hasRooms = () => new FieldValidationError({ address: ['address.has_rooms'] });

/**
 * Deletes an address that holds no rooms (and so no devices): deleting one with rooms is refused
 * rather than cascaded, so equipment and its history are never lost by one click. Its image file
 * goes with it.
 */
export async function deleteAddress(deps: AddressImageDeps, organisationId: number, addressId: number) {
  if (!(await addressExists(deps.db, organisationId, addressId))) throw notFound();
  if ((await countAddressRooms(deps.db, addressId)) > 0) throw hasRooms();
  let deleted;
  try {
    deleted = await deleteAddressRow(deps.db, organisationId, addressId);
  } catch (error) {
    // A room added between the count and the delete: the foreign key has the last word.
    if (isForeignKeyViolation(error)) throw hasRooms();
    throw error;
  }
  if (!deleted) throw notFound();
  if (deleted.image_file) await discardImageFile(deps, deleted.image_file);
}
