import type { Integration, IntegrationBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { TelegramBinding } from './get-telegram-binding';
import { integrationKeys } from './keys';

/** The answer to `POST /api/integrations` (`integrationCreatedSchema`): the link is shown once. */
export interface IntegrationCreated {
  data: Integration;
  link: { token: string; url: string; expires_at: string };
}

/** POST /api/integrations → 201 (admins; 422 on `kind` when the server has no bot). */
export async function createIntegration(body: IntegrationBody): Promise<IntegrationCreated> {
  return (await apiClient.post<IntegrationCreated>('/integrations', body)).data;
}

/**
 * Creates an integration, reloads the list, and leaves its binding in the cache so the waiting
 * page shows the link at once.
 */
export function useCreateIntegration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createIntegration,
    onSuccess: async (created) => {
      const binding: TelegramBinding = {
        integration_id: created.data.id,
        status: created.data.status,
        url: created.link.url,
        expires_at: created.link.expires_at,
        chat: created.data.chat,
      };
      client.setQueryData(integrationKeys.binding(created.link.token), binding);
      await client.invalidateQueries({ queryKey: integrationKeys.list() });
    },
  });
}
