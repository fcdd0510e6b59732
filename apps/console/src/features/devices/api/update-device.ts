import type { Device, DeviceBody, DeviceWithCredential } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceKeys } from './keys';
import { reloadDevices } from './reload-devices';

/**
 * PUT /api/devices/{id} (the whole device). `credential` is set only when this change made the
 * device smart and it had none: shown once, like on create.
 */
export async function updateDevice(id: number, body: DeviceBody): Promise<DeviceWithCredential> {
  return (await apiClient.put<{ data: DeviceWithCredential }>(`/devices/${id}`, body)).data.data;
}

/** Saves a device, keeps its page's copy (without the secret) and reloads the devices list (docs/contract.md, "States and transitions"). */
export function useUpdateDevice(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeviceBody) => updateDevice(id, body),
    onSuccess: async ({ credential: _secret, ...device }) => {
      client.setQueryData<Device>(deviceKeys.detail(id), device);
      await reloadDevices(client);
    },
  });
}
