import type { RecipeSet } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { referenceKey } from '../../../lib/reference-data/resources';
import { recipeSetKeys } from './keys';

/** GET /api/recipes_sets/{id}. */
export async function getRecipeSet(id: number, signal?: AbortSignal): Promise<RecipeSet> {
  return (await apiClient.get<{ data: RecipeSet }>(`/recipes_sets/${id}`, { signal })).data.data;
}

export const getRecipeSetQueryOptions = (id: number) =>
  queryOptions({ queryKey: recipeSetKeys.detail(id), queryFn: ({ signal }) => getRecipeSet(id, signal) });

/** One set, fresh from the server; the copy in the sets list shows while it loads. */
export function useRecipeSet(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...getRecipeSetQueryOptions(id),
    enabled: id > 0,
    placeholderData: () =>
      client.getQueryData<RecipeSet[]>(referenceKey('recipesSets'))?.find((set) => set.id === id),
  });
}
