import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deploymentKeys } from './keys';

/**
 * POST /api/devices/{id}/recipe_set/{setId}: the device is to hold that set (its recipes are bound
 * and sent; those of the set it held before are removed).
 */
export async function deploySet(deviceId: number, setId: number): Promise<void> {
  await apiClient.post(`/devices/${deviceId}/recipe_set/${setId}`);
}

/** Gives a device a set; its delivery status is asked for afresh. */
export function useDeploySet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ deviceId, setId }: { deviceId: number; setId: number }) => deploySet(deviceId, setId),
    onSettled: (_result, _error, { deviceId }) =>
      client.invalidateQueries({ queryKey: deploymentKeys.status(deviceId) }),
  });
}
