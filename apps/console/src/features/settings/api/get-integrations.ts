import type { Integration } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { integrationKeys } from './keys';

/** `GET /api/integrations` (the contracts' `integrationsListSchema`). */
export interface IntegrationsList {
  data: Integration[];
  meta: {
    /** Whether the server has a Telegram bot at all (TELEGRAM_BOT_TOKEN), and its @username. */
    telegram: { configured: boolean; bot_username: string | null };
  };
}

/** GET /api/integrations: the organisation's integrations, and whether the server has a bot. */
export async function getIntegrations(signal?: AbortSignal): Promise<IntegrationsList> {
  return (await apiClient.get<IntegrationsList>('/integrations', { signal })).data;
}

export const getIntegrationsQueryOptions = () =>
  queryOptions({ queryKey: integrationKeys.list(), queryFn: ({ signal }) => getIntegrations(signal) });

export function useIntegrations() {
  return useQuery(getIntegrationsQueryOptions());
}
