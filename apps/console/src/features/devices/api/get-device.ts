import type { Device } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { referenceKey } from '../../../lib/reference-data/resources';
import { deviceKeys } from './keys';

/** GET /api/devices/{id}. */
export async function getDevice(id: number, signal?: AbortSignal): Promise<Device> {
  return (await apiClient.get<{ data: Device }>(`/devices/${id}`, { signal })).data.data;
}

export const getDeviceQueryOptions = (id: number) =>
  queryOptions({ queryKey: deviceKeys.detail(id), queryFn: ({ signal }) => getDevice(id, signal) });

/**
 * One device, fresh from the server; while it loads, the copy in the devices reference list shows,
 * so the page appears at once.
 */
export function useDevice(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...getDeviceQueryOptions(id),
    // 0 stands for "no device" (a malformed address): nothing to ask for.
    enabled: id > 0,
    placeholderData: () =>
      client.getQueryData<Device[]>(referenceKey('devices'))?.find((device) => device.id === id),
  });
}
