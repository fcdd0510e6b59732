import type { Recipe } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { referenceKey } from '../../../lib/reference-data/resources';
import { recipeKeys } from './keys';

/** GET /api/recipes/{id}. */
export async function getRecipe(id: number, signal?: AbortSignal): Promise<Recipe> {
  return (await apiClient.get<{ data: Recipe }>(`/recipes/${id}`, { signal })).data.data;
}

export const getRecipeQueryOptions = (id: number) =>
  queryOptions({ queryKey: recipeKeys.detail(id), queryFn: ({ signal }) => getRecipe(id, signal) });

/**
 * One recipe, fresh from the server; while it loads, the copy in the recipes list shows, so the
 * editor appears at once. `0` (a malformed address) asks for nothing.
 */
export function useRecipe(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...getRecipeQueryOptions(id),
    enabled: id > 0,
    placeholderData: () =>
      client.getQueryData<Recipe[]>(referenceKey('recipes'))?.find((recipe) => recipe.id === id),
  });
}
