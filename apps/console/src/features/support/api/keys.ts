/** Query keys of the support chat: the conversation's pages and the unread count. */
export const supportKeys = {
  all: ['support'] as const,
  messages: ['support', 'messages'] as const,
  unread: ['support', 'unread'] as const,
};
