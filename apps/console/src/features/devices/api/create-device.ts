import type { DeviceBody, DeviceWithCredential } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadDevices } from './reload-devices';

/** POST /api/devices/ → 201 with the device; a smart one carries its credential, this once only. */
export async function createDevice(body: DeviceBody): Promise<DeviceWithCredential> {
  return (await apiClient.post<{ data: DeviceWithCredential }>('/devices/', body)).data.data;
}

/** Creates a device and reloads the devices list (docs/contract.md, "States and transitions"). */
export function useCreateDevice() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createDevice, onSuccess: () => reloadDevices(client) });
}
