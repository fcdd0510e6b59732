import {
  UPLOAD_STATES,
  programFileName,
  type MessageKey,
  type RecipeBind,
  type UploadState,
  type crcFileSchema,
  type uploadStatusSchema,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { deviceHoldings } from '@kontrol/domain';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { programFile } from '../recipes/program-file.js';
import {
  bindsOfDevice,
  deleteBinds,
  deviceBinds,
  findBinds,
  findDeviceForDeploy,
  findRecipes,
  findSet,
  insertBind,
  markRemoving,
  programSources,
  requeueBind,
  setBindSet,
  setDeviceSet,
  setRecipes,
  type BindRow,
  type CurrentRecipe,
  type DeployDevice,
} from './recipe-deploy.repository.js';
import { toBind } from './recipe-deploy.presenter.js';

export type UploadStatus = z.infer<typeof uploadStatusSchema>;
export type CrcFile = z.infer<typeof crcFileSchema>;

/**
 * How a request names the device and the set: in the path (`/devices/{id}/recipe_set/{setId}`),
 * where a missing one, or another organisation's, is a 404; or in the body, where it is a 422 on
 * its field, as every id of a body is.
 */
type Named = 'path' | 'body';

const invalid = (field: string, key: MessageKey, params?: Record<string, string | number>) =>
  new FieldValidationError({ [field]: [key] }, params ? { [key]: params } : {});

/** The device of the organisation a deploy goes to: it must have a controller to take files. */
async function deployTarget(db: Kysely<Database>, organisationId: number, deviceId: number, named: Named) {
  const device = await findDeviceForDeploy(db, organisationId, deviceId, true);
  if (!device) throw named === 'path' ? notFound() : invalid('device_id', 'field.exists');
  if (!device.controller_id) throw invalid('device_id', 'deploy.no_controller');
  return device;
}

function checkCapacity(device: DeployDevice, held: number, field: string) {
  if (device.program_capacity !== null && held > device.program_capacity)
    throw invalid(field, 'deploy.capacity', { max: device.program_capacity });
}

/**
 * A recipe that is to be on the device: a bind made, or one already there brought to the recipe
 * as it is now. One that is `installed` or on its way at the current version stays as it is
 * unless `force`; any other (failed, outdated, being removed) is queued again.
 */
async function want(
  db: Kysely<Database>,
  context: { organisationId: number; device: DeployDevice; now: string; force: boolean },
  recipe: CurrentRecipe,
  bind: BindRow | undefined,
  setId: number | null | 'keep',
) {
  const { device, now } = context;
  if (!bind) {
    await insertBind(db, {
      organisationId: context.organisationId,
      deviceId: device.id,
      setId: setId === 'keep' ? null : setId,
      recipe,
      now,
    });
    return;
  }
  const nextSet = setId === 'keep' ? bind.set_id : setId;
  const current = bind.version === recipe.version;
  const keeps =
    current &&
    (bind.state === 'sending' || (!context.force && (bind.state === 'installed' || bind.state === 'queued')));
  if (!keeps) await requeueBind(db, bind.id, { setId: nextSet, recipe, now });
  else if (nextSet !== bind.set_id) await setBindSet(db, bind.id, nextSet, now);
}

/** Binds that are to go from the device: told to delete them, or dropped at once if never sent. */
async function unwant(db: Kysely<Database>, binds: readonly BindRow[], now: string) {
  const neverSent = binds.filter((bind) => bind.attempts === 0);
  const sent = binds.filter((bind) => bind.attempts > 0 && bind.state !== 'removing');
  await deleteBinds(
    db,
    neverSent.map((bind) => bind.id),
  );
  await markRemoving(
    db,
    sent.map((bind) => bind.id),
    now,
  );
  return { deleted: neverSent.map((bind) => bind.id), removing: sent.map((bind) => bind.id) };
}

/**
 * `POST /devices/{id}/recipe_set/{setId}` and `POST /recipes_sets/upload`: the device holds this
 * set from now on. Every recipe of the set gets a bind of the set at its current version: new
 * ones, failed ones, outdated ones and ones being removed are queued; ones installed (or queued,
 * or on their way) at the current version stay. Binds of a set that are not in this one go:
 * `removing`, or deleted at once when they were never sent. Recipes deployed on their own stay.
 */
export async function deploySet(
  db: Kysely<Database>,
  organisationId: number,
  input: { deviceId: number; setId: number; named: Named },
): Promise<UploadStatus> {
  await db.transaction().execute(async (trx) => {
    const device = await deployTarget(trx, organisationId, input.deviceId, input.named);
    const set = await findSet(trx, organisationId, input.setId);
    if (!set) throw input.named === 'path' ? notFound() : invalid('set_id', 'field.exists');
    if (set.device_type_id !== device.type_id) throw invalid('set_id', 'deploy.type_mismatch');
    const recipes = await setRecipes(trx, set.id);
    const binds = await deviceBinds(trx, device.id);
    const inSet = new Set(recipes.map((recipe) => recipe.id));
    const leaving = binds.filter((bind) => bind.set_id !== null && !inSet.has(bind.recipe_id));
    const staying = binds.filter(
      (bind) => bind.set_id === null && bind.state !== 'removing' && !inSet.has(bind.recipe_id),
    );
    checkCapacity(device, recipes.length + staying.length, 'set_id');

    const now = nowIso();
    const byRecipe = new Map(binds.map((bind) => [bind.recipe_id, bind]));
    const context = { organisationId, device, now, force: false };
    for (const recipe of recipes) await want(trx, context, recipe, byRecipe.get(recipe.id), set.id);
    await unwant(trx, leaving, now);
    if (device.recipe_set_id !== set.id) await setDeviceSet(trx, device.id, set.id, now);
  });
  return uploadStatus(db, organisationId, input.deviceId);
}

/**
 * `POST /recipes_sets/upload_recipes`: these recipes go to the device on their own (a new bind
 * has no set; one already bound keeps its set), each queued at its current version, also when
 * it is installed (an explicit upload sends the file again), unless it is on its way already.
 */
export async function deployRecipes(
  db: Kysely<Database>,
  organisationId: number,
  input: { deviceId: number; recipeIds: readonly number[] },
): Promise<UploadStatus> {
  await db.transaction().execute(async (trx) => {
    const device = await deployTarget(trx, organisationId, input.deviceId, 'body');
    const ids = [...new Set(input.recipeIds)];
    const recipes = await findRecipes(trx, organisationId, ids);
    if (recipes.length !== ids.length) throw invalid('recipe_ids', 'field.exists');
    if (recipes.some((recipe) => recipe.device_type_id !== device.type_id))
      throw invalid('recipe_ids', 'deploy.type_mismatch');
    const binds = await deviceBinds(trx, device.id);
    const wanted = new Set(ids);
    const others = binds.filter((bind) => bind.state !== 'removing' && !wanted.has(bind.recipe_id));
    checkCapacity(device, others.length + ids.length, 'recipe_ids');

    const now = nowIso();
    const byRecipe = new Map(binds.map((bind) => [bind.recipe_id, bind]));
    const context = { organisationId, device, now, force: true };
    const ordered = [...recipes].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    for (const recipe of ordered) await want(trx, context, recipe, byRecipe.get(recipe.id), 'keep');
  });
  return uploadStatus(db, organisationId, input.deviceId);
}

/**
 * `DELETE /recipes_sets_2/delete_recipes`: these binds go from their devices. A bind that was
 * ever sent becomes `removing` (the device is told to delete the file; the row goes when it says
 * it did); one never sent is deleted at once. Binds already being removed stay as they are.
 */
export async function removeBinds(
  db: Kysely<Database>,
  organisationId: number,
  bindIds: readonly number[],
): Promise<{ removing: number[]; deleted: number[] }> {
  return db.transaction().execute(async (trx) => {
    const ids = [...new Set(bindIds)];
    const found = await findBinds(trx, organisationId, ids);
    if (found.length !== ids.length) throw invalid('bind_ids', 'field.exists');
    const result = await unwant(trx, found, nowIso());
    const already = found.filter((bind) => bind.state === 'removing').map((bind) => bind.id);
    return { removing: [...result.removing, ...already].sort((a, b) => a - b), deleted: result.deleted };
  });
}

/** A device of the organisation, or a 404. */
async function device(db: Kysely<Database>, organisationId: number, deviceId: number) {
  const found = await findDeviceForDeploy(db, organisationId, deviceId);
  if (!found) throw notFound();
  return found;
}

/** `GET /devices/{id}/recipe_binds`: every bind of the device, removals included, by id. */
export async function recipeBinds(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
): Promise<RecipeBind[]> {
  await device(db, organisationId, deviceId);
  return (await bindsOfDevice(db, organisationId, deviceId)).map(toBind);
}

/** `GET /devices/{id}/get_upload_status`: the device's set, its binds and how many are in each state. */
export async function uploadStatus(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
): Promise<UploadStatus> {
  const found = await device(db, organisationId, deviceId);
  const binds = (await bindsOfDevice(db, organisationId, deviceId)).map(toBind);
  const counts = Object.fromEntries(UPLOAD_STATES.map((state) => [state, 0])) as Record<UploadState, number>;
  for (const bind of binds) counts[bind.state] += 1;
  return { device_id: found.id, set_id: found.recipe_set_id, counts, binds };
}

/**
 * `GET /devices/{id}/get_crc_file`: what the device should hold — its set file's CRC and every
 * program file (binds not being removed) with its CRC and size, the set's in the set's order.
 * The same list the gateway's commands are made from.
 */
export async function crcFile(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
): Promise<CrcFile> {
  await device(db, organisationId, deviceId);
  const holdings = await deviceHoldings(db, deviceId);
  return {
    device_id: deviceId,
    set: holdings.set ? { id: holdings.set.id, crc: holdings.set.crc } : null,
    files: holdings.files.map((held) => ({
      bind_id: held.bind_id,
      recipe_id: held.recipe_id,
      file: held.file,
      crc: held.crc,
      size: held.size,
    })),
  };
}

export interface ProgramDownload {
  /** One file, or a zip of several with the device's set file. */
  kind: 'file' | 'zip';
  name: string;
  files: { name: string; bytes: Buffer }[];
}

/**
 * `POST /recipes_sets/get_program_files`: the program files of binds of one device, each at the
 * version it was deployed at (byte for byte what the device downloads, so the CRCs of the CRC
 * file match); several come as a zip with the device's set file. A bind whose recipe changed
 * since its deploy is a 422: that version's bytes are gone until it is deployed again.
 */
export async function programFiles(
  db: Kysely<Database>,
  organisationId: number,
  bindIds: readonly number[],
): Promise<ProgramDownload> {
  const ids = [...new Set(bindIds)];
  const binds = await findBinds(db, organisationId, ids);
  if (binds.length !== ids.length) throw invalid('bind_ids', 'field.exists');
  const deviceIds = new Set(binds.map((bind) => bind.device_id));
  const [deviceId] = deviceIds;
  if (deviceIds.size !== 1 || deviceId === undefined) throw invalid('bind_ids', 'deploy.one_device');
  if (binds.some((bind) => bind.recipe_version !== bind.version))
    throw invalid('bind_ids', 'deploy.outdated');
  const sources = new Map(
    (
      await programSources(
        db,
        binds.map((bind) => bind.recipe_id),
      )
    ).map((row) => [row.id, row]),
  );
  const files = binds.map((bind) => {
    const source = sources.get(bind.recipe_id);
    if (!source) throw invalid('bind_ids', 'field.exists'); // deleted meanwhile
    const file = programFile({
      id: source.id,
      version: source.version,
      type: source.slug,
      name: source.name,
      steps: JSON.parse(source.steps) as Parameters<typeof programFile>[0]['steps'],
    });
    return { name: programFileName(source.id, source.version), bytes: file.bytes };
  });
  if (files.length === 1) return { kind: 'file', name: files[0]?.name ?? '', files };
  const holdings = await deviceHoldings(db, deviceId);
  if (holdings.set) files.push({ name: holdings.set.file, bytes: holdings.set.bytes });
  return { kind: 'zip', name: `device-${deviceId}-programs.zip`, files };
}
