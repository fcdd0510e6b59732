import type { PreferGraph } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { dashboardKeys } from './keys';

/** GET /api/devices/info/prefer_graph: devices online, working and washing per hour of `date` in `tz`. */
export async function getPreferGraph(
  request: { date: string; tz: string },
  signal?: AbortSignal,
): Promise<PreferGraph> {
  return (
    await apiClient.get<{ data: PreferGraph }>('/devices/info/prefer_graph', {
      params: { date: request.date, tz: request.tz },
      signal,
    })
  ).data.data;
}

export const getPreferGraphQueryOptions = (request: { date: string; tz: string }) =>
  queryOptions({
    queryKey: dashboardKeys.preferGraph(request),
    queryFn: ({ signal }) => getPreferGraph(request, signal),
  });

export function usePreferGraph(request: { date: string; tz: string }, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...getPreferGraphQueryOptions(request),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
