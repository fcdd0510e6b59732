import type { DeviceEventTemplate } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { referenceKey } from '../../../lib/reference-data/resources';
import { templateKeys } from './keys';

/** GET /api/devices/events/templates/{id}. */
export async function getTemplate(id: number, signal?: AbortSignal): Promise<DeviceEventTemplate> {
  return (await apiClient.get<{ data: DeviceEventTemplate }>(`/devices/events/templates/${id}`, { signal }))
    .data.data;
}

export const getTemplateQueryOptions = (id: number) =>
  queryOptions({ queryKey: templateKeys.detail(id), queryFn: ({ signal }) => getTemplate(id, signal) });

/**
 * One template, fresh from the server; while it loads, the copy in the templates list shows, so
 * the editor appears at once. `0` (a malformed address) asks for nothing.
 */
export function useTemplate(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...getTemplateQueryOptions(id),
    enabled: id > 0,
    placeholderData: () =>
      client
        .getQueryData<DeviceEventTemplate[]>(referenceKey('deviceEventTemplates'))
        ?.find((template) => template.id === id),
  });
}
