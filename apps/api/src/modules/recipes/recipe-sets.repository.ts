import type { Database } from '@kontrol/db';
import { sql, type Kysely } from 'kysely';
import { chunks } from './recipes.repository.js';

export function setsQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('recipe_sets')
    .select(['id', 'name', 'description', 'device_type_id', 'created_at', 'updated_at'])
    .where('organisation_id', '=', organisationId);
}
export type SetRow = Awaited<ReturnType<ReturnType<typeof setsQuery>['executeTakeFirstOrThrow']>>;

export function findSet(db: Kysely<Database>, organisationId: number, setId: number) {
  return setsQuery(db, organisationId).where('id', '=', setId).executeTakeFirst();
}

/** The recipes of the given sets in their order, each with its version and CRC. */
export async function setMembers(db: Kysely<Database>, setIds: readonly number[]) {
  const out: { set_id: number; recipe_id: number; version: number; crc: string }[] = [];
  for (const part of chunks(setIds)) {
    const rows = await db
      .selectFrom('recipe_set_recipes')
      .innerJoin('recipes', 'recipes.id', 'recipe_set_recipes.recipe_id')
      .select(['recipe_set_recipes.set_id', 'recipe_set_recipes.recipe_id', 'recipes.version', 'recipes.crc'])
      .where('recipe_set_recipes.set_id', 'in', part)
      .orderBy('recipe_set_recipes.set_id')
      .orderBy('recipe_set_recipes.position')
      .orderBy('recipe_set_recipes.recipe_id')
      .execute();
    out.push(...rows);
  }
  return out;
}

/** Recipes of the organisation among `recipeIds`, with their type. */
export async function organisationRecipes(
  db: Kysely<Database>,
  organisationId: number,
  recipeIds: readonly number[],
) {
  const found = new Map<number, number>();
  for (const part of chunks(recipeIds)) {
    const rows = await db
      .selectFrom('recipes')
      .select(['id', 'device_type_id'])
      .where('organisation_id', '=', organisationId)
      .where('id', 'in', part)
      .execute();
    for (const row of rows) found.set(row.id, row.device_type_id);
  }
  return found;
}

export interface SetColumns {
  name: string;
  description: string | null;
  device_type_id: number;
}

export async function insertSet(
  db: Kysely<Database>,
  organisationId: number,
  columns: SetColumns,
  now: string,
) {
  const row = await db
    .insertInto('recipe_sets')
    .values({ ...columns, organisation_id: organisationId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSet(
  db: Kysely<Database>,
  organisationId: number,
  setId: number,
  columns: SetColumns & { updated_at: string },
) {
  await db
    .updateTable('recipe_sets')
    .set(columns)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', setId)
    .execute();
}

/** Sets the set's recipes to exactly `recipeIds`, in that order (inside the caller's transaction). */
export async function replaceSetRecipes(db: Kysely<Database>, setId: number, recipeIds: readonly number[]) {
  await db.deleteFrom('recipe_set_recipes').where('set_id', '=', setId).execute();
  let position = 0;
  for (const part of chunks(recipeIds)) {
    await db
      .insertInto('recipe_set_recipes')
      .values(
        part.map((recipeId) => {
          const row = { set_id: setId, recipe_id: recipeId, position };
          position += 1;
          return row;
        }),
      )
      .execute();
  }
}

/** How many devices hold the set. */
export async function countDevicesHolding(db: Kysely<Database>, setId: number): Promise<number> {
  const row = await db
    .selectFrom('devices')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('recipe_set_id', '=', setId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * True when a set was deleted. Its memberships go by cascade; devices holding it hold no set and
 * keep their recipes (foreign keys `set null`).
 */
export async function deleteSet(db: Kysely<Database>, organisationId: number, setId: number) {
  const result = await db
    .deleteFrom('recipe_sets')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', setId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
