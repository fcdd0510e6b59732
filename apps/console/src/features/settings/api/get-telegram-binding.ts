import type { Integration, IntegrationStatus } from '@kontrol/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { statusOf } from '../../../lib/api-errors';
import { integrationKeys } from './keys';

/** `GET /api/integrations/telegram/{token}` (`telegramBindingSchema`): what a link token started. */
export interface TelegramBinding {
  integration_id: number;
  status: IntegrationStatus;
  url: string;
  expires_at: string | null;
  chat: Integration['chat'];
}

/** How often a waiting binding is asked for again. */
export const BINDING_POLL_MS = 2_000;

/** GET /api/integrations/telegram/{token}. */
export async function getTelegramBinding(token: string, signal?: AbortSignal): Promise<TelegramBinding> {
  return (
    await apiClient.get<{ data: TelegramBinding }>(`/integrations/telegram/${encodeURIComponent(token)}`, {
      signal,
    })
  ).data.data;
}

/**
 * The binding a link started, asked again every {@link BINDING_POLL_MS} while it waits for the
 * chat (`pending`) and no more once it is active, expired or blocked. Leaving the page stops it
 * (the query has no observer any more). When it stops waiting, the integrations are read again.
 * An unknown token (404) is not asked for again; other failures are, at the same pace.
 */
export function useTelegramBinding(token: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: integrationKeys.binding(token),
    queryFn: async ({ signal }) => {
      const binding = await getTelegramBinding(token, signal);
      if (binding.status !== 'pending') {
        void client.invalidateQueries({ queryKey: integrationKeys.list() });
        void client.invalidateQueries({ queryKey: integrationKeys.detail(binding.integration_id) });
      }
      return binding;
    },
    // The copy the add page left is only a start: ask the server at once.
    staleTime: 0,
    // An unknown token stays unknown; any other failure (Telegram unreachable: 503) is tried again.
    refetchInterval: (query) => {
      const { data, error } = query.state;
      if (data) return data.status === 'pending' ? BINDING_POLL_MS : false;
      return statusOf(error) === 404 ? false : BINDING_POLL_MS;
    },
  });
}
