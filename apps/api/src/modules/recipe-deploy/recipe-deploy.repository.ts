import { dialectOf, type Database } from '@kontrol/db';
import type { Kysely } from 'kysely';

/**
 * SQL of recipe deployment (docs/recipes.md, "Deployment"): the binds of `device_recipe_binds`
 * and what they are made from. Every query takes the caller's organisation. The states the
 * device's reports move (installed, failed, a removed bind deleted) are the gateway's
 * (`apps/gateway/src/programs`).
 */

/** Ids per statement: well inside both dialects' parameter limits. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) parts.push(items.slice(start, start + CHUNK));
  return parts;
}

/**
 * A device of the organisation with what a deploy checks, and its type's program capacity.
 * Inside a transaction on PostgreSQL the row is locked (FOR UPDATE), so two deploys to one device
 * take turns; SQLite has one writer at a time anyway.
 */
export function findDeviceForDeploy(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  lock = false,
) {
  let query = db
    .selectFrom('devices')
    .innerJoin('device_types', 'device_types.id', 'devices.type_id')
    .select([
      'devices.id',
      'devices.type_id',
      'devices.controller_id',
      'devices.recipe_set_id',
      'device_types.program_capacity',
    ])
    .where('devices.organisation_id', '=', organisationId)
    .where('devices.id', '=', deviceId);
  if (lock && dialectOf(db) === 'postgres') query = query.forUpdate('devices');
  return query.executeTakeFirst();
}
export type DeployDevice = NonNullable<Awaited<ReturnType<typeof findDeviceForDeploy>>>;

export function findSet(db: Kysely<Database>, organisationId: number, setId: number) {
  return db
    .selectFrom('recipe_sets')
    .select(['id', 'device_type_id'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', setId)
    .executeTakeFirst();
}

/** The set's recipes in the set's order, as they are now. */
export function setRecipes(db: Kysely<Database>, setId: number) {
  return db
    .selectFrom('recipe_set_recipes')
    .innerJoin('recipes', 'recipes.id', 'recipe_set_recipes.recipe_id')
    .select(['recipes.id', 'recipes.device_type_id', 'recipes.version', 'recipes.crc', 'recipes.size'])
    .where('recipe_set_recipes.set_id', '=', setId)
    .orderBy('recipe_set_recipes.position')
    .orderBy('recipes.id')
    .execute();
}
export type CurrentRecipe = Awaited<ReturnType<typeof setRecipes>>[number];

/** Recipes of the organisation among `ids`, as they are now. */
export async function findRecipes(db: Kysely<Database>, organisationId: number, ids: readonly number[]) {
  const rows: CurrentRecipe[] = [];
  for (const part of chunks(ids)) {
    rows.push(
      ...(await db
        .selectFrom('recipes')
        .select(['id', 'device_type_id', 'version', 'crc', 'size'])
        .where('organisation_id', '=', organisationId)
        .where('id', 'in', part)
        .execute()),
    );
  }
  return rows;
}

/** Every bind of a device, whatever its state. */
export function deviceBinds(db: Kysely<Database>, deviceId: number) {
  return db
    .selectFrom('device_recipe_binds')
    .select(['id', 'recipe_id', 'set_id', 'version', 'state', 'attempts'])
    .where('device_id', '=', deviceId)
    .orderBy('id')
    .execute();
}
export type BindRow = Awaited<ReturnType<typeof deviceBinds>>[number];

export async function insertBind(
  db: Kysely<Database>,
  values: {
    organisationId: number;
    deviceId: number;
    setId: number | null;
    recipe: CurrentRecipe;
    now: string;
  },
) {
  await db
    .insertInto('device_recipe_binds')
    .values({
      organisation_id: values.organisationId,
      device_id: values.deviceId,
      recipe_id: values.recipe.id,
      set_id: values.setId,
      version: values.recipe.version,
      crc: values.recipe.crc,
      size: values.recipe.size,
      state: 'queued',
      error: null,
      reported_crc: null,
      sent_ts: null,
      created_at: values.now,
      updated_at: values.now,
    })
    .execute();
}

/** A bind to deliver again: queued at the recipe's current version. */
export async function requeueBind(
  db: Kysely<Database>,
  bindId: number,
  values: { setId: number | null; recipe: CurrentRecipe; now: string },
) {
  await db
    .updateTable('device_recipe_binds')
    .set({
      set_id: values.setId,
      version: values.recipe.version,
      crc: values.recipe.crc,
      size: values.recipe.size,
      state: 'queued',
      error: null,
      reported_crc: null,
      sent_ts: null,
      updated_at: values.now,
    })
    .where('id', '=', bindId)
    .execute();
}

export async function setBindSet(db: Kysely<Database>, bindId: number, setId: number | null, now: string) {
  await db
    .updateTable('device_recipe_binds')
    .set({ set_id: setId, updated_at: now })
    .where('id', '=', bindId)
    .execute();
}

/** Binds the device is to be told to delete (its next command lists them). */
export async function markRemoving(db: Kysely<Database>, bindIds: readonly number[], now: string) {
  for (const part of chunks(bindIds)) {
    await db
      .updateTable('device_recipe_binds')
      .set({ state: 'removing', error: null, sent_ts: null, updated_at: now })
      .where('id', 'in', part)
      .where('state', '!=', 'removing')
      .execute();
  }
}

/** Binds never sent to the device: nothing to delete there, the row goes at once. */
export async function deleteBinds(db: Kysely<Database>, bindIds: readonly number[]) {
  for (const part of chunks(bindIds))
    await db.deleteFrom('device_recipe_binds').where('id', 'in', part).execute();
}

export async function setDeviceSet(db: Kysely<Database>, deviceId: number, setId: number, now: string) {
  await db
    .updateTable('devices')
    .set({ recipe_set_id: setId, updated_at: now })
    .where('id', '=', deviceId)
    .execute();
}

/** Binds of the organisation among `ids`, with their device and whether their recipe moved on. */
export async function findBinds(db: Kysely<Database>, organisationId: number, ids: readonly number[]) {
  const rows = [];
  for (const part of chunks(ids)) {
    rows.push(...(await bindsQuery(db, organisationId).where('b.id', 'in', part).execute()));
  }
  return rows.sort((a, b) => a.id - b.id);
}

/** A device's binds as the API shows them. */
export function bindsOfDevice(db: Kysely<Database>, organisationId: number, deviceId: number) {
  return bindsQuery(db, organisationId).where('b.device_id', '=', deviceId).orderBy('b.id').execute();
}

function bindsQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('device_recipe_binds as b')
    .innerJoin('recipes as r', 'r.id', 'b.recipe_id')
    .select([
      'b.id',
      'b.device_id',
      'b.recipe_id',
      'b.set_id',
      'b.version',
      'b.crc',
      'b.size',
      'b.state',
      'b.error',
      'b.reported_crc',
      'b.attempts',
      'b.updated_at',
      'r.version as recipe_version',
    ])
    .where('b.organisation_id', '=', organisationId);
}
export type BindView = Awaited<ReturnType<typeof bindsOfDevice>>[number];

/** What a recipe's program file is made of, as it is now. */
export async function programSources(db: Kysely<Database>, recipeIds: readonly number[]) {
  const rows = [];
  for (const part of chunks(recipeIds)) {
    rows.push(
      ...(await db
        .selectFrom('recipes')
        .innerJoin('device_types', 'device_types.id', 'recipes.device_type_id')
        .select(['recipes.id', 'recipes.version', 'recipes.name', 'recipes.steps', 'device_types.slug'])
        .where('recipes.id', 'in', part)
        .execute()),
    );
  }
  return rows;
}
