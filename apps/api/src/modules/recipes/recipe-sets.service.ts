import type { Filters, MessageKey, RecipeSet, recipeSetBodySchema } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, type FilterWhitelist } from '../../lib/pagination.js';
import { setFile } from './program-file.js';
import { recipeRulesOf } from './recipe-steps.js';
import {
  countDevicesHolding,
  deleteSet as deleteSetRow,
  findSet,
  insertSet,
  organisationRecipes,
  replaceSetRecipes,
  setMembers,
  setsQuery,
  updateSet as updateSetRow,
  type SetRow,
} from './recipe-sets.repository.js';
import { deviceTypeSlugs, findDeviceType } from './recipes.repository.js';

export type RecipeSetInput = z.output<typeof recipeSetBodySchema>;

/** `filters[field]` of `GET /api/recipes_sets/` (docs/recipes.md). */
const SET_FILTERS: FilterWhitelist = {
  id: { column: 'id', type: 'number', operators: ['=', 'in'] },
  device_type_id: { column: 'device_type_id', type: 'number', operators: ['=', 'in'] },
  name: { column: 'name', type: 'string', operators: ['=', 'like'] },
};

export function setsListQuery(db: Kysely<Database>, organisationId: number, filters: Filters | undefined) {
  return applyFilters(setsQuery(db, organisationId), filters, SET_FILTERS).orderBy('name').orderBy('id');
}

/**
 * Sets with their recipes in order and the CRC of their set file (docs/device-protocol.md), which
 * names each recipe's version and CRC: it moves whenever the set or one of its recipes changes.
 */
export async function withRecipes(db: Kysely<Database>, rows: readonly SetRow[]): Promise<RecipeSet[]> {
  if (rows.length === 0) return [];
  const [members, slugs] = await Promise.all([
    setMembers(
      db,
      rows.map((row) => row.id),
    ),
    deviceTypeSlugs(db),
  ]);
  const bySet = new Map<number, { id: number; version: number; crc: string }[]>();
  for (const member of members) {
    const list = bySet.get(member.set_id) ?? [];
    list.push({ id: member.recipe_id, version: member.version, crc: member.crc });
    bySet.set(member.set_id, list);
  }
  return rows.map((row) => {
    const recipes = bySet.get(row.id) ?? [];
    const file = setFile({ id: row.id, name: row.name, type: slugs.get(row.device_type_id) ?? '', recipes });
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      device_type_id: row.device_type_id,
      recipe_ids: recipes.map((recipe) => recipe.id),
      crc: file.crc,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

export async function getSet(db: Kysely<Database>, organisationId: number, setId: number) {
  const row = await findSet(db, organisationId, setId);
  if (!row) throw notFound();
  const [set] = await withRecipes(db, [row]);
  if (!set) throw notFound();
  return set;
}

/**
 * Rules of a set the schema cannot check (docs/recipes.md): its type takes recipes; its recipes
 * are the organisation's and of its type; a set devices hold keeps its type. Answers the recipe
 * ids in order, each once (the first place counts).
 */
async function checkSet(
  db: Kysely<Database>,
  organisationId: number,
  input: RecipeSetInput,
  existing?: SetRow,
): Promise<number[]> {
  const errors: Record<string, MessageKey[]> = {};
  const params: Record<string, Record<string, number>> = {};
  const type = await findDeviceType(db, input.device_type_id);
  if (!type) errors.device_type_id = ['field.exists'];
  else if (!recipeRulesOf(type.slug)) errors.device_type_id = ['recipe.type_takes_no_recipes'];
  else if (existing && existing.device_type_id !== input.device_type_id) {
    const devices = await countDevicesHolding(db, existing.id);
    if (devices > 0) {
      errors.device_type_id = ['recipe.set_type_held'];
      params.device_type_id = { count: devices };
    }
  }
  const recipeIds = [...new Set(input.recipe_ids)];
  const found = await organisationRecipes(db, organisationId, recipeIds);
  if (recipeIds.some((id) => !found.has(id))) errors.recipe_ids = ['field.exists'];
  else if (recipeIds.some((id) => found.get(id) !== input.device_type_id))
    errors.recipe_ids = ['recipe.set_recipe_type'];
  if (Object.keys(errors).length > 0) throw new FieldValidationError(errors, {}, params);
  return recipeIds;
}

/** A recipe deleted between the check and the insert: the foreign key refuses; same 422. */
async function saving<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new FieldValidationError({ recipe_ids: ['field.exists'] });
    throw error;
  }
}

const columnsOf = (input: RecipeSetInput) => ({
  name: input.name,
  description: input.description,
  device_type_id: input.device_type_id,
});

export async function createSet(db: Kysely<Database>, organisationId: number, input: RecipeSetInput) {
  const id = await saving(() =>
    db.transaction().execute(async (trx) => {
      const recipeIds = await checkSet(trx, organisationId, input);
      const setId = await insertSet(trx, organisationId, columnsOf(input), nowIso());
      await replaceSetRecipes(trx, setId, recipeIds);
      return setId;
    }),
  );
  return getSet(db, organisationId, id);
}

/** Replaces name, description, type and the whole ordered recipe list in one transaction. */
export async function updateSet(
  db: Kysely<Database>,
  organisationId: number,
  setId: number,
  input: RecipeSetInput,
) {
  await saving(() =>
    db.transaction().execute(async (trx) => {
      const existing = await findSet(trx, organisationId, setId);
      if (!existing) throw notFound();
      const recipeIds = await checkSet(trx, organisationId, input, existing);
      await updateSetRow(trx, organisationId, setId, { ...columnsOf(input), updated_at: nowIso() });
      await replaceSetRecipes(trx, setId, recipeIds);
    }),
  );
  return getSet(db, organisationId, setId);
}

/** Deletes a set; its recipes stay, and devices holding it hold no set and keep their recipes. */
export async function deleteSet(db: Kysely<Database>, organisationId: number, setId: number) {
  if (!(await deleteSetRow(db, organisationId, setId))) throw notFound();
}
