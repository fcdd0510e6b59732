import type { ServiceEntry, ServiceEntryBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceKeys } from './keys';
import { reloadDevices } from './reload-devices';

/** POST /api/devices/{id}/service_log; maintenance moves the next service date on by the interval. */
export async function addServiceEntry(deviceId: number, body: ServiceEntryBody): Promise<ServiceEntry> {
  return (await apiClient.post<{ data: ServiceEntry }>(`/devices/${deviceId}/service_log`, body)).data.data;
}

/** Adds an entry, then refetches the log and the device (its next service date may have moved). */
export function useAddServiceEntry(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ServiceEntryBody) => addServiceEntry(deviceId, body),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
        reloadDevices(client),
      ]),
  });
}
