import type { DeviceEvent } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { referenceKey } from '../../../lib/reference-data/resources';
import { deviceEventKeys } from '../../../lib/device-events/keys';

/** GET /api/devices/events/{id}. */
export async function getDeviceEvent(id: number, signal?: AbortSignal): Promise<DeviceEvent> {
  return (await apiClient.get<{ data: DeviceEvent }>(`/devices/events/${id}`, { signal })).data.data;
}

export const getDeviceEventQueryOptions = (id: number) =>
  queryOptions({ queryKey: deviceEventKeys.detail(id), queryFn: ({ signal }) => getDeviceEvent(id, signal) });

/**
 * One event, fresh from the server; while it loads, the copy in the list loaded on entry shows.
 * `0` (a malformed address) asks for nothing.
 */
export function useDeviceEvent(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...getDeviceEventQueryOptions(id),
    enabled: id > 0,
    placeholderData: () =>
      client.getQueryData<DeviceEvent[]>(referenceKey('deviceEvents'))?.find((event) => event.id === id),
  });
}
