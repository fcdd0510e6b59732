import type { RecipeSet, RecipeSetBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadRecipes } from './reload-recipes';

/** POST /api/recipes_sets/ → 201 with the set. */
export async function createRecipeSet(body: RecipeSetBody): Promise<RecipeSet> {
  return (await apiClient.post<{ data: RecipeSet }>('/recipes_sets/', body)).data.data;
}

/** Creates a set and reloads the sets and recipes lists (docs/contract.md, "States and transitions"). */
export function useCreateRecipeSet() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createRecipeSet, onSuccess: () => reloadRecipes(client) });
}
