import type { AuthUser, Device, DeviceType, Recipe, RecipeSet } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildDeviceType } from '../../../test/entities';
import { buildAuthUser } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../auth/use-current-user';
import { referenceKey } from '../../reference-data/resources';
import { RecipeAddPage } from '../routes/recipe-add-page';
import { RecipePage } from '../routes/recipe-page';
import { RecipesPage } from '../routes/recipes-page';
import { SetAddPage } from '../routes/set-add-page';
import { SetPage } from '../routes/set-page';

export {
  buildDevice,
  buildDeviceType,
  buildRecipe,
  buildRecipeBind,
  buildRecipeSet,
} from '../../../test/entities';

// The editor is a big Mantine form; on a busy machine a second is not always enough.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks what Mantine reads here: the combobox scrolls its active option into view, and
// autosizing text areas listen to font loading.
if (typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = () => undefined;
}
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

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
  queryClient.setQueryData(referenceKey('recipes'), references.recipes ?? []);
  queryClient.setQueryData(referenceKey('recipesSets'), references.sets ?? []);
  queryClient.setQueryData(referenceKey('devices'), references.devices ?? []);
  queryClient.setQueryData(referenceKey('deviceTypes'), references.types ?? [COMBI, FRYER, FRIDGE]);
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        children: [
          { path: 'recipes', Component: RecipesPage },
          { path: 'recipes/add', Component: RecipeAddPage },
          { path: 'recipes/sets/add', Component: SetAddPage },
          { path: 'recipes/sets/:id', Component: SetPage },
          { path: 'recipes/:id', Component: RecipePage },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      {/* Test mode: no transitions, no portals. */}
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  await waitFor(
    () => {
      if (!view.container.querySelector(':not(style)')) throw new Error('The page has not rendered yet');
    },
    { timeout: 10_000 },
  );
  return { ...view, router };
}

/** Chooses `option` in a Mantine select or multi-select. */
export async function choose(combobox: HTMLElement, option: string | RegExp) {
  await userEvent.click(combobox);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/**
 * jsdom lays nothing out: every box is at 0,0 with no size, so a keyboard drag finds no neighbour.
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
    // Anything else keeps jsdom's answer: no box at all.
    if (!item?.parentElement) return box(0, 0, 0);
    return box([...item.parentElement.children].indexOf(item) * 100, 600, 90);
  });
  return () => {
    Reflect.set(Element.prototype, 'getBoundingClientRect', original);
  };
}
