import { SUPPORT_UNREAD_POLL_MS } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { supportKeys } from './keys';

/** GET /api/messages/unread → `{data: {unread}}`: support's messages nobody in the organisation has read. */
export async function getSupportUnread(signal?: AbortSignal): Promise<number> {
  return (await apiClient.get<{ data: { unread: number } }>('/messages/unread', { signal })).data.data.unread;
}

export const getSupportUnreadQueryOptions = () =>
  queryOptions({ queryKey: supportKeys.unread, queryFn: ({ signal }) => getSupportUnread(signal) });

/** The unread count, asked for every SUPPORT_UNREAD_POLL_MS while the page is visible. */
export function useSupportUnread() {
  return useQuery({
    ...getSupportUnreadQueryOptions(),
    refetchInterval: SUPPORT_UNREAD_POLL_MS,
    staleTime: SUPPORT_UNREAD_POLL_MS / 2,
  });
}
