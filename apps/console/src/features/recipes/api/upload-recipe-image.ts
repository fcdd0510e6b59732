import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** The answer of `POST /api/recipes/image` (the contracts' `recipeImageSchema`). */
export interface RecipeImage {
  /** The stored file's name: what the recipe's `image` names. */
  image: string;
  /** Where the browser shows it. */
  url: string;
}

/**
 * POST /api/recipes/image (multipart, the first file part) → 201 `{image, url}`: the stored
 * image's name, which the recipe's body then names, and where to see it. `onProgress` gets the
 * share sent so far, 0–1. Nothing changes in any list until the recipe is saved.
 */
export async function uploadRecipeImage(
  file: File,
  onProgress?: (share: number) => void,
): Promise<RecipeImage> {
  const body = new FormData();
  body.append('image', file);
  const response = await apiClient.post<{ data: RecipeImage }>('/recipes/image', body, {
    onUploadProgress: (event) => {
      if (event.total) onProgress?.(event.loaded / event.total);
    },
  });
  return response.data.data;
}

export function useUploadRecipeImage(onProgress?: (share: number) => void) {
  return useMutation({ mutationFn: (file: File) => uploadRecipeImage(file, onProgress) });
}
