import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceGroupKeys } from '../../../lib/device-groups/keys';

/** DELETE /api/devices/client/groups/{id}; its devices stay. */
export async function deleteDeviceGroup(id: number): Promise<void> {
  await apiClient.delete(`/devices/client/groups/${id}`);
}

/** Deletes a group and refetches the groups list (the group's own page is left to expire). */
export function useDeleteDeviceGroup(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => deleteDeviceGroup(id),
    onSuccess: () => client.invalidateQueries({ queryKey: [...deviceGroupKeys.all, 'list'] }),
  });
}
