import type { Device, DeviceWithCredential } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceKeys } from './keys';
import { reloadDevices } from './reload-devices';

/**
 * POST /api/devices/{id}/credential: a new gateway credential, in this answer only; the old one
 * stops working at once. Smart devices only (422 otherwise).
 */
export async function rotateDeviceCredential(id: number): Promise<DeviceWithCredential> {
  return (await apiClient.post<{ data: DeviceWithCredential }>(`/devices/${id}/credential`)).data.data;
}

/** Rotates the credential; the cached device (never the secret) gets the new issue date. */
export function useRotateDeviceCredential(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => rotateDeviceCredential(id),
    onSuccess: async ({ credential: _secret, ...device }) => {
      client.setQueryData<Device>(deviceKeys.detail(id), device);
      await reloadDevices(client);
    },
  });
}
