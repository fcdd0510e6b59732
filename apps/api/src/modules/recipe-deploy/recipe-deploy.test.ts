import { crc32 } from 'node:zlib';
import {
  PROGRAMS_PATH,
  crcHex,
  programFileName,
  type RecipeBind,
  type crcFileSchema,
  type uploadStatusSchema,
} from '@kontrol/contracts';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { programFile, setFile } from '../recipes/program-file.js';
import {
  buildDevice,
  buildOrganisation,
  buildRecipe,
  buildRecipeSet,
  buildSmartDevice,
  buildUser,
} from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { readZip } from '../../test/read-zip.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * The deployment API (docs/recipes.md, "Deployment") and the device's program routes
 * (docs/device-protocol.md, "Recipes"), without MQTT: this app runs no dispatcher, so binds stay
 * where the API (or the test, standing in for a delivery) puts them.
 */
const t = useTestApp();

type UploadStatus = z.infer<typeof uploadStatusSchema>;
type CrcFile = z.infer<typeof crcFileSchema>;
type Errors = Record<string, string[]>;

async function typeId(slug: string) {
  const row = await t.db
    .selectFrom('device_types')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An organisation with a set of two combi-oven recipes, two smart ovens, and its admin signed in. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const first = await buildRecipe(t.db, org.organisationId, { name: 'Roast' });
  const second = await buildRecipe(t.db, org.organisationId, { name: 'Bread' });
  const set = await buildRecipeSet(t.db, org.organisationId, { recipeIds: [first.id, second.id] });
  const device = await buildSmartDevice(t.db, org.organisationId);
  const other = await buildSmartDevice(t.db, org.organisationId);
  return { org, client, recipes: [first, second] as const, set, device, other };
}

const deleteBinds = (client: TestClient, bindIds: unknown[]) =>
  client.request({
    method: 'DELETE',
    url: '/api/recipes_sets_2/delete_recipes',
    payload: { bind_ids: bindIds },
  });

async function binds(client: TestClient, deviceId: number): Promise<RecipeBind[]> {
  const res = await client.get(`/api/devices/${deviceId}/recipe_binds`);
  expect(res.statusCode).toBe(200);
  return res.json<{ data: RecipeBind[] }>().data;
}

/** Stands in for a delivery: the bind's state as the gateway would leave it. */
async function markBind(
  bindId: number,
  values: { state: RecipeBind['state']; attempts: number; error?: string },
) {
  await t.db
    .updateTable('device_recipe_binds')
    .set({ state: values.state, attempts: values.attempts, error: values.error ?? null, sent_ts: Date.now() })
    .where('id', '=', bindId)
    .execute();
}

async function bumpRecipe(recipeId: number) {
  await t.db
    .updateTable('recipes')
    .set((eb) => ({ version: eb('version', '+', 1), name: 'Changed' }))
    .where('id', '=', recipeId)
    .execute();
}

const errorsOf = (res: { json: <T>() => T }) => res.json<{ errors: Errors }>().errors;

