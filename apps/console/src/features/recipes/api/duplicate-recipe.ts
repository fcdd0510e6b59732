import type { Recipe } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadRecipes } from './reload-recipes';

/** POST /api/recipes/{id}/duplicate → 201 with the copy. */
export async function duplicateRecipe(id: number): Promise<Recipe> {
  return (await apiClient.post<{ data: Recipe }>(`/recipes/${id}/duplicate`)).data.data;
}

/** Copies a recipe and reloads the lists (docs/contract.md, "States and transitions"). */
export function useDuplicateRecipe() {
  const client = useQueryClient();
  return useMutation({ mutationFn: duplicateRecipe, onSuccess: () => reloadRecipes(client) });
}
