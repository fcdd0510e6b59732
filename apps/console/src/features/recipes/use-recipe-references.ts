import type { Device, DeviceType, Recipe, RecipeSet } from '@kontrol/contracts';
import { useCurrentUser } from '../../lib/auth/use-current-user';
import { useReferenceList } from '../../lib/reference-data/use-reference-data';

/**
 * The reference lists the recipes screens read (docs/contract.md, "Product and areas": loaded before account pages render):
 * recipes, sets, device types and devices (the last two empty for a user whose modules do not
 * show devices: their lists are then never requested).
 */
export function useRecipeReferences() {
  const user = useCurrentUser();
  return {
    recipes: useReferenceList<Recipe>(user, 'recipes'),
    sets: useReferenceList<RecipeSet>(user, 'recipesSets'),
    types: useReferenceList<DeviceType>(user, 'deviceTypes'),
    devices: useReferenceList<Device>(user, 'devices'),
  };
}
