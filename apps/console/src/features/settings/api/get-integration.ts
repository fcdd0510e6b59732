import type { Integration } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { IntegrationsList } from './get-integrations';
import { integrationKeys } from './keys';

/** GET /api/integrations_show/{id} (docs/contract.md, "HTTP calls"). */
export async function getIntegration(id: number, signal?: AbortSignal): Promise<Integration> {
  return (await apiClient.get<{ data: Integration }>(`/integrations_show/${id}`, { signal })).data.data;
}

export const getIntegrationQueryOptions = (id: number) =>
  queryOptions({ queryKey: integrationKeys.detail(id), queryFn: ({ signal }) => getIntegration(id, signal) });

/** One integration, fresh from the server; the copy in the list shows while it loads. */
export function useIntegration(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...getIntegrationQueryOptions(id),
    enabled: id > 0,
    placeholderData: () =>
      client.getQueryData<IntegrationsList>(integrationKeys.list())?.data.find((one) => one.id === id),
  });
}
