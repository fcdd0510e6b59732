import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceKeys } from './keys';

/** DELETE /api/devices/{id}/service_log/{entryId}. */
export async function deleteServiceEntry(deviceId: number, entryId: number): Promise<void> {
  await apiClient.delete(`/devices/${deviceId}/service_log/${entryId}`);
}

export function useDeleteServiceEntry(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (entryId: number) => deleteServiceEntry(deviceId, entryId),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.serviceLog(deviceId) }),
  });
}