describe('POST /api/devices/{id}/recipe_set/{setId}', () => {
  it('gives the device the set: a queued bind per recipe, in the set, with the recipe’s version, CRC and size', async () => {
    const { client, recipes, set, device } = await setup();
    const res = await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
    expect(res.statusCode).toBe(200);
    const status = res.json<{ data: UploadStatus }>().data;
    expect(status).toMatchObject({
      device_id: device.id,
      set_id: set.id,
      counts: { queued: 2, sending: 0, installed: 0, failed: 0, removing: 0 },
    });
    expect(status.binds).toEqual(
      recipes.map((recipe) => ({
        id: expect.any(Number) as number,
        device_id: device.id,
        recipe_id: recipe.id,
        set_id: set.id,
        version: 1,
        crc: recipe.crc,
        state: 'queued',
        error: null,
        reported_crc: null,
        attempts: 0,
        outdated: false,
        updated_at: expect.any(String) as string,
      })),
    );
    expect(await binds(client, device.id)).toEqual(status.binds);
    const row = await t.db
      .selectFrom('devices')
      .select('recipe_set_id')
      .where('id', '=', device.id)
      .executeTakeFirst();
    expect(row?.recipe_set_id).toBe(set.id);
    // Deploying it again changes nothing.
    const again = await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
    expect(again.json<{ data: UploadStatus }>().data.binds).toEqual(status.binds);
  });

  it('removes what the previous set brought: at once if never sent, else `removing`; recipes deployed alone stay', async () => {
    const { org, client, recipes, device } = await setup();
    const [first, second] = recipes;
    const third = await buildRecipe(t.db, org.organisationId);
    const alone = await buildRecipe(t.db, org.organisationId);
    const bigger = await buildRecipeSet(t.db, org.organisationId, {
      recipeIds: [first.id, second.id, third.id],
    });
    await client.post(`/api/devices/${device.id}/recipe_set/${bigger.id}`);
    await client.post('/api/recipes_sets/upload_recipes', { device_id: device.id, recipe_ids: [alone.id] });
    const before = await binds(client, device.id);
    // The first was installed, the second went out and failed, the third was never sent.
    await markBind(before[0]!.id, { state: 'installed', attempts: 1 });
    await markBind(before[1]!.id, { state: 'failed', attempts: 1, error: 'crc_mismatch' });

    const smaller = await buildRecipeSet(t.db, org.organisationId, { recipeIds: [first.id] });
    const res = await client.post(`/api/devices/${device.id}/recipe_set/${smaller.id}`);
    expect(res.statusCode).toBe(200);
    const status = res.json<{ data: UploadStatus }>().data;
    expect(status.set_id).toBe(smaller.id);
    expect(status.binds.map((bind) => [bind.recipe_id, bind.set_id, bind.state])).toEqual([
      [first.id, smaller.id, 'installed'], // still wanted, already there
      [second.id, bigger.id, 'removing'],
      [alone.id, null, 'queued'],
    ]);
    expect(status.counts).toEqual({ queued: 1, sending: 0, installed: 1, failed: 0, removing: 1 });
  });

  it('answers 404 for a device or a set of another organisation, and for none', async () => {
    const { client, set, device } = await setup();
    const stranger = await buildOrganisation(t.db);
    const theirDevice = await buildSmartDevice(t.db, stranger.organisationId);
    const theirSet = await buildRecipeSet(t.db, stranger.organisationId);
    expect((await client.post(`/api/devices/${theirDevice.id}/recipe_set/${set.id}`)).statusCode).toBe(404);
    expect((await client.post(`/api/devices/${device.id}/recipe_set/${theirSet.id}`)).statusCode).toBe(404);
    expect((await client.post(`/api/devices/99999999/recipe_set/${set.id}`)).statusCode).toBe(404);
    expect(await binds(client, device.id)).toEqual([]);
  });

  it('answers 422 for a device without a controller, or a set of another type', async () => {
    const { org, client, set, device } = await setup();
    const plain = await buildDevice(t.db, org.organisationId);
    const res = await client.post(`/api/devices/${plain.id}/recipe_set/${set.id}`);
    expect(res.statusCode).toBe(422);
    expect(errorsOf(res)).toEqual({
      device_id: [
        'This equipment has no controller: recipes go only to smart equipment with a controller id.',
      ],
    });
    const fryerSet = await buildRecipeSet(t.db, org.organisationId, { typeId: await typeId('fryer') });
    const other = await client.post(`/api/devices/${device.id}/recipe_set/${fryerSet.id}`);
    expect(other.statusCode).toBe(422);
    expect(errorsOf(other)).toEqual({ set_id: ['These recipes are for another type of equipment.'] });
    expect(await binds(client, device.id)).toEqual([]);
  });
});

