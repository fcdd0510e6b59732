import type { placesListQuerySchema, roomBodySchema } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, listOrPage, type FilterWhitelist } from '../../lib/pagination.js';
import { addressExists } from '../addresses/addresses.repository.js';
import { toRoom } from './rooms.presenter.js';
import {
  countRoomDevices,
  deleteRoom as deleteRoomRow,
  findRoom,
  insertRoom,
  roomsQuery,
  updateRoom as updateRoomRow,
} from './rooms.repository.js';

export type RoomInput = z.output<typeof roomBodySchema>;

/** `filters[field]` of `GET /api/rooms/`. */
const ROOM_FILTERS: FilterWhitelist = {
  id: { column: 'rooms.id', type: 'number', operators: ['=', 'in'] },
  address_id: { column: 'rooms.address_id', type: 'number', operators: ['=', 'in'] },
  name: { column: 'rooms.name', type: 'string', operators: ['=', 'like'] },
};

/** The organisation's rooms by name, filtered: the whole list, or a page of it. */
export function listRooms(
  db: Kysely<Database>,
  request: FastifyRequest,
  organisationId: number,
  { page, per_page: perPage, filters }: z.output<typeof placesListQuerySchema>,
) {
  const query = applyFilters(roomsQuery(db, organisationId), filters, ROOM_FILTERS)
    .orderBy('rooms.name')
    .orderBy('rooms.id');
  return listOrPage(request, query, { page, per_page: perPage }, toRoom);
}

/** One room of the organisation, or 404. */
export async function getRoom(db: Kysely<Database>, organisationId: number, roomId: number) {
  const row = await findRoom(db, organisationId, roomId);
  if (!row) throw notFound();
  return toRoom(row);
}

const noSuchAddress = () => new FieldValidationError({ address_id: ['field.exists'] });

/** A room may only be in an address of the same organisation; any other id "does not exist". */
async function checkAddress(db: Kysely<Database>, organisationId: number, addressId: number) {
  if (!(await addressExists(db, organisationId, addressId))) throw noSuchAddress();
}

/** The address deleted between the check and the write: the foreign key has the last word. */
async function guardAddressGone<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw noSuchAddress();
    throw error;
  }
}

const columnsOf = (input: RoomInput) => ({
  name: input.name,
  address_id: input.address_id,
  floor: input.floor,
  description: input.description,
});

export async function createRoom(db: Kysely<Database>, organisationId: number, input: RoomInput) {
  await checkAddress(db, organisationId, input.address_id);
  const now = nowIso();
  return guardAddressGone(
    insertRoom(db, {
      organisation_id: organisationId,
      ...columnsOf(input),
      created_at: now,
      updated_at: now,
    }),
  );
}

/** PUT replaces every field; a new `address_id` moves the room, its devices with it. */
export async function updateRoom(
  db: Kysely<Database>,
  organisationId: number,
  roomId: number,
  input: RoomInput,
) {
  if (!(await findRoom(db, organisationId, roomId))) throw notFound();
  await checkAddress(db, organisationId, input.address_id);
  const updated = await guardAddressGone(
    updateRoomRow(db, organisationId, roomId, { ...columnsOf(input), updated_at: nowIso() }),
  );
  if (!updated) throw notFound();
}

const hasDevices = () => new FieldValidationError({ room: ['room.has_devices'] });

/** Deletes a room with no devices; one with devices is refused, as an address with rooms is. */
export async function deleteRoom(db: Kysely<Database>, organisationId: number, roomId: number) {
  if (!(await findRoom(db, organisationId, roomId))) throw notFound();
  if ((await countRoomDevices(db, roomId)) > 0) throw hasDevices();
  let deleted: boolean;
  try {
    deleted = await deleteRoomRow(db, organisationId, roomId);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw hasDevices();
    throw error;
  }
  if (!deleted) throw notFound();
}
