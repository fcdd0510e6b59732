import {
  programFileText,
  RECIPE_NAME_MAX_LENGTH,
  translate,
  type Filters,
  type Locale,
  type MessageKey,
  type MessageParams,
  type Recipe,
  type recipeBodySchema,
  type RecipeStep,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import type { ImageFileStore } from '../../lib/image-files.js';
import { nowIso } from '../../lib/time.js';
import { applyFilters, type FilterWhitelist } from '../../lib/pagination.js';
import { programFile } from './program-file.js';
import { canonicalStep, recipeRulesOf, stepErrors, totalDuration } from './recipe-steps.js';
import {
  countRecipeBinds,
  deleteImageIfUnused,
  deleteUnboundRecipe,
  findDeviceType,
  findImage,
  findRecipe,
  insertRecipe,
  organisationSetMembers,
  organisationSets,
  recipesQuery,
  replaceRecipeSets,
  setIdsOf,
  setProgramFile,
  updateRecipe as updateRecipeRow,
  whereRecipeIn,
  whereRecipeMatches,
  type RecipeColumns,
  type RecipeRow,
} from './recipes.repository.js';
import { toRecipe } from './recipes.presenter.js';

export type RecipeInput = z.output<typeof recipeBodySchema>;

export interface RecipeDeps {
  db: Kysely<Database>;
  images: ImageFileStore;
  /** Where an image file that could not be removed after the database changed is reported. */
  log: FastifyBaseLogger;
}

/** Recipes with the ids of their sets, read in one query for all of them. */
export async function withSetIds(db: Kysely<Database>, rows: readonly RecipeRow[]): Promise<Recipe[]> {
  const sets = await setIdsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRecipe(row, sets.get(row.id) ?? []));
}

export async function getRecipe(db: Kysely<Database>, organisationId: number, recipeId: number) {
  const row = await findRecipe(db, organisationId, recipeId);
  if (!row) throw notFound();
  return toRecipe(row, (await setIdsOf(db, [recipeId])).get(recipeId) ?? []);
}

/** `filters[field]` of `GET /api/recipes/` (docs/recipes.md); `set_id` is checked on its own. */
const RECIPE_FILTERS: FilterWhitelist = {
  device_type_id: { column: 'recipes.device_type_id', type: 'number', operators: ['=', 'in'] },
  category: { column: 'recipes.category', type: 'string', operators: ['=', 'like'] },
};
const SET_FILTERS: FilterWhitelist = {
  set_id: { column: 'recipe_set_recipes.set_id', type: 'number', operators: ['='] },
};

/** Collects a filter's 422 instead of throwing it, so every bad filter is reported at once. */
function collecting<T>(errors: Record<string, MessageKey[]>, build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof FieldValidationError)) throw error;
    Object.assign(errors, error.fields);
    return undefined;
  }
}

/** The organisation's recipes with the list's search and whitelisted filters, by name. */
export function recipesListQuery(
  db: Kysely<Database>,
  organisationId: number,
  params: { filters?: Filters | undefined; search?: string | undefined },
) {
  const { set_id: setFilter, ...filters }: Filters = params.filters ?? {};
  const errors: Record<string, MessageKey[]> = {};
  const members = setFilter
    ? collecting(errors, () =>
        applyFilters(organisationSetMembers(db, organisationId), { set_id: setFilter }, SET_FILTERS),
      )
    : undefined;
  let query = collecting(errors, () =>
    applyFilters(recipesQuery(db, organisationId), filters, RECIPE_FILTERS),
  );
  if (!query || Object.keys(errors).length > 0) throw new FieldValidationError(errors);
  if (members) query = whereRecipeIn(query, members);
  if (params.search) query = whereRecipeMatches(query, params.search);
  return query.orderBy('recipes.name').orderBy('recipes.id');
}

class Problems {
  readonly fields: Record<string, MessageKey[]> = {};
  readonly params: Record<string, MessageParams> = {};

  add(field: string, key: MessageKey, params?: MessageParams) {
    this.fields[field] = [key];
    if (params) this.params[field] = params;
  }

  merge(other: { fields: Record<string, MessageKey[]>; params: Record<string, MessageParams> }) {
    Object.assign(this.fields, other.fields);
    Object.assign(this.params, other.params);
  }

  throwIfAny() {
    if (Object.keys(this.fields).length > 0) throw new FieldValidationError(this.fields, {}, this.params);
  }
}

