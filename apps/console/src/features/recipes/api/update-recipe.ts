import type { Recipe, RecipeBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { recipeKeys } from './keys';
import { reloadRecipes } from './reload-recipes';

/** PUT /api/recipes/{id}: the whole recipe (its steps and sets). */
export async function updateRecipe(id: number, body: RecipeBody): Promise<Recipe> {
  return (await apiClient.put<{ data: Recipe }>(`/recipes/${id}`, body)).data.data;
}

/** Saves a recipe: the answer becomes its own copy, then the lists are reloaded (docs/contract.md, "States and transitions"). */
export function useUpdateRecipe(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecipeBody) => updateRecipe(id, body),
    onSuccess: (recipe) => {
      client.setQueryData(recipeKeys.detail(id), recipe);
      return reloadRecipes(client);
    },
  });
}
