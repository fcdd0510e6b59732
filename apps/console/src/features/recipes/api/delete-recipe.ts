import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadRecipes } from './reload-recipes';

/**
 * DELETE /api/recipes/{id} → 204. A recipe deployed on devices is refused with a 422 on `recipe`,
 * whose message the confirmation dialog shows.
 */
export async function deleteRecipe(id: number): Promise<void> {
  await apiClient.delete(`/recipes/${id}`);
}

/** Deletes a recipe (the id is the variable: the list deletes any of its cards) and reloads the lists. */
export function useDeleteRecipe() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteRecipe, onSuccess: () => reloadRecipes(client) });
}