describe('POST /api/recipes_sets/upload', () => {
  it('queues the failed and outdated binds again and leaves the installed ones', async () => {
    const { org, client, recipes, set, device } = await setup();
    const third = await buildRecipe(t.db, org.organisationId);
    await t.db
      .insertInto('recipe_set_recipes')
      .values({ set_id: set.id, recipe_id: third.id, position: 2 })
      .execute();
    const first = await client.post('/api/recipes_sets/upload', { device_id: device.id, set_id: set.id });
    expect(first.statusCode).toBe(200);
    const [installed, failed, outdated] = first.json<{ data: UploadStatus }>().data.binds as [
      RecipeBind,
      RecipeBind,
      RecipeBind,
    ];
    await markBind(installed.id, { state: 'installed', attempts: 1 });
    await markBind(failed.id, { state: 'failed', attempts: 1, error: 'timeout' });
    await markBind(outdated.id, { state: 'installed', attempts: 1 });
    await bumpRecipe(third.id);
    expect((await binds(client, device.id)).map((bind) => bind.outdated)).toEqual([false, false, true]);

    const res = await client.post('/api/recipes_sets/upload', { device_id: device.id, set_id: set.id });
    expect(res.statusCode).toBe(200);
    const status = res.json<{ data: UploadStatus }>().data;
    expect(
      status.binds.map((bind) => [bind.recipe_id, bind.state, bind.version, bind.error, bind.outdated]),
    ).toEqual([
      [recipes[0].id, 'installed', 1, null, false],
      [recipes[1].id, 'queued', 1, null, false],
      [third.id, 'queued', 2, null, false],
    ]);
    const current = await t.db
      .selectFrom('recipes')
      .select('crc')
      .where('id', '=', third.id)
      .executeTakeFirstOrThrow();
    expect(status.binds[2]?.crc).toBe(current.crc);
  });

  it('answers 422 on the field for ids not of the organisation, a device without a controller, a set of another type, or a bad body', async () => {
    const { org, client, set, device } = await setup();
    const stranger = await buildOrganisation(t.db);
    const theirDevice = await buildSmartDevice(t.db, stranger.organisationId);
    const theirSet = await buildRecipeSet(t.db, stranger.organisationId);
    const plain = await buildDevice(t.db, org.organisationId);
    const fryerSet = await buildRecipeSet(t.db, org.organisationId, { typeId: await typeId('fryer') });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ device_id: theirDevice.id, set_id: set.id }, 'device_id'],
      [{ device_id: device.id, set_id: theirSet.id }, 'set_id'],
      [{ device_id: plain.id, set_id: set.id }, 'device_id'],
      [{ device_id: device.id, set_id: fryerSet.id }, 'set_id'],
      [{ device_id: device.id }, 'set_id'],
      [{ device_id: 'one', set_id: set.id }, 'device_id'],
    ];
    for (const [body, field] of cases) {
      const res = await client.post('/api/recipes_sets/upload', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(errorsOf(res)), JSON.stringify(body)).toEqual([field]);
    }
    expect(await binds(client, device.id)).toEqual([]);
  });
});

describe('POST /api/recipes_sets/upload_recipes', () => {
  it('binds recipes on their own (no set), queued; an installed one is sent again and keeps its set', async () => {
    const { org, client, recipes, set, device } = await setup();
    await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
    const [inSet] = await binds(client, device.id);
    await markBind(inSet!.id, { state: 'installed', attempts: 1 });
    const alone = await buildRecipe(t.db, org.organisationId);
    const res = await client.post('/api/recipes_sets/upload_recipes', {
      device_id: device.id,
      recipe_ids: [alone.id, recipes[0].id, alone.id],
    });
    expect(res.statusCode).toBe(200);
    const status = res.json<{ data: UploadStatus }>().data;
    expect(status.set_id).toBe(set.id);
    expect(status.binds.map((bind) => [bind.recipe_id, bind.set_id, bind.state, bind.attempts])).toEqual([
      [recipes[0].id, set.id, 'queued', 1],
      [recipes[1].id, set.id, 'queued', 0],
      [alone.id, null, 'queued', 0],
    ]);
  });

  it('answers 422 on recipe_ids for recipes of another organisation or type, or beyond the type’s capacity; on device_id for a device not of the organisation', async () => {
    const { org, client, recipes, device } = await setup();
    const stranger = await buildOrganisation(t.db);
    const theirs = await buildRecipe(t.db, stranger.organisationId);
    const theirDevice = await buildSmartDevice(t.db, stranger.organisationId);
    const fryerRecipe = await buildRecipe(t.db, org.organisationId, { typeSlug: 'fryer' });
    const missing = ['The selected value does not exist.'];
    const cases: Array<[Record<string, unknown>, Errors]> = [
      [{ device_id: device.id, recipe_ids: [recipes[0].id, theirs.id] }, { recipe_ids: missing }],
      [
        { device_id: device.id, recipe_ids: [fryerRecipe.id] },
        { recipe_ids: ['These recipes are for another type of equipment.'] },
      ],
      [{ device_id: theirDevice.id, recipe_ids: [recipes[0].id] }, { device_id: missing }],
    ];
    for (const [body, errors] of cases) {
      const res = await client.post('/api/recipes_sets/upload_recipes', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(errorsOf(res)).toEqual(errors);
    }
    const none = await client.post('/api/recipes_sets/upload_recipes', {
      device_id: device.id,
      recipe_ids: [],
    });
    expect(none.statusCode).toBe(422);
    expect(Object.keys(errorsOf(none))).toEqual(['recipe_ids']);

    // A fryer holds 100 programs.
    const fryer = await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'fryer' });
    const many = [fryerRecipe.id];
    for (let i = 0; i < 100; i += 1)
      many.push((await buildRecipe(t.db, org.organisationId, { typeSlug: 'fryer' })).id);
    const full = await client.post('/api/recipes_sets/upload_recipes', {
      device_id: fryer.id,
      recipe_ids: many,
    });
    expect(full.statusCode).toBe(422);
    expect(errorsOf(full)).toEqual({ recipe_ids: ['This equipment holds at most 100 programs.'] });
    const fits = await client.post('/api/recipes_sets/upload_recipes', {
      device_id: fryer.id,
      recipe_ids: many.slice(1),
    });
    expect(fits.statusCode).toBe(200);
    expect(fits.json<{ data: UploadStatus }>().data.counts.queued).toBe(100);
    expect(await binds(client, device.id)).toEqual([]);
  });
});

