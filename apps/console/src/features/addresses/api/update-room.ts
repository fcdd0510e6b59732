import type { Room, RoomBody } from '@kontrol/contracts';
import { apiClient } from '../../../lib/api-client';

/** PUT /api/rooms/{id}. Call {@link reloadPlaces} afterwards. */
export async function updateRoom(id: number, body: RoomBody): Promise<Room> {
  return (await apiClient.put<{ data: Room }>(`/rooms/${id}`, body)).data.data;
}