/** A 422 on `set_ids` unless every set is one of the organisation's, for recipes of `typeId`. */
async function checkSets(
  db: Kysely<Database>,
  organisationId: number,
  setIds: readonly number[],
  typeId: number,
  problems: Problems,
) {
  const found = await organisationSets(db, organisationId, setIds);
  if (setIds.some((id) => !found.has(id))) problems.add('set_ids', 'field.exists');
  else if (setIds.some((id) => found.get(id) !== typeId)) problems.add('set_ids', 'recipe.set_type');
}

/**
 * Rules of a recipe the schema cannot check (docs/recipes.md): its type takes recipes, its steps
 * keep to the type's limits, its image is one the organisation uploaded, its sets are the
 * organisation's and of its type; and a recipe on devices keeps its type. Answers the type's slug.
 */
async function checkRecipe(
  db: Kysely<Database>,
  organisationId: number,
  input: RecipeInput,
  existing?: RecipeRow,
): Promise<string> {
  const problems = new Problems();
  const type = await findDeviceType(db, input.device_type_id);
  if (!type) problems.add('device_type_id', 'field.exists');
  else if (!recipeRulesOf(type.slug)) problems.add('device_type_id', 'recipe.type_takes_no_recipes');
  else problems.merge(stepErrors(type.slug, input.steps));

  if (existing && existing.device_type_id !== input.device_type_id) {
    const binds = await countRecipeBinds(db, existing.id);
    if (binds > 0) problems.add('device_type_id', 'recipe.type_deployed', { count: binds });
  }
  if (input.image !== null && !(await findImage(db, organisationId, input.image)))
    problems.add('image', 'recipe.image');

  // Sets it is to be in: those named, or on an update without set_ids those it is in already.
  const setIds = input.set_ids
    ? [...new Set(input.set_ids)]
    : existing
      ? ((await setIdsOf(db, [existing.id])).get(existing.id) ?? [])
      : [];
  if (setIds.length > 0) await checkSets(db, organisationId, setIds, input.device_type_id, problems);

  problems.throwIfAny();
  return type?.slug ?? '';
}

function columnsOf(input: RecipeInput): RecipeColumns & { parsedSteps: RecipeStep[] } {
  const steps = input.steps.map(canonicalStep);
  return {
    name: input.name,
    device_type_id: input.device_type_id,
    category: input.category,
    description: input.description,
    image: input.image,
    steps: JSON.stringify(steps),
    parsedSteps: steps,
    duration_seconds: totalDuration(steps),
  };
}

/** A set or the image removed between the check and the write: the foreign key refuses; a 422. */
async function saving<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new FieldValidationError({ set_ids: ['field.exists'] });
    throw error;
  }
}

/**
 * Creates a recipe at version 1 in one transaction: the row, then its program file (which names
 * the new id), then its sets.
 */
export async function createRecipe(db: Kysely<Database>, organisationId: number, input: RecipeInput) {
  const id = await saving(() =>
    db.transaction().execute(async (trx) => {
      const typeSlug = await checkRecipe(trx, organisationId, input);
      const { parsedSteps, ...columns } = columnsOf(input);
      const recipeId = await insertRecipe(trx, organisationId, columns, nowIso());
      const file = programFile({
        id: recipeId,
        version: 1,
        type: typeSlug,
        name: input.name,
        steps: parsedSteps,
      });
      await setProgramFile(trx, recipeId, { version: 1, crc: file.crc, size: file.size });
      if (input.set_ids) await replaceRecipeSets(trx, recipeId, [...new Set(input.set_ids)]);
      return recipeId;
    }),
  );
  return getRecipe(db, organisationId, id);
}

/**
 * Replaces a recipe. Its version moves up by one when its program file would change (name, type
 * or steps); category, description and image alone keep it. Its sets are replaced when `set_ids`
 * is given. A previous image no recipe uses any more is deleted.
 */
export async function updateRecipe(
  deps: RecipeDeps,
  organisationId: number,
  recipeId: number,
  input: RecipeInput,
) {
  const previousImage = await saving(() =>
    deps.db.transaction().execute(async (trx) => {
      const existing = await findRecipe(trx, organisationId, recipeId);
      if (!existing) throw notFound();
      const typeSlug = await checkRecipe(trx, organisationId, input, existing);
      const previousType = await findDeviceType(trx, existing.device_type_id);
      const { parsedSteps, ...columns } = columnsOf(input);
      const before = programFileText({
        id: recipeId,
        version: existing.version,
        type: previousType?.slug ?? '',
        name: existing.name,
        steps: JSON.parse(existing.steps) as RecipeStep[],
      });
      const unchanged =
        before ===
        programFileText({
          id: recipeId,
          version: existing.version,
          type: typeSlug,
          name: input.name,
          steps: parsedSteps,
        });
      const version = unchanged ? existing.version : existing.version + 1;
      const file = programFile({
        id: recipeId,
        version,
        type: typeSlug,
        name: input.name,
        steps: parsedSteps,
      });
      await updateRecipeRow(trx, organisationId, recipeId, {
        ...columns,
        version,
        crc: file.crc,
        size: file.size,
        updated_at: nowIso(),
      });
      if (input.set_ids) await replaceRecipeSets(trx, recipeId, [...new Set(input.set_ids)]);
      return existing.image !== null && existing.image !== input.image ? existing.image : null;
    }),
  );
  if (previousImage) await discardImageIfUnused(deps, previousImage);
  return getRecipe(deps.db, organisationId, recipeId);
}

