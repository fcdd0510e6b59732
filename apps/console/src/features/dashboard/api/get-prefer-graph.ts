import type { PreferGraph } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { dashboardKeys } from '../../../lib/device-stat/keys';

/** What the day graph asks for: a date in a zone, and the devices of one type (null: all). */
export interface PreferGraphRequest {
  date: string;
  tz: string;
  type: number | null;
}

/**
 * GET /api/devices/info/prefer_graph: devices (of `type`, when one is chosen) online, working and
 * washing per hour of `date` in `tz`.
 */
export async function getPreferGraph(
  request: PreferGraphRequest,
  signal?: AbortSignal,
): Promise<PreferGraph> {
  return (
    await apiClient.get<{ data: PreferGraph }>('/devices/info/prefer_graph', {
      params: {
        date: request.date,
        tz: request.tz,
        ...(request.type === null ? {} : { type: request.type }),
      },
      signal,
    })
  ).data.data;
}

export const getPreferGraphQueryOptions = (request: PreferGraphRequest) =>
  queryOptions({
    queryKey: dashboardKeys.preferGraph(request),
    queryFn: ({ signal }) => getPreferGraph(request, signal),
  });

export function usePreferGraph(request: PreferGraphRequest, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...getPreferGraphQueryOptions(request),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
