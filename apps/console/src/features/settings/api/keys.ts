/** Query keys of the settings screens: the integrations, one integration, a Telegram binding. */
export const integrationKeys = {
  all: ['integrations'] as const,
  list: () => ['integrations', 'list'] as const,
  detail: (id: number) => ['integrations', 'detail', id] as const,
  binding: (token: string) => ['integrations', 'telegram', token] as const,
};
