import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deploymentKeys } from './keys';

/** DELETE /api/recipes_sets_2/delete_recipes (docs/contract.md, "Entities" `bind_ids`, in the body): the device deletes them. */
export async function deleteBinds(bindIds: readonly number[]): Promise<void> {
  await apiClient.delete('/recipes_sets_2/delete_recipes', { data: { bind_ids: bindIds } });
}

/** Removes recipes from a device; its delivery status is asked for afresh. */
export function useDeleteBinds(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (bindIds: readonly number[]) => deleteBinds(bindIds),
    onSettled: () => client.invalidateQueries({ queryKey: deploymentKeys.status(deviceId) }),
  });
}
