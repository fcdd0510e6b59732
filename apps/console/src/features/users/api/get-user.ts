import type { User } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { referenceKey } from '../../../lib/reference-data/resources';
import { userKeys } from './keys';

/** GET /api/users/{id}. */
export async function getUser(id: number, signal?: AbortSignal): Promise<User> {
  return (await apiClient.get<{ data: User }>(`/users/${id}`, { signal })).data.data;
}

export const getUserQueryOptions = (id: number) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: ({ signal }) => getUser(id, signal) });

/**
 * One user, fresh from the server; while it loads, the copy in the users reference list shows.
 * `0` (a malformed address) asks for nothing.
 */
export function useUser(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...getUserQueryOptions(id),
    enabled: id > 0,
    placeholderData: () => client.getQueryData<User[]>(referenceKey('users'))?.find((user) => user.id === id),
  });
}
