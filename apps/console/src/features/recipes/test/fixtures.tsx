import type { AuthUser, Device, DeviceType, Recipe, RecipeSet } from '@kontrol/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../../../lib/i18n';
import { buildDeviceType } from '../../../test/entities';
import { buildAuthUser } from '../../../test/server';
import { RecipeAddPage } from '../routes/recipe-add-page';
import { RecipePage } from '../routes/recipe-page';
import { RecipesPage } from '../routes/recipes-page';
import { SetAddPage } from '../routes/set-add-page';
import { SetPage } from '../routes/set-page';
import { renderAccountPages } from '../../../test/render';

export {
  buildDevice,
  buildDeviceType,
  buildRecipe,
  buildRecipeBind,
  buildRecipeSet,
} from '../../../test/entities';

/** The seeded types: a combi oven (modes steam, convection, combination; core probe) and a fryer. */
export const COMBI = buildDeviceType({ id: 1, slug: 'combi_oven', name: 'Пароконвектомат' });
export const FRYER = buildDeviceType({ id: 2, slug: 'fryer', name: 'Фритюрница', program_capacity: 20 });
/** A type that takes no recipes: never offered. */
export const FRIDGE = buildDeviceType({
  id: 3,
  slug: 'refrigerator',
  name: 'Холодильный шкаф',
  program_capacity: null,
});

export interface References {
  recipes?: Recipe[];
  sets?: RecipeSet[];
  devices?: Device[];
  types?: DeviceType[];
}

/**
 * The recipes screens inside a memory router whose account route knows `user`, with the reference
 * lists already in the cache as the account frame leaves them (docs/contract.md, "Product and areas").
 */
export async function renderRecipes(
  url: string,
  references: References = {},
  user: AuthUser = buildAuthUser(['recipes', 'devices']),
) {
  return renderAccountPages({
    url,
    user,
    references: {
      recipes: references.recipes ?? [],
      recipesSets: references.sets ?? [],
      devices: references.devices ?? [],
      deviceTypes: references.types ?? [COMBI, FRYER, FRIDGE],
    },
    routes: [
      { path: 'recipes', Component: RecipesPage },
      { path: 'recipes/add', Component: RecipeAddPage },
      { path: 'recipes/sets/add', Component: SetAddPage },
      { path: 'recipes/sets/:id', Component: SetPage },
      { path: 'recipes/:id', Component: RecipePage },
    ],
  });
}

/** Chooses `option` in a Mantine select or multi-select. */
export async function choose(combobox: HTMLElement, option: string | RegExp) {
  await userEvent.click(combobox);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/**
 * The test DOM lays nothing out: every box is at 0,0 with no size, so a keyboard drag finds no neighbour.
 * This gives each sortable item (`data-sortable-index`) the box it would have in a column, 100 px
 * apart by its place among its siblings, for as long as the test runs; the return undoes it.
 */
export function layOutSortableItems(): () => void {
  const original: unknown = Reflect.get(Element.prototype, 'getBoundingClientRect');
  const box = (top: number, width: number, height: number): DOMRect => ({
    x: 0,
    y: top,
    top,
    left: 0,
    right: width,
    bottom: top + height,
    width,
    height,
    toJSON: () => ({}),
  });
  Reflect.set(Element.prototype, 'getBoundingClientRect', function getBoundingClientRect(this: Element) {
    const item = this.closest('[data-sortable-index]');
    // Anything else keeps the test DOM's answer: no box at all.
    if (!item?.parentElement) return box(0, 0, 0);
    return box([...item.parentElement.children].indexOf(item) * 100, 600, 90);
  });
  return () => {
    Reflect.set(Element.prototype, 'getBoundingClientRect', original);
  };
}
