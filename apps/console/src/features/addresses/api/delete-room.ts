import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadPlaces } from './reload-places';

/** DELETE /api/rooms/{id}; refused (422, `errors.room`) while devices stand in it. */
export async function deleteRoom(id: number): Promise<void> {
  await apiClient.delete(`/rooms/${id}`);
}

/** Deletes a room, then reloads addresses and rooms without cache (docs/contract.md, "States and transitions"). */
export function useDeleteRoom() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteRoom, onSuccess: () => reloadPlaces(client) });
}
