import type { DeviceGroup } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceGroupKeys } from '../../../lib/device-groups/keys';

/** GET /api/devices/client/groups/{id}. */
export async function getDeviceGroup(id: number, signal?: AbortSignal): Promise<DeviceGroup> {
  return (await apiClient.get<{ data: DeviceGroup }>(`/devices/client/groups/${id}`, { signal })).data.data;
}

export const getDeviceGroupQueryOptions = (id: number) =>
  queryOptions({ queryKey: deviceGroupKeys.detail(id), queryFn: ({ signal }) => getDeviceGroup(id, signal) });

/** One group; `0` (a malformed address) asks for nothing. */
export function useDeviceGroup(id: number) {
  return useQuery({ ...getDeviceGroupQueryOptions(id), enabled: id > 0 });
}
