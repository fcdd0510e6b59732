import type { PaginationMeta, SupportMessage } from '@kontrol/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { supportKeys } from './keys';

/** Messages asked for at a time: a screenful and some. */
export const SUPPORT_PAGE_SIZE = 30;
/** While the chat is open, how often it asks for new messages (support answers from the CLI). */
export const SUPPORT_OPEN_REFRESH_MS = 15_000;

export interface SupportMessagesPage {
  data: SupportMessage[];
  meta: PaginationMeta & { unread: number };
}

/** GET /api/messages/?page=&per_page=: the organisation's conversation with support, newest first. */
export async function getSupportMessages(page: number, signal?: AbortSignal): Promise<SupportMessagesPage> {
  const { data } = await apiClient.get<SupportMessagesPage>('/messages/', {
    params: { page, per_page: SUPPORT_PAGE_SIZE },
    signal,
  });
  return { data: data.data, meta: data.meta };
}

export const getSupportMessagesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: supportKeys.messages,
    queryFn: ({ pageParam, signal }) => getSupportMessages(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.meta.current_page < last.meta.last_page ? last.meta.current_page + 1 : undefined,
    staleTime: 0,
  });

/**
 * The conversation, a page at a time from the newest; the next page holds older messages. While
 * mounted (the chat is open) it is read again every {@link SUPPORT_OPEN_REFRESH_MS}.
 */
export function useSupportMessages() {
  return useInfiniteQuery({ ...getSupportMessagesQueryOptions(), refetchInterval: SUPPORT_OPEN_REFRESH_MS });
}

/**
 * The loaded messages oldest first, each once: a message that arrived while older pages were read
 * moves the page boundaries, so a message may come in two pages.
 */
export function conversationOf(pages: readonly SupportMessagesPage[] | undefined): SupportMessage[] {
  const byId = new Map<number, SupportMessage>();
  for (const page of pages ?? []) {
    for (const message of page.data) if (!byId.has(message.id)) byId.set(message.id, message);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
