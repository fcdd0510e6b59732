import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deploymentKeys } from './keys';

/** POST /api/recipes_sets/upload_recipes (docs/contract.md, "Entities" `recipe_ids, device_id`): recipes on their own. */
export async function uploadRecipes(deviceId: number, recipeIds: readonly number[]): Promise<void> {
  await apiClient.post('/recipes_sets/upload_recipes', { recipe_ids: recipeIds, device_id: deviceId });
}

/** Sends single recipes to a device (or again, a retry); its delivery status is asked for afresh. */
export function useUploadRecipes(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (recipeIds: readonly number[]) => uploadRecipes(deviceId, recipeIds),
    onSettled: () => client.invalidateQueries({ queryKey: deploymentKeys.status(deviceId) }),
  });
}
