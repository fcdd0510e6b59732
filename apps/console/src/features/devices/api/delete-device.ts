import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadDevices } from './reload-devices';

/** DELETE /api/devices/{id}: the device goes with its group memberships and service log. */
export async function deleteDevice(id: number): Promise<void> {
  await apiClient.delete(`/devices/${id}`);
}

/**
 * Deletes a device and reloads the devices list (docs/contract.md, "States and transitions"). Its page's data is left to expire: the
 * page is still on screen until the caller navigates away, and must not refetch a deleted device.
 */
export function useDeleteDevice(id: number) {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => deleteDevice(id), onSuccess: () => reloadDevices(client) });
}
