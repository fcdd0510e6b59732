import type { Room } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { useRooms } from './get-rooms';
import { placeKeys } from './reload-places';

/** GET /api/rooms/{id}. */
export async function getRoom(id: number, signal?: AbortSignal): Promise<Room> {
  return (await apiClient.get<{ data: Room }>(`/rooms/${id}`, { signal })).data.data;
}

export const getRoomQueryOptions = (id: number) =>
  queryOptions({ queryKey: placeKeys.room(id), queryFn: ({ signal }) => getRoom(id, signal) });

/** One room: from the cached list when it is there, otherwise asked for by id (see useAddress). */
export function useRoom(
  id: number | null,
  { fetch = true }: { fetch?: boolean } = {},
): { room?: Room; missing: boolean } {
  const listed = useRooms().find((room) => room.id === id);
  const query = useQuery({
    ...getRoomQueryOptions(id ?? 0),
    enabled: fetch && id !== null && listed === undefined,
  });
  if (listed) return { room: listed, missing: false };
  return { room: query.data, missing: id === null || query.isError };
}
