import type { Room, RoomBody } from '@kontrol/contracts';
import { apiClient } from '../../../lib/api-client';

/** POST /api/rooms/ → 201 with the new room. Call {@link reloadPlaces} afterwards. */
export async function createRoom(body: RoomBody): Promise<Room> {
  return (await apiClient.post<{ data: Room }>('/rooms/', body)).data.data;
}