/** `name (копия)` / `name (copy)`, the name cut short so the whole fits RECIPE_NAME_MAX_LENGTH. */
export function copyName(name: string, locale: Locale): string {
  const room = RECIPE_NAME_MAX_LENGTH - translate(locale, 'recipe.copy_name', { name: '' }).length;
  let kept = '';
  // By code points, so a character outside the BMP is never cut in half.
  for (const char of name) {
    if (kept.length + char.length > room) break;
    kept += char;
  }
  return translate(locale, 'recipe.copy_name', { name: kept.trimEnd() });
}

/** A copy of a recipe at version 1: the same steps, category, description and image, in no set. */
export async function duplicateRecipe(
  db: Kysely<Database>,
  organisationId: number,
  recipeId: number,
  locale: Locale,
) {
  const id = await db.transaction().execute(async (trx) => {
    const source = await findRecipe(trx, organisationId, recipeId);
    if (!source) throw notFound();
    const type = await findDeviceType(trx, source.device_type_id);
    const name = copyName(source.name, locale);
    const steps = JSON.parse(source.steps) as RecipeStep[];
    const copyId = await insertRecipe(
      trx,
      organisationId,
      {
        name,
        device_type_id: source.device_type_id,
        category: source.category,
        description: source.description,
        image: source.image,
        steps: source.steps,
        duration_seconds: source.duration_seconds,
      },
      nowIso(),
    );
    const file = programFile({ id: copyId, version: 1, type: type?.slug ?? '', name, steps });
    await setProgramFile(trx, copyId, { version: 1, crc: file.crc, size: file.size });
    return copyId;
  });
  return getRecipe(db, organisationId, id);
}

/** docs/contract.md, "Entities" (Recipe bind): the recipe's sets become exactly `setIds`. */
export async function bindRecipeToSets(
  db: Kysely<Database>,
  organisationId: number,
  recipeId: number,
  setIds: readonly number[],
) {
  await saving(() =>
    db.transaction().execute(async (trx) => {
      const recipe = await findRecipe(trx, organisationId, recipeId);
      if (!recipe) throw notFound();
      const unique = [...new Set(setIds)];
      const problems = new Problems();
      if (unique.length > 0) await checkSets(trx, organisationId, unique, recipe.device_type_id, problems);
      problems.throwIfAny();
      await replaceRecipeSets(trx, recipeId, unique);
    }),
  );
  return getRecipe(db, organisationId, recipeId);
}

const deployed = (count: number) =>
  new FieldValidationError({ recipe: ['recipe.deployed'] }, { 'recipe.deployed': { count } });

/**
 * Deletes a recipe no device holds (else 422 on `recipe`: remove it from the devices first, so a
 * device never keeps a program the server forgot). Its set memberships go with it, and its image
 * when no other recipe uses it.
 */
export async function deleteRecipe(deps: RecipeDeps, organisationId: number, recipeId: number) {
  const image = await deps.db.transaction().execute(async (trx) => {
    const recipe = await findRecipe(trx, organisationId, recipeId);
    if (!recipe) throw notFound();
    const binds = await countRecipeBinds(trx, recipeId);
    if (binds > 0) throw deployed(binds);
    // A bind added since the count: the delete's own condition refuses it.
    if (!(await deleteUnboundRecipe(trx, organisationId, recipeId)))
      throw deployed(await countRecipeBinds(trx, recipeId));
    return recipe.image;
  });
  if (image) await discardImageIfUnused(deps, image);
}

/**
 * Forgets an image no recipe names any more and removes its file. A file that could not be
 * removed is only litter: it fails no request.
 */
async function discardImageIfUnused(deps: RecipeDeps, file: string) {
  if (!(await deleteImageIfUnused(deps.db, file))) return;
  try {
    await deps.images.remove(file);
  } catch (error) {
    deps.log.warn({ err: error, file }, 'could not remove a recipe image file');
  }
}
