import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deploymentKeys } from './keys';

/** POST /api/recipes_sets/upload (docs/contract.md, "Entities" `device_id, set_id`): send the set's recipes again (a retry). */
export async function uploadSet(deviceId: number, setId: number): Promise<void> {
  await apiClient.post('/recipes_sets/upload', { device_id: deviceId, set_id: setId });
}

/** Sends a set to a device again; its delivery status is asked for afresh. */
export function useUploadSet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ deviceId, setId }: { deviceId: number; setId: number }) => uploadSet(deviceId, setId),
    onSettled: (_result, _error, { deviceId }) =>
      client.invalidateQueries({ queryKey: deploymentKeys.status(deviceId) }),
  });
}
