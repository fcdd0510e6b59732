import type { Notification } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { bellKeys } from './keys';

/** How many of the newest notifications the bell's list shows; the rest are on the notifications tab. */
export const LATEST_COUNT = 10;

/** GET /api/notifications?page=1&per_page=10: the user's newest notifications. */
export async function getLatestNotifications(signal?: AbortSignal): Promise<Notification[]> {
  return (
    await apiClient.get<{ data: Notification[] }>('/notifications', {
      params: { page: 1, per_page: LATEST_COUNT },
      signal,
    })
  ).data.data;
}

export const getLatestNotificationsQueryOptions = () =>
  queryOptions({ queryKey: bellKeys.latest, queryFn: ({ signal }) => getLatestNotifications(signal) });

/** The bell's list: read when it opens, and again while it is open when notifications change. */
export function useLatestNotifications() {
  return useQuery(getLatestNotificationsQueryOptions());
}
