import type { DeviceLimits } from '@kontrol/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceKeys } from './keys';

/** Read again this often while the connection tab is open (the gateways write their counts within seconds). */
const REFRESH_MS = 60_000;

/** GET /api/devices/{id}/limits: the limits in force and the device's last 7 UTC days. */
export async function getDeviceLimits(id: number, signal?: AbortSignal): Promise<DeviceLimits> {
  return (await apiClient.get<{ data: DeviceLimits }>(`/devices/${id}/limits`, { signal })).data.data;
}

export function useDeviceLimits(id: number, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.limits(id),
    queryFn: ({ signal }) => getDeviceLimits(id, signal),
    refetchInterval: REFRESH_MS,
    enabled,
  });
}
