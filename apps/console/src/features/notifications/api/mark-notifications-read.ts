import type { Notification, NotificationsReadBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { bellKeys } from './keys';

/** POST /api/notifications/read `{ids?}` (all of the user's own without ids) → `{data: {marked, unread}}`. */
export async function markNotificationsRead(
  body: NotificationsReadBody = {},
): Promise<{ marked: number; unread: number }> {
  return (await apiClient.post<{ data: { marked: number; unread: number } }>('/notifications/read', body))
    .data.data;
}

/**
 * Marks notifications read: the bell shows the count the server answered and its list as read at
 * once, then every notifications list is read again.
 */
export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSuccess: async (result, body) => {
      client.setQueryData(bellKeys.unread, result.unread);
      const now = new Date().toISOString();
      client.setQueryData<Notification[]>(bellKeys.latest, (list) =>
        list?.map((one) =>
          one.read_at === null && (!body?.ids || body.ids.includes(one.id)) ? { ...one, read_at: now } : one,
        ),
      );
      await client.invalidateQueries({ queryKey: bellKeys.all });
    },
  });
}
