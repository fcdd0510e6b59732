import type { Recipe, RecipeStep } from '@kontrol/contracts';
import type { RecipeRow } from './recipes.repository.js';

/** Where the console loads a recipe image from (`GET /api/recipes/images/{file}`). */
export const recipeImageUrl = (file: string) => `/api/recipes/images/${file}`;

export function toRecipe(row: RecipeRow, setIds: readonly number[]): Recipe {
  return {
    id: row.id,
    name: row.name,
    device_type_id: row.device_type_id,
    category: row.category,
    description: row.description,
    image: row.image,
    image_url: row.image === null ? null : recipeImageUrl(row.image),
    steps: JSON.parse(row.steps) as RecipeStep[],
    version: row.version,
    crc: row.crc,
    duration_seconds: row.duration_seconds,
    set_ids: [...setIds],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
