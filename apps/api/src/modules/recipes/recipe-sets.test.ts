import { translate, type MessageKey, type Recipe, type RecipeSet } from '@kontrol/contracts';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation, buildRecipe, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

const en = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);
type Errors = { message: string; errors: Record<string, string[]> };
interface Paged {
  data: RecipeSet[];
  meta: { current_page: number; from: number | null; last_page: number; per_page: number; total: number };
}
const SETS = '/api/recipes_sets';

async function typeId(slug: string) {
  const row = await t.db
    .selectFrom('device_types')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An organisation with three combi-oven recipes and a fryer one, and its admin signed in. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const types = {
    combi: await typeId('combi_oven'),
    fryer: await typeId('fryer'),
    dishwasher: await typeId('dishwasher'),
  };
  const recipes = [
    await buildRecipe(t.db, org.organisationId),
    await buildRecipe(t.db, org.organisationId),
    await buildRecipe(t.db, org.organisationId),
  ];
  const fryerRecipe = await buildRecipe(t.db, org.organisationId, {
    typeSlug: 'fryer',
    steps: [
      {
        mode: 'fry',
        temperature: 175,
        humidity: null,
        fan_speed: null,
        duration_seconds: 240,
        core_temperature: null,
        prompt: null,
      },
    ],
  });
  const create = async (body: Record<string, unknown>) => {
    const res = await client.post(`${SETS}/`, { device_type_id: types.combi, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: RecipeSet }>().data;
  };
  return { org, client, types, recipes, fryerRecipe, create };
}

const crcOf = (text: string) => crc32(Buffer.from(text, 'utf8')).toString(16).padStart(8, '0');

/** The set file written out by hand (docs/device-protocol.md) and its CRC. */
function setFileCrc(
  set: { id: number; name: string; type: string },
  recipes: { id: number; version: number; crc: string }[],
) {
  const lines = [
    `{"format":"kontrol-set/1","set":${set.id},"name":"${set.name}","type":"${set.type}","recipes":${recipes.length}}`,
    ...recipes.map(
      (r) => `{"recipe":${r.id},"version":${r.version},"file":"r${r.id}-v${r.version}.kpf","crc":"${r.crc}"}`,
    ),
  ];
  return crcOf(`${lines.join('\n')}\n`);
}

describe('POST /api/recipes_sets/ and GET /api/recipes_sets/{id}', () => {
  it('creates a set with its recipes in the order given, each once, and the CRC of its file', async () => {
    const { client, types, recipes, create } = await setup();
    const [a, b] = recipes as [(typeof recipes)[0], (typeof recipes)[0]];
    const set = await create({
      name: ' Breakfast ',
      description: 'Morning line',
      recipe_ids: [b.id, a.id, b.id],
    });
    expect(set).toEqual({
      id: set.id,
      name: 'Breakfast',
      description: 'Morning line',
      device_type_id: types.combi,
      recipe_ids: [b.id, a.id],
      crc: setFileCrc({ id: set.id, name: 'Breakfast', type: 'combi_oven' }, [
        { id: b.id, version: 1, crc: b.crc },
        { id: a.id, version: 1, crc: a.crc },
      ]),
      created_at: expect.any(String) as string,
      updated_at: expect.any(String) as string,
    });
    const shown = await client.get(`${SETS}/${set.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ data: set });
  });

  it('creates an empty set when recipe_ids is left out', async () => {
    const { create } = await setup();
    const set = await create({ name: 'Empty' });
    expect(set).toMatchObject({ recipe_ids: [], description: null });
    expect(set.crc).toBe(setFileCrc({ id: set.id, name: 'Empty', type: 'combi_oven' }, []));
  });

  it("moves its CRC when a recipe's program changes, not when only its category does", async () => {
    const { client, recipes, create, types } = await setup();
    const [a] = recipes as [(typeof recipes)[0]];
    const set = await create({ name: 'S', recipe_ids: [a.id] });
    const recipe = (await client.get(`/api/recipes/${a.id}`)).json<{ data: Recipe }>().data;
    const body = {
      name: recipe.name,
      device_type_id: types.combi,
      steps: recipe.steps,
      category: 'Only the category',
    };
    expect((await client.put(`/api/recipes/${a.id}`, body)).statusCode).toBe(200);
    expect((await client.get(`${SETS}/${set.id}`)).json<{ data: RecipeSet }>().data.crc).toBe(set.crc);

    const changed = await client.put(`/api/recipes/${a.id}`, {
      ...body,
      steps: [{ ...recipe.steps[0], temperature: 222 }],
    });
    const v2 = changed.json<{ data: Recipe }>().data;
    expect(v2.version).toBe(2);
    const after = (await client.get(`${SETS}/${set.id}`)).json<{ data: RecipeSet }>().data;
    expect(after.crc).not.toBe(set.crc);
    expect(after.crc).toBe(
      setFileCrc({ id: set.id, name: 'S', type: 'combi_oven' }, [{ id: a.id, version: 2, crc: v2.crc }]),
    );
  });
});

describe('PUT and DELETE /api/recipes_sets/{id}', () => {
  it('replaces name, description and the whole recipe list in its new order', async () => {
    const { client, recipes, create, types } = await setup();
    const [a, b, c] = recipes.map((r) => r.id) as [number, number, number];
    const set = await create({ name: 'S', description: 'd', recipe_ids: [a, b] });
    const res = await client.put(`${SETS}/${set.id}`, {
      name: 'S2',
      device_type_id: types.combi,
      recipe_ids: [c, a],
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json<{ data: RecipeSet }>().data;
    expect(updated).toMatchObject({ id: set.id, name: 'S2', description: null, recipe_ids: [c, a] });
    expect(updated.crc).not.toBe(set.crc);
    const emptied = await client.put(`${SETS}/${set.id}`, { name: 'S2', device_type_id: types.combi });
    expect(emptied.json<{ data: RecipeSet }>().data.recipe_ids).toEqual([]);
    expect((await client.get(`/api/recipes/${a}`)).json<{ data: Recipe }>().data.set_ids).toEqual([]);
  });

  it('deletes a set (204, then 404): its recipes stay, devices holding it hold none and keep their recipes', async () => {
    const { org, client, recipes, create } = await setup();
    const [a] = recipes as [(typeof recipes)[0]];
    const set = await create({ name: 'S', recipe_ids: [a.id] });
    const device = await buildDevice(t.db, org.organisationId, { recipe_set_id: set.id });
    const now = new Date().toISOString();
    await t.db
      .insertInto('device_recipe_binds')
      .values({
        organisation_id: org.organisationId,
        device_id: device.id,
        recipe_id: a.id,
        set_id: set.id,
        version: 1,
        crc: a.crc,
        size: a.size,
        state: 'installed',
        created_at: now,
        updated_at: now,
      })
      .execute();

    const res = await client.delete(`${SETS}/${set.id}`);
    expect(res.statusCode).toBe(204);
    expect((await client.get(`${SETS}/${set.id}`)).statusCode).toBe(404);
    expect((await client.delete(`${SETS}/${set.id}`)).statusCode).toBe(404);
    const recipe = await client.get(`/api/recipes/${a.id}`);
    expect([recipe.statusCode, recipe.json<{ data: Recipe }>().data.set_ids]).toEqual([200, []]);
    const held = await t.db
      .selectFrom('devices')
      .select('recipe_set_id')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(held.recipe_set_id).toBeNull();
    const binds = await t.db
      .selectFrom('device_recipe_binds')
      .select(['recipe_id', 'set_id'])
      .where('device_id', '=', device.id)
      .execute();
    expect(binds).toEqual([{ recipe_id: a.id, set_id: null }]);
  });
});

describe('GET /api/recipes_sets/', () => {
  it('answers every set of the organisation as {data} by name without page, paged with it', async () => {
    const { client, create, recipes } = await setup();
    const theirs = await setup();
    await theirs.create({ name: 'Aardvark' });
    const beta = await create({ name: 'Beta', recipe_ids: [recipes[0]?.id] });
    const alpha = await create({ name: 'Alpha' });
    const res = await client.get(`${SETS}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [alpha, beta] });
    const page = (await client.get(`${SETS}/?page=2&per_page=1`)).json<Paged>();
    expect(page.data).toEqual([beta]);
    expect(page.meta).toMatchObject({ current_page: 2, from: 2, to: 2, total: 2, last_page: 2 });
  });

  it('filters by id, device_type_id and name; refuses other fields', async () => {
    const { client, create, types, fryerRecipe } = await setup();
    const hot = await create({ name: 'Hot line' });
    await create({ name: 'Cold line' });
    const fry = await create({
      name: 'Fryer HOT',
      device_type_id: types.fryer,
      recipe_ids: [fryerRecipe.id],
    });
    const names = async (query: string) => {
      const res = await client.get(`${SETS}/?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: RecipeSet[] }>().data.map((s) => s.name);
    };
    expect(
      await names(`filters[id][operator]=in&filters[id][value][]=${hot.id}&filters[id][value][]=${fry.id}`),
    ).toEqual(['Fryer HOT', 'Hot line']);
    expect(
      await names(`filters[device_type_id][operator]=%3D&filters[device_type_id][value]=${types.fryer}`),
    ).toEqual(['Fryer HOT']);
    expect(await names('filters[name][operator]=like&filters[name][value]=hot')).toEqual([
      'Fryer HOT',
      'Hot line',
    ]);
    expect(await names('filters[name][operator]=%3D&filters[name][value]=Cold line')).toEqual(['Cold line']);
    const bad = await client.get(
      `${SETS}/?filters[description][operator]=like&filters[description][value]=x`,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json<Errors>().errors).toEqual({ 'filters.description': [en('filter.field')] });
  });
});

describe('validation (422)', () => {
  it('refuses a type that takes no recipes, or none at all, on device_type_id', async () => {
    const { client, types } = await setup();
    const none = await client.post(`${SETS}/`, { name: 'S', device_type_id: types.dishwasher });
    expect(none.statusCode).toBe(422);
    expect(none.json<Errors>()).toEqual({
      message: en('validation.failed'),
      errors: { device_type_id: ['This type of equipment takes no recipes.'] },
    });
    const missing = await client.post(`${SETS}/`, { name: 'S', device_type_id: 999_999 });
    expect(missing.json<Errors>().errors).toEqual({ device_type_id: [en('field.exists')] });
  });

  it("refuses missing recipes, another organisation's and another type's on recipe_ids, and stores nothing", async () => {
    const { org, client, types, recipes, fryerRecipe } = await setup();
    const theirs = await buildOrganisation(t.db);
    const theirRecipe = await buildRecipe(t.db, theirs.organisationId);
    const mine = recipes[0]?.id ?? 0;
    for (const [ids, message] of [
      [[mine, 999_999], en('field.exists')],
      [[mine, theirRecipe.id], en('field.exists')],
      [
        [mine, fryerRecipe.id],
        'A recipe for another type of equipment: a set holds recipes of its own type only.',
      ],
    ] as const) {
      const res = await client.post(`${SETS}/`, { name: 'S', device_type_id: types.combi, recipe_ids: ids });
      expect(res.statusCode).toBe(422);
      expect(res.json<Errors>().errors).toEqual({ recipe_ids: [message] });
    }
    const sets = await t.db
      .selectFrom('recipe_sets')
      .select('id')
      .where('organisation_id', '=', org.organisationId)
      .execute();
    expect(sets).toEqual([]);
  });

  it('refuses a new type for a set devices hold, and allows it for one they do not', async () => {
    const { org, client, types, create, recipes } = await setup();
    const held = await create({ name: 'Held', recipe_ids: [recipes[0]?.id] });
    await buildDevice(t.db, org.organisationId, { recipe_set_id: held.id });
    const res = await client.put(`${SETS}/${held.id}`, { name: 'Held', device_type_id: types.fryer });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      device_type_id: ['The set is installed on devices (1): its type of equipment cannot change.'],
    });
    expect((await client.get(`${SETS}/${held.id}`)).json()).toEqual({ data: held });
    const free = await create({ name: 'Free' });
    const moved = await client.put(`${SETS}/${free.id}`, { name: 'Free', device_type_id: types.fryer });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<{ data: RecipeSet }>().data.device_type_id).toBe(types.fryer);
  });

  it.each([
    ['name', { name: ' ' }, en('field.required')],
    ['recipe_ids.0', { name: 'S', recipe_ids: ['x'] }, en('field.type')],
    ['organisation_id', { name: 'S', organisation_id: 1 }, en('field.unknown_key')],
  ])('%s (schema)', async (field, body, message) => {
    const { client, types } = await setup();
    const res = await client.post(`${SETS}/`, { device_type_id: types.combi, ...body });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ [field]: [message] });
  });
});

describe('organisation scoping and access', () => {
  it("answers 404 for another organisation's set on every {id} route, and changes nothing", async () => {
    const mine = await setup();
    const theirs = await setup();
    const set = await theirs.create({ name: 'Theirs', recipe_ids: theirs.recipes.map((r) => r.id) });
    const url = `${SETS}/${set.id}`;
    for (const res of [
      await mine.client.get(url),
      await mine.client.put(url, { name: 'Mine now', device_type_id: mine.types.combi }),
      await mine.client.delete(url),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: en('http.not_found') });
    }
    expect((await theirs.client.get(url)).json()).toEqual({ data: set });
    expect((await mine.client.get(`${SETS}/abc`)).statusCode).toBe(404);
  });

  it('answers 403 without the recipes module, 401 without a session', async () => {
    const { org, create, types } = await setup();
    const set = await create({ name: 'S' });
    const user = await buildUser(t.db, org.organisationId, { modules: ['devices'] });
    const denied = new TestClient(t.app);
    await denied.login(user.email, user.password);
    const guest = await TestClient.visitor(t.app);
    const body = { name: 'X', device_type_id: types.combi };
    for (const [client, status] of [
      [denied, 403],
      [guest, 401],
    ] as const) {
      for (const res of [
        await client.get(`${SETS}/`),
        await client.post(`${SETS}/`, body),
        await client.get(`${SETS}/${set.id}`),
        await client.put(`${SETS}/${set.id}`, body),
        await client.delete(`${SETS}/${set.id}`),
      ]) {
        expect(res.statusCode).toBe(status);
      }
    }
  });
});
