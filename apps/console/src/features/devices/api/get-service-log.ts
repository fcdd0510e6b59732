import type { ServiceEntry } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceKeys } from './keys';

/** GET /api/devices/{id}/service_log: newest date first. */
export async function getServiceLog(deviceId: number, signal?: AbortSignal): Promise<ServiceEntry[]> {
  return (await apiClient.get<{ data: ServiceEntry[] }>(`/devices/${deviceId}/service_log`, { signal })).data
    .data;
}

export const getServiceLogQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: deviceKeys.serviceLog(deviceId),
    queryFn: ({ signal }) => getServiceLog(deviceId, signal),
  });

export function useServiceLog(deviceId: number) {
  return useQuery(getServiceLogQueryOptions(deviceId));
}
