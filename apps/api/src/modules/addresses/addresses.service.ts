import type { addressBodySchema, placesListQuerySchema } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, listOrPage, type FilterWhitelist } from '../../lib/pagination.js';
import { discardImageFile, type AddressImageDeps } from './address-image.service.js';
import { toAddress } from './addresses.presenter.js';
import {
  addressesQuery,
  addressExists,
  countAddressRooms,
  deleteAddress as deleteAddressRow,
  findAddress,
  insertAddress,
  updateAddress as updateAddressRow,
} from './addresses.repository.js';

export type AddressInput = z.output<typeof addressBodySchema>;

/** `filters[field]` of `GET /api/addresses/`. */
const ADDRESS_FILTERS: FilterWhitelist = {
  id: { column: 'addresses.id', type: 'number', operators: ['=', 'in'] },
  name: { column: 'addresses.name', type: 'string', operators: ['=', 'like'] },
  city: { column: 'addresses.city', type: 'string', operators: ['=', 'like'] },
  full_address: { column: 'addresses.full_address', type: 'string', operators: ['like'] },
  time_zone: { column: 'addresses.time_zone', type: 'string', operators: ['=', 'in'] },
};

/** The organisation's addresses by name, filtered: the whole list, or a page of it. */
export function listAddresses(
  db: Kysely<Database>,
  request: FastifyRequest,
  organisationId: number,
  { page, per_page: perPage, filters }: z.output<typeof placesListQuerySchema>,
) {
  const query = applyFilters(addressesQuery(db, organisationId), filters, ADDRESS_FILTERS)
    .orderBy('addresses.name')
    .orderBy('addresses.id');
  return listOrPage(request, query, { page, per_page: perPage }, toAddress);
}

/** One address of the organisation, or 404. */
export async function getAddress(db: Kysely<Database>, organisationId: number, addressId: number) {
  const row = await findAddress(db, organisationId, addressId);
  if (!row) throw notFound();
  return toAddress(row);
}

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
