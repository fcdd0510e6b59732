import type { Room } from '@kontrol/contracts';
import type { RoomRow } from './rooms.repository.js';

/** A room as the API answers it (contracts `roomSchema`). */
export function toRoom(row: RoomRow): Room {
  return {
    id: row.id,
    name: row.name,
    address_id: row.address_id,
    floor: row.floor,
    description: row.description,
    devices_count: Number(row.devices_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
