import type { RecipeSet, RecipeSetBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { recipeSetKeys } from './keys';
import { reloadRecipes } from './reload-recipes';

/** PUT /api/recipes_sets/{id}: the whole set, its recipes in order. */
export async function updateRecipeSet(id: number, body: RecipeSetBody): Promise<RecipeSet> {
  return (await apiClient.put<{ data: RecipeSet }>(`/recipes_sets/${id}`, body)).data.data;
}

/** Saves a set: the answer becomes its own copy, then the lists are reloaded (docs/contract.md, "States and transitions"). */
export function useUpdateRecipeSet(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecipeSetBody) => updateRecipeSet(id, body),
    onSuccess: (set) => {
      client.setQueryData(recipeSetKeys.detail(id), set);
      return reloadRecipes(client);
    },
  });
}
