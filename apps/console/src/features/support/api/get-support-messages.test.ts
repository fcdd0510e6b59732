import { describe, expect, it } from 'vitest';
import { buildSupportMessage } from '../../../test/entities';
import { conversationOf, type SupportMessagesPage } from './get-support-messages';

const page = (ids: number[]): SupportMessagesPage => ({
  data: ids.map((id) => buildSupportMessage({ id, text: `#${id}` })),
  meta: { current_page: 1, from: 1, last_page: 2, path: '', per_page: 2, to: 2, total: 4, unread: 0 },
});

describe('the conversation', () => {
  it('is oldest first, each message once, though a new message moved the page boundaries', () => {
    // Page 1 was read as [4, 3]; message 5 arrived; page 2 then held [3, 2].
    expect(conversationOf([page([4, 3]), page([3, 2])]).map((message) => message.id)).toEqual([2, 3, 4]);
    expect(conversationOf(undefined)).toEqual([]);
  });
});