describe('DELETE /api/recipes_sets_2/delete_recipes', () => {
  it('deletes binds never sent at once and marks the others removing', async () => {
    const { client, set, device } = await setup();
    await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
    const [sent, never] = (await binds(client, device.id)) as [RecipeBind, RecipeBind];
    await markBind(sent.id, { state: 'installed', attempts: 1 });
    const res = await deleteBinds(client, [sent.id, never.id]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { removing: [sent.id], deleted: [never.id] } });
    expect((await binds(client, device.id)).map((bind) => [bind.id, bind.state])).toEqual([
      [sent.id, 'removing'],
    ]);
    // Asked again: already being removed.
    expect((await deleteBinds(client, [sent.id])).json()).toEqual({
      data: { removing: [sent.id], deleted: [] },
    });
  });

  it('answers 422 on bind_ids for binds not of the organisation, or none', async () => {
    const { client, set, device } = await setup();
    const stranger = await buildOrganisation(t.db);
    const strangerClient = new TestClient(t.app);
    await strangerClient.login(stranger.admin.email, stranger.admin.password);
    await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
    const [bind] = (await binds(client, device.id)) as [RecipeBind];
    const theirs = await deleteBinds(strangerClient, [bind.id]);
    expect(theirs.statusCode).toBe(422);
    expect(errorsOf(theirs)).toEqual({ bind_ids: ['The selected value does not exist.'] });
    const none = await deleteBinds(client, []);
    expect(none.statusCode).toBe(422);
    expect(Object.keys(errorsOf(none))).toEqual(['bind_ids']);
    expect(await binds(client, device.id)).toHaveLength(2);
  });
});

