import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { bellKeys } from './keys';

/** GET /api/notifications/unread → `{data: {unread}}`: how many of the user's own are unread. */
export async function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return (await apiClient.get<{ data: { unread: number } }>('/notifications/unread', { signal })).data.data
    .unread;
}

export const getUnreadCountQueryOptions = () =>
  queryOptions({ queryKey: bellKeys.unread, queryFn: ({ signal }) => getUnreadCount(signal), staleTime: 0 });

/** The unread count of the bell: read on mount, and again whenever the root key is invalidated. */
export function useUnreadCount() {
  return useQuery(getUnreadCountQueryOptions());
}
