import type { Database } from '@kontrol/db';
import { sql, type Kysely } from 'kysely';

/** Rows per statement when a list of ids is long: well inside both dialects' parameter limits. */
const CHUNK = 1000;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export function recipesQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('recipes')
    .select([
      'recipes.id',
      'recipes.name',
      'recipes.device_type_id',
      'recipes.category',
      'recipes.description',
      'recipes.image',
      'recipes.steps',
      'recipes.version',
      'recipes.crc',
      'recipes.duration_seconds',
      'recipes.created_at',
      'recipes.updated_at',
    ])
    .where('recipes.organisation_id', '=', organisationId);
}
export type RecipesQuery = ReturnType<typeof recipesQuery>;
export type RecipeRow = Awaited<ReturnType<RecipesQuery['executeTakeFirstOrThrow']>>;

export function findRecipe(db: Kysely<Database>, organisationId: number, recipeId: number) {
  return recipesQuery(db, organisationId).where('recipes.id', '=', recipeId).executeTakeFirst();
}

/** `%term%` for LIKE … ESCAPE '\': the user's `%`, `_` and `\` match themselves. */
function containsPattern(term: string) {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Name or category contains `term`, in any case. `lower()` on both sides, as PostgreSQL's LIKE is
 * case-sensitive (on SQLite `lower()` is a Unicode one: packages/db create-db.ts).
 */
export function whereRecipeMatches(query: RecipesQuery, term: string): RecipesQuery {
  const pattern = sql<string>`${containsPattern(term)} escape '\\'`;
  return query.where((eb) =>
    eb.or([
      eb(eb.fn('lower', ['recipes.name']), 'like', pattern),
      eb(eb.fn('lower', ['recipes.category']), 'like', pattern),
    ]),
  );
}

/** Recipe ids in sets of the organisation, for the `set_id` filter (filtered by the caller). */
export function organisationSetMembers(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('recipe_set_recipes')
    .innerJoin('recipe_sets', 'recipe_sets.id', 'recipe_set_recipes.set_id')
    .select('recipe_set_recipes.recipe_id')
    .where('recipe_sets.organisation_id', '=', organisationId);
}
export type SetMembersQuery = ReturnType<typeof organisationSetMembers>;

export function whereRecipeIn(query: RecipesQuery, members: SetMembersQuery): RecipesQuery {
  return query.where('recipes.id', 'in', members);
}

/** The sets each of `recipeIds` is in, in one query per thousand recipes. */
export async function setIdsOf(db: Kysely<Database>, recipeIds: readonly number[]) {
  const out = new Map<number, number[]>();
  for (const part of chunks(recipeIds)) {
    const rows = await db
      .selectFrom('recipe_set_recipes')
      .select(['recipe_id', 'set_id'])
      .where('recipe_id', 'in', part)
      .orderBy('recipe_id')
      .orderBy('set_id')
      .execute();
    for (const row of rows) {
      const list = out.get(row.recipe_id) ?? [];
      list.push(row.set_id);
      out.set(row.recipe_id, list);
    }
  }
  return out;
}

export function findDeviceType(db: Kysely<Database>, typeId: number) {
  return db.selectFrom('device_types').select(['id', 'slug']).where('id', '=', typeId).executeTakeFirst();
}

/** Every device type's slug by id (a short reference list). */
export async function deviceTypeSlugs(db: Kysely<Database>): Promise<Map<number, string>> {
  const rows = await db.selectFrom('device_types').select(['id', 'slug']).execute();
  return new Map(rows.map((row) => [row.id, row.slug]));
}

export interface RecipeColumns {
  name: string;
  device_type_id: number;
  category: string | null;
  description: string | null;
  image: string | null;
  steps: string;
  duration_seconds: number;
}

/** Inserts a recipe at version 1 with no program file yet ({@link setProgramFile} follows). */
export async function insertRecipe(
  db: Kysely<Database>,
  organisationId: number,
  columns: RecipeColumns,
  now: string,
) {
  const row = await db
    .insertInto('recipes')
    .values({
      ...columns,
      organisation_id: organisationId,
      version: 1,
      crc: '00000000',
      size: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRecipe(
  db: Kysely<Database>,
  organisationId: number,
  recipeId: number,
  columns: RecipeColumns & { version: number; crc: string; size: number; updated_at: string },
) {
  await db
    .updateTable('recipes')
    .set(columns)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', recipeId)
    .execute();
}

export async function setProgramFile(
  db: Kysely<Database>,
  recipeId: number,
  file: { version: number; crc: string; size: number },
) {
  await db.updateTable('recipes').set(file).where('id', '=', recipeId).execute();
}

/** How many devices hold (or are being given) the recipe. */
export async function countRecipeBinds(db: Kysely<Database>, recipeId: number): Promise<number> {
  const row = await db
    .selectFrom('device_recipe_binds')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('recipe_id', '=', recipeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes the recipe unless a device holds it; true when it was deleted. Its set memberships go by cascade. */
export async function deleteUnboundRecipe(db: Kysely<Database>, organisationId: number, recipeId: number) {
  const result = await db
    .deleteFrom('recipes')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', recipeId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('device_recipe_binds')
            .select('device_recipe_binds.id')
            .whereRef('device_recipe_binds.recipe_id', '=', 'recipes.id'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Sets of the organisation among `setIds`, with their type. */
export async function organisationSets(
  db: Kysely<Database>,
  organisationId: number,
  setIds: readonly number[],
) {
  const found = new Map<number, number>();
  for (const part of chunks(setIds)) {
    const rows = await db
      .selectFrom('recipe_sets')
      .select(['id', 'device_type_id'])
      .where('organisation_id', '=', organisationId)
      .where('id', 'in', part)
      .execute();
    for (const row of rows) found.set(row.id, row.device_type_id);
  }
  return found;
}

/**
 * Makes the recipe a member of exactly `setIds`: it leaves the others, keeps its place in those it
 * stays in, and goes at the end of each set it newly joins (run it inside a transaction).
 */
export async function replaceRecipeSets(db: Kysely<Database>, recipeId: number, setIds: readonly number[]) {
  const current = new Set(
    (
      await db.selectFrom('recipe_set_recipes').select('set_id').where('recipe_id', '=', recipeId).execute()
    ).map((row) => row.set_id),
  );
  const wanted = new Set(setIds);
  const leaving = [...current].filter((id) => !wanted.has(id));
  for (const part of chunks(leaving)) {
    await db
      .deleteFrom('recipe_set_recipes')
      .where('recipe_id', '=', recipeId)
      .where('set_id', 'in', part)
      .execute();
  }
  for (const setId of wanted) {
    if (current.has(setId)) continue;
    const last = await db
      .selectFrom('recipe_set_recipes')
      .select((eb) => eb.fn.max('position').as('position'))
      .where('set_id', '=', setId)
      .executeTakeFirst();
    const position = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
    await db
      .insertInto('recipe_set_recipes')
      .values({ set_id: setId, recipe_id: recipeId, position })
      .execute();
  }
}

export async function insertImage(
  db: Kysely<Database>,
  values: { file: string; organisationId: number; type: string; now: string },
) {
  await db
    .insertInto('recipe_images')
    .values({
      file: values.file,
      organisation_id: values.organisationId,
      type: values.type,
      created_at: values.now,
    })
    .execute();
}

/** An image the organisation uploaded, or undefined. */
export function findImage(db: Kysely<Database>, organisationId: number, file: string) {
  return db
    .selectFrom('recipe_images')
    .select(['file', 'type'])
    .where('organisation_id', '=', organisationId)
    .where('file', '=', file)
    .executeTakeFirst();
}

/**
 * Forgets the image when no recipe names it any more; true when it did (the caller then removes
 * the file).
 */
export async function deleteImageIfUnused(db: Kysely<Database>, file: string) {
  const result = await db
    .deleteFrom('recipe_images')
    .where('file', '=', file)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('recipes').select('recipes.id').where('recipes.image', '=', file))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
