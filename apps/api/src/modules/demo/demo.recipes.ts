import { recipeBodySchema, recipeSetBodySchema, type RecipeBody } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { createSet } from '../recipes/recipe-sets.service.js';
import { createRecipe } from '../recipes/recipes.service.js';

type DemoRecipe = Omit<RecipeBody, 'device_type_id'>;

const step = (mode: string, temperature: number, end: { seconds?: number; core?: number }, extra = {}) => ({
  mode,
  temperature,
  fan_speed: 3,
  duration_seconds: end.seconds ?? null,
  core_temperature: end.core ?? null,
  ...extra,
});

/** What a combi oven of the demo cooks: four dishes a kitchen makes every day. */
const COMBI_RECIPES = [
  {
    name: 'Курица гриль',
    category: 'Горячее',
    steps: [
      step('combination', 160, { seconds: 900 }, { humidity: 60, prompt: 'Загрузите противни с курицей' }),
      step('convection', 200, { core: 74 }),
    ],
  },
  {
    name: 'Овощи на пару',
    category: 'Гарниры',
    steps: [step('steam', 100, { seconds: 720 })],
  },
  {
    name: 'Круассаны',
    category: 'Выпечка',
    steps: [
      step('steam', 35, { seconds: 1200 }, { prompt: 'Расстойка: закройте дверь' }),
      step('convection', 170, { seconds: 960 }, { fan_speed: 2 }),
    ],
  },
  {
    name: 'Лосось',
    category: 'Горячее',
    steps: [step('combination', 120, { core: 52 }, { humidity: 80 })],
  },
] as DemoRecipe[];

/** The demo's recipes and a set of them for its combi ovens (deploy it from the console). */
export async function seedDemoRecipes(db: Kysely<Database>, organisationId: number): Promise<void> {
  const combi = await db
    .selectFrom('device_types')
    .select('id')
    .where('slug', '=', 'combi_oven')
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (const recipe of COMBI_RECIPES) {
    const created = await createRecipe(
      db,
      organisationId,
      recipeBodySchema.parse({ ...recipe, device_type_id: combi.id }),
    );
    ids.push(created.id);
  }
  await createSet(
    db,
    organisationId,
    recipeSetBodySchema.parse({ name: 'Меню дня', device_type_id: combi.id, recipe_ids: ids }),
  );
}
