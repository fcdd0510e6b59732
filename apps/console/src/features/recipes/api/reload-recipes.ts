import type { QueryClient } from '@tanstack/react-query';
import { reloadReference } from '../../../lib/reference-data/use-reference-data';

/**
 * docs/contract.md, "States and transitions": after a recipe or a set is created, changed or deleted, the matching list is reloaded.
 * A recipe names its sets (`set_ids`) and a set its recipes (`recipe_ids`), so a change to either
 * changes both lists: both are reloaded.
 */
export async function reloadRecipes(client: QueryClient): Promise<void> {
  await reloadReference(client, ['recipes', 'recipesSets']);
}
