/**
 * Query keys of the notification bell. They sit under the root `['notifications']` that the
 * notifications tab's pages use too (features/telemetry/api/keys.ts), so invalidating that root
 * after a change (read, or new ones arriving) refreshes the bell and the tab together.
 */
export const bellKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  latest: ['notifications', 'latest'] as const,
};
