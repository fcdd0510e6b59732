import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadRecipes } from './reload-recipes';

/** DELETE /api/recipes_sets/{id} → 204 (a refusal's message shows in the confirmation dialog). */
export async function deleteRecipeSet(id: number): Promise<void> {
  await apiClient.delete(`/recipes_sets/${id}`);
}

/** Deletes a set and reloads the lists (docs/contract.md, "States and transitions"). */
export function useDeleteRecipeSet() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteRecipeSet, onSuccess: () => reloadRecipes(client) });
}
