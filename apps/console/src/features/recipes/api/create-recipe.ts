import type { Recipe, RecipeBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadRecipes } from './reload-recipes';

/** POST /api/recipes/ → 201 with the recipe. */
export async function createRecipe(body: RecipeBody): Promise<Recipe> {
  return (await apiClient.post<{ data: Recipe }>('/recipes/', body)).data.data;
}

/** Creates a recipe and reloads the recipes and sets lists (docs/contract.md, "States and transitions"). */
export function useCreateRecipe() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createRecipe, onSuccess: () => reloadRecipes(client) });
}
