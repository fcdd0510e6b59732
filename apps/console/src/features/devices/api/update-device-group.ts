import type { DeviceGroup, DeviceGroupBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceGroupKeys } from '../../../lib/device-groups/keys';

/** PUT /api/devices/client/groups/{id}: name, description and the whole member list. */
export async function updateDeviceGroup(id: number, body: DeviceGroupBody): Promise<DeviceGroup> {
  return (await apiClient.put<{ data: DeviceGroup }>(`/devices/client/groups/${id}`, body)).data.data;
}

export function useUpdateDeviceGroup(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeviceGroupBody) => updateDeviceGroup(id, body),
    onSuccess: async (group) => {
      client.setQueryData(deviceGroupKeys.detail(id), group);
      await client.invalidateQueries({ queryKey: [...deviceGroupKeys.all, 'list'] });
    },
  });
}