describe('POST /api/recipes_sets/get_program_files', () => {
  it('sends one file as is, several as a zip with the set file; the bytes are the recipes’ program files', async () => {
    const { client, recipes, set, device } = await setup();
    await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
    const bound = await binds(client, device.id);
    const one = await client.post('/api/recipes_sets/get_program_files', { bind_ids: [bound[1]!.id] });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toBe('application/octet-stream');
    expect(one.headers['content-disposition']).toBe(
      `attachment; filename="${programFileName(recipes[1].id, 1)}"; filename*=UTF-8''${programFileName(recipes[1].id, 1)}`,
    );
    expect(one.rawPayload.equals(recipes[1].file.bytes)).toBe(true);

    const zip = await client.post('/api/recipes_sets/get_program_files', {
      bind_ids: bound.map((bind) => bind.id),
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = readZip(zip.rawPayload);
    const setName = `set-${set.id}.kset`;
    expect([...files.keys()]).toEqual([...recipes.map((recipe) => programFileName(recipe.id, 1)), setName]);
    for (const recipe of recipes)
      expect(files.get(programFileName(recipe.id, 1))?.equals(recipe.file.bytes)).toBe(true);
    // The set file, as the recipes module writes a set's file.
    const slug = 'combi_oven';
    const setRow = await t.db
      .selectFrom('recipe_sets')
      .select('name')
      .where('id', '=', set.id)
      .executeTakeFirstOrThrow();
    const expected = setFile({
      id: set.id,
      name: setRow.name,
      type: slug,
      recipes: recipes.map((recipe) => ({ id: recipe.id, version: 1, crc: recipe.crc })),
    });
    expect(files.get(setName)?.equals(expected.bytes)).toBe(true);
  });

  it('answers 422 on bind_ids for binds of several devices, of another organisation, or whose recipe changed since', async () => {
    const { client, recipes, set, device, other } = await setup();
    await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
    await client.post(`/api/devices/${other.id}/recipe_set/${set.id}`);
    const [mine] = (await binds(client, device.id)) as [RecipeBind];
    const [theirs] = (await binds(client, other.id)) as [RecipeBind];
    const two = await client.post('/api/recipes_sets/get_program_files', { bind_ids: [mine.id, theirs.id] });
    expect(two.statusCode).toBe(422);
    expect(errorsOf(two)).toEqual({ bind_ids: ['Choose programs of one device.'] });

    const stranger = await buildOrganisation(t.db);
    const strangerClient = new TestClient(t.app);
    await strangerClient.login(stranger.admin.email, stranger.admin.password);
    const foreign = await strangerClient.post('/api/recipes_sets/get_program_files', { bind_ids: [mine.id] });
    expect(foreign.statusCode).toBe(422);
    expect(errorsOf(foreign)).toEqual({ bind_ids: ['The selected value does not exist.'] });

    await bumpRecipe(recipes[0].id);
    const changed = await client.post('/api/recipes_sets/get_program_files', { bind_ids: [mine.id] });
    expect(changed.statusCode).toBe(422);
    expect(errorsOf(changed)).toEqual({
      bind_ids: ['The recipe has changed since it was deployed: deploy it again to get its file.'],
    });
  });
});

describe('GET /api/devices/{id}/get_crc_file, recipe_binds and get_upload_status', () => {
  it('lists what the device should hold: the set file’s CRC and each file but those being removed', async () => {
    const { org, client, recipes, set, device } = await setup();
    const empty = await client.get(`/api/devices/${device.id}/get_crc_file`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ data: { device_id: device.id, set: null, files: [] } });
    const emptyStatus = await client.get(`/api/devices/${device.id}/get_upload_status`);
    expect(emptyStatus.json()).toEqual({
      data: {
        device_id: device.id,
        set_id: null,
        counts: { queued: 0, sending: 0, installed: 0, failed: 0, removing: 0 },
        binds: [],
      },
    });

    const alone = await buildRecipe(t.db, org.organisationId);
    await client.post('/api/recipes_sets/upload_recipes', { device_id: device.id, recipe_ids: [alone.id] });
    // The set's order is the set file's order, whatever the binds' ids.
    await t.db
      .updateTable('recipe_set_recipes')
      .set({ position: 5 })
      .where('recipe_id', '=', recipes[0].id)
      .execute();
    await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
    const crcFile = (await client.get(`/api/devices/${device.id}/get_crc_file`)).json<{ data: CrcFile }>()
      .data;
    const ordered = [recipes[1], recipes[0]];
    const setRow = await t.db
      .selectFrom('recipe_sets')
      .select('name')
      .where('id', '=', set.id)
      .executeTakeFirstOrThrow();
    expect(crcFile.set).toEqual({
      id: set.id,
      crc: setFile({
        id: set.id,
        name: setRow.name,
        type: 'combi_oven',
        recipes: ordered.map((recipe) => ({ id: recipe.id, version: 1, crc: recipe.crc })),
      }).crc,
    });
    expect(crcFile.files.map((file) => [file.recipe_id, file.file, file.crc, file.size])).toEqual(
      [...ordered, alone].map((recipe) => [
        recipe.id,
        programFileName(recipe.id, 1),
        recipe.crc,
        recipe.size,
      ]),
    );
    for (const recipe of [...ordered, alone]) expect(crcHex(crc32(recipe.file.bytes))).toBe(recipe.crc);

    const aloneBind = crcFile.files[2]!.bind_id;
    await markBind(aloneBind, { state: 'installed', attempts: 1 });
    await deleteBinds(client, [aloneBind]);
    const after = (await client.get(`/api/devices/${device.id}/get_crc_file`)).json<{ data: CrcFile }>().data;
    expect(after.files.map((file) => file.recipe_id)).toEqual(ordered.map((recipe) => recipe.id));
    const status = (await client.get(`/api/devices/${device.id}/get_upload_status`)).json<{
      data: UploadStatus;
    }>().data;
    expect(status.counts).toEqual({ queued: 2, sending: 0, installed: 0, failed: 0, removing: 1 });
  });

  it('answers 404 for a device of another organisation', async () => {
    const { client } = await setup();
    const stranger = await buildOrganisation(t.db);
    const theirs = await buildSmartDevice(t.db, stranger.organisationId);
    for (const path of ['recipe_binds', 'get_crc_file', 'get_upload_status']) {
      expect((await client.get(`/api/devices/${theirs.id}/${path}`)).statusCode, path).toBe(404);
    }
  });
});

describe('access', () => {
  it('answers 403 to a user without the recipes module, on every endpoint', async () => {
    const { org, set, device } = await setup();
    const user = await buildUser(t.db, org.organisationId, { modules: ['devices', 'dashboard'] });
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const requests: InjectOptions[] = [
      { method: 'POST', url: `/api/devices/${device.id}/recipe_set/${set.id}` },
      { method: 'POST', url: '/api/recipes_sets/upload', payload: { device_id: device.id, set_id: set.id } },
      {
        method: 'POST',
        url: '/api/recipes_sets/upload_recipes',
        payload: { device_id: device.id, recipe_ids: [1] },
      },
      { method: 'DELETE', url: '/api/recipes_sets_2/delete_recipes', payload: { bind_ids: [1] } },
      { method: 'POST', url: '/api/recipes_sets/get_program_files', payload: { bind_ids: [1] } },
      { method: 'GET', url: `/api/devices/${device.id}/recipe_binds` },
      { method: 'GET', url: `/api/devices/${device.id}/get_crc_file` },
      { method: 'GET', url: `/api/devices/${device.id}/get_upload_status` },
    ];
    for (const request of requests)
      expect((await client.request(request)).statusCode, request.url as string).toBe(403);
    // Signed out: 401.
    const guest = await TestClient.visitor(t.app);
    expect((await guest.get(`/api/devices/${device.id}/recipe_binds`)).statusCode).toBe(401);
  });
});

describe('the device’s program routes', () => {
  const programUrl = (bindId: number) => `${PROGRAMS_PATH}/${bindId}`;
  const asDevice = (credential: string, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { authorization: `Bearer ${credential}`, ...options.headers } });

  async function deployed() {
    const context = await setup();
    await context.client.post(`/api/devices/${context.device.id}/recipe_set/${context.set.id}`);
    const [first, second] = (await binds(context.client, context.device.id)) as [RecipeBind, RecipeBind];
    await markBind(first.id, { state: 'sending', attempts: 1 });
    await markBind(second.id, { state: 'sending', attempts: 1 });
    return { ...context, first, second };
  }

  it('downloads the file of one of the device’s own binds, with its CRC', async () => {
    const { recipes, device, other, first } = await deployed();
    const res = await asDevice(device.credential, { method: 'GET', url: programUrl(first.id) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers.etag).toBe(`"${recipes[0].crc}"`);
    expect(res.rawPayload.equals(recipes[0].file.bytes)).toBe(true);
    expect(crcHex(crc32(res.rawPayload))).toBe(first.crc);

    // Another device's bind, an unknown one, no credential.
    expect((await asDevice(other.credential, { method: 'GET', url: programUrl(first.id) })).statusCode).toBe(
      404,
    );
    expect((await asDevice(device.credential, { method: 'GET', url: programUrl(99999999) })).statusCode).toBe(
      404,
    );
    const anonymous = await t.app.inject({ method: 'GET', url: programUrl(first.id) });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect((await asDevice('kdc_wrong', { method: 'GET', url: programUrl(first.id) })).statusCode).toBe(401);
  });

  it('answers 410 for a bind being removed or whose recipe changed since the command', async () => {
    const { client, recipes, device, first, second } = await deployed();
    await bumpRecipe(recipes[0].id);
    expect((await asDevice(device.credential, { method: 'GET', url: programUrl(first.id) })).statusCode).toBe(
      410,
    );
    await deleteBinds(client, [second.id]);
    expect(
      (await asDevice(device.credential, { method: 'GET', url: programUrl(second.id) })).statusCode,
    ).toBe(410);
  });

  it('takes reports: the right CRC installs, another fails with crc_mismatch, an error fails with it', async () => {
    const { client, recipes, device, other, first, second } = await deployed();
    const report = (credential: string, bindId: number, body: unknown) =>
      asDevice(credential, { method: 'POST', url: `${programUrl(bindId)}/report`, payload: body as never });

    expect((await report(other.credential, first.id, { crc: recipes[0].crc })).statusCode).toBe(404);
    for (const body of [
      {},
      { crc: 'XYZ' },
      { crc: recipes[0].crc, removed: true },
      { error: 'nope' },
      { crc: recipes[0].crc, extra: 1 },
    ]) {
      const bad = await report(device.credential, first.id, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(422);
    }
    const ok = await report(device.credential, first.id, { crc: recipes[0].crc });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { bind_id: first.id, state: 'installed', error: null } });
    const wrong = await report(device.credential, second.id, { crc: 'deadbeef' });
    expect(wrong.json()).toEqual({ data: { bind_id: second.id, state: 'failed', error: 'crc_mismatch' } });
    expect(
      (await binds(client, device.id)).map((bind) => [bind.state, bind.error, bind.reported_crc]),
    ).toEqual([
      ['installed', null, recipes[0].crc],
      ['failed', 'crc_mismatch', 'deadbeef'],
    ]);
    // A late report after a failure still counts (the device did store the right file).
    const late = await report(device.credential, second.id, { crc: recipes[1].crc });
    expect(late.json()).toMatchObject({ data: { state: 'installed' } });
    const failed = await report(device.credential, second.id, { error: 'capacity' });
    expect(failed.json()).toEqual({ data: { bind_id: second.id, state: 'failed', error: 'capacity' } });
    expect((await binds(client, device.id))[1]).toMatchObject({
      state: 'failed',
      error: 'capacity',
      reported_crc: null,
    });
  });

  it('deletes a bind being removed when the device reports it removed; refuses reports no delivery awaits', async () => {
    const { client, recipes, device, first, second } = await deployed();
    const report = (bindId: number, body: unknown) =>
      asDevice(device.credential, {
        method: 'POST',
        url: `${programUrl(bindId)}/report`,
        payload: body as never,
      });
    expect((await report(first.id, { removed: true })).statusCode).toBe(409); // it was not told to
    await deleteBinds(client, [first.id]);
    expect((await report(first.id, { crc: recipes[0].crc })).statusCode).toBe(409);
    const removed = await report(first.id, { removed: true });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ data: { bind_id: first.id, state: 'removed', error: null } });
    expect((await binds(client, device.id)).map((bind) => bind.id)).toEqual([second.id]);
    expect((await report(first.id, { removed: true })).statusCode).toBe(404);

    // A bind queued again awaits a new command, not a report on the last one.
    await markBind(second.id, { state: 'failed', attempts: 1, error: 'timeout' });
    await client.post('/api/recipes_sets/upload_recipes', {
      device_id: device.id,
      recipe_ids: [recipes[1].id],
    });
    const queued = await report(second.id, { crc: recipes[1].crc });
    expect(queued.statusCode).toBe(409);
    expect((await binds(client, device.id))[0]?.state).toBe('queued');
  });
});

describe('the example of docs/device-protocol.md, "Recipes"', () => {
  it('has the CRCs and sizes the page gives', () => {
    const file = programFile({
      id: 42,
      version: 3,
      type: 'combi_oven',
      name: 'Курица гриль',
      steps: [
        {
          mode: 'combination',
          temperature: 160,
          humidity: 60,
          fan_speed: 3,
          duration_seconds: 900,
          core_temperature: null,
          prompt: 'Загрузите курицу',
        },
        {
          mode: 'convection',
          temperature: 220,
          humidity: null,
          fan_speed: 4,
          duration_seconds: null,
          core_temperature: 82,
          prompt: null,
        },
      ],
    });
    expect([file.crc, file.size]).toEqual(['8596beca', 425]);
    expect(crcHex(crc32(file.bytes))).toBe('8596beca');
    const set = setFile({
      id: 7,
      name: 'Обед',
      type: 'combi_oven',
      recipes: [{ id: 42, version: 3, crc: file.crc }],
    });
    expect([set.crc, set.size]).toEqual(['3442daca', 148]);
  });
});
