import type { DeviceGroup, DeviceGroupBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceGroupKeys } from '../../../lib/device-groups/keys';

/** POST /api/devices/client/groups/add → 201 with the group. */
export async function createDeviceGroup(body: DeviceGroupBody): Promise<DeviceGroup> {
  return (await apiClient.post<{ data: DeviceGroup }>('/devices/client/groups/add', body)).data.data;
}

export function useCreateDeviceGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createDeviceGroup,
    onSuccess: () => client.invalidateQueries({ queryKey: deviceGroupKeys.all }),
  });
}
