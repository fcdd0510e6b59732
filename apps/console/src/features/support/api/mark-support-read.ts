import type { SupportMessage } from '@kontrol/contracts';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { SupportMessagesPage } from './get-support-messages';
import { supportKeys } from './keys';

/**
 * POST /api/messages/read {up_to_id} → `{data: {unread}}`: support's messages up to that one count
 * as read; the answer is the new unread count.
 */
export async function markSupportRead(upToId: number): Promise<number> {
  return (await apiClient.post<{ data: { unread: number } }>('/messages/read', { up_to_id: upToId })).data
    .data.unread;
}

/**
 * Marks support's messages read up to one that was shown; the unread count becomes the server's
 * answer and the shown messages count as read at once.
 */
export function useMarkSupportRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: markSupportRead,
    onSuccess: (unread, upToId) => {
      const now = new Date().toISOString();
      const read = (message: SupportMessage) =>
        message.from === 'support' && message.read_at === null && message.id <= upToId
          ? { ...message, read_at: now }
          : message;
      client.setQueryData<InfiniteData<SupportMessagesPage>>(supportKeys.messages, (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.map(read) })) } : data,
      );
      client.setQueryData(supportKeys.unread, unread);
    },
  });
}
