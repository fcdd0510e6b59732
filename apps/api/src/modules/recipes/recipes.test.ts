import { translate, type MessageKey, type Recipe, type RecipeSet } from '@kontrol/contracts';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  buildDevice,
  buildOrganisation,
  buildRecipe,
  buildRecipeSet,
  buildUser,
} from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

const en = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);
type Errors = { message: string; errors: Record<string, string[]> };
interface Paged {
  data: Recipe[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { current_page: number; from: number | null; last_page: number; per_page: number; total: number };
}
const RECIPES = '/api/recipes';

async function typeId(slug: string) {
  const row = await t.db
    .selectFrom('device_types')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A convection step of 10 minutes at 180 °C, fan 3, with any field replaced. */
const step = (extra: Record<string, unknown> = {}) => ({
  mode: 'convection',
  temperature: 180,
  fan_speed: 3,
  duration_seconds: 600,
  ...extra,
});

/** An organisation, its admin signed in, and the ids of the device types the tests use. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const types = {
    combi: await typeId('combi_oven'),
    convection: await typeId('convection_oven'),
    fryer: await typeId('fryer'),
    chiller: await typeId('blast_chiller'),
    dishwasher: await typeId('dishwasher'),
  };
  const body = (extra: Record<string, unknown> = {}) => ({
    name: 'Roast chicken',
    device_type_id: types.combi,
    steps: [step()],
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await client.post(`${RECIPES}/`, body(extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Recipe }>().data;
  };
  return { org, client, types, body, create };
}

/** The CRC32 (zlib's) of text as UTF-8, as 8 hex digits: computed here, not by the server's code. */
const crcOf = (text: string) => crc32(Buffer.from(text, 'utf8')).toString(16).padStart(8, '0');

/** The recipes of a set in its order, read through the API. */
async function setRecipeIds(client: TestClient, setId: number) {
  const res = await client.get(`/api/recipes_sets/${setId}`);
  expect(res.statusCode).toBe(200);
  return res.json<{ data: RecipeSet }>().data.recipe_ids;
}

describe('POST /api/recipes/ and GET /api/recipes/{id}', () => {
  it('creates a recipe at version 1 with its program file CRC, size and total time: 201', async () => {
    const { client, types } = await setup();
    const res = await client.post(`${RECIPES}/`, {
      name: '  Бриошь ',
      device_type_id: types.combi,
      category: 'Выпечка',
      description: 'Сливочная',
      steps: [
        {
          mode: 'steam',
          temperature: 100,
          fan_speed: 2,
          duration_seconds: 300,
          prompt: 'Поставьте противень',
        },
        { mode: 'combination', temperature: 160, humidity: 40, fan_speed: 3, core_temperature: 72 },
        { mode: 'convection', temperature: 200, duration_seconds: 120 },
      ],
    });
    expect(res.statusCode).toBe(201);
    const recipe = res.json<{ data: Recipe }>().data;
    const id = recipe.id;
    // The program file, written out by hand (docs/device-protocol.md): one JSON object per line.
    const text =
      `{"format":"kontrol-program/1","recipe":${id},"version":1,"type":"combi_oven","name":"Бриошь","steps":3}\n` +
      '{"step":1,"mode":"steam","temperature":100,"humidity":null,"fan_speed":2,"duration_seconds":300,' +
      '"core_temperature":null,"prompt":"Поставьте противень"}\n' +
      '{"step":2,"mode":"combination","temperature":160,"humidity":40,"fan_speed":3,"duration_seconds":null,' +
      '"core_temperature":72,"prompt":null}\n' +
      '{"step":3,"mode":"convection","temperature":200,"humidity":null,"fan_speed":null,"duration_seconds":120,' +
      '"core_temperature":null,"prompt":null}\n';
    expect(recipe).toEqual({
      id,
      name: 'Бриошь',
      device_type_id: types.combi,
      category: 'Выпечка',
      description: 'Сливочная',
      image: null,
      image_url: null,
      steps: [
        {
          mode: 'steam',
          temperature: 100,
          humidity: null,
          fan_speed: 2,
          duration_seconds: 300,
          core_temperature: null,
          prompt: 'Поставьте противень',
        },
        {
          mode: 'combination',
          temperature: 160,
          humidity: 40,
          fan_speed: 3,
          duration_seconds: null,
          core_temperature: 72,
          prompt: null,
        },
        {
          mode: 'convection',
          temperature: 200,
          humidity: null,
          fan_speed: null,
          duration_seconds: 120,
          core_temperature: null,
          prompt: null,
        },
      ],
      version: 1,
      crc: crcOf(text),
      duration_seconds: 420,
      set_ids: [],
      created_at: expect.any(String) as string,
      updated_at: expect.any(String) as string,
    });
    const row = await t.db
      .selectFrom('recipes')
      .select(['size', 'crc'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ size: Buffer.byteLength(text, 'utf8'), crc: crcOf(text) });

    const shown = await client.get(`${RECIPES}/${id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ data: recipe });
  });

  it('joins the sets named in set_ids, at their end', async () => {
    const { org, client, types, create } = await setup();
    const old = await buildRecipe(t.db, org.organisationId);
    const set = await buildRecipeSet(t.db, org.organisationId, { typeId: types.combi, recipeIds: [old.id] });
    const recipe = await create({ set_ids: [set.id, set.id] });
    expect(recipe.set_ids).toEqual([set.id]);
    expect(await setRecipeIds(client, set.id)).toEqual([old.id, recipe.id]);
  });
});

describe('versions and CRCs', () => {
  it('keeps version and CRC for the same recipe and for category, description or image alone', async () => {
    const { client, body, create } = await setup();
    const recipe = await create();
    const same = await client.put(`${RECIPES}/${recipe.id}`, body());
    expect(same.statusCode).toBe(200);
    expect(same.json<{ data: Recipe }>().data).toMatchObject({ version: 1, crc: recipe.crc });
    const described = await client.put(
      `${RECIPES}/${recipe.id}`,
      body({ category: 'Мясо', description: 'Golden skin' }),
    );
    expect(described.json<{ data: Recipe }>().data).toMatchObject({
      version: 1,
      crc: recipe.crc,
      category: 'Мясо',
      description: 'Golden skin',
    });
  });

  it('moves the version by one and the CRC with it on a change of steps, name or type', async () => {
    const { client, body, create, types } = await setup();
    const recipe = await create();
    const fileOf = (version: number, name: string, type: string, temperature: number) =>
      `{"format":"kontrol-program/1","recipe":${recipe.id},"version":${version},"type":"${type}","name":"${name}","steps":1}\n` +
      `{"step":1,"mode":"convection","temperature":${temperature},"humidity":null,"fan_speed":3,` +
      '"duration_seconds":600,"core_temperature":null,"prompt":null}\n';
    expect(recipe.crc).toBe(crcOf(fileOf(1, 'Roast chicken', 'combi_oven', 180)));

    const hotter = await client.put(`${RECIPES}/${recipe.id}`, body({ steps: [step({ temperature: 190 })] }));
    expect(hotter.statusCode).toBe(200);
    const v2 = hotter.json<{ data: Recipe }>().data;
    expect(v2).toMatchObject({ version: 2, crc: crcOf(fileOf(2, 'Roast chicken', 'combi_oven', 190)) });
    expect(v2.crc).not.toBe(recipe.crc);

    const renamed = (
      await client.put(
        `${RECIPES}/${recipe.id}`,
        body({ name: 'Chicken', steps: [step({ temperature: 190 })] }),
      )
    ).json<{ data: Recipe }>().data;
    expect(renamed).toMatchObject({ version: 3, crc: crcOf(fileOf(3, 'Chicken', 'combi_oven', 190)) });

    const moved = await client.put(
      `${RECIPES}/${recipe.id}`,
      body({ name: 'Chicken', device_type_id: types.convection, steps: [step({ temperature: 190 })] }),
    );
    expect(moved.statusCode).toBe(200);
    expect(moved.json<{ data: Recipe }>().data).toMatchObject({
      version: 4,
      crc: crcOf(fileOf(4, 'Chicken', 'convection_oven', 190)),
    });

    // Back to the same content: the version still only moves forward.
    const again = (
      await client.put(
        `${RECIPES}/${recipe.id}`,
        body({ name: 'Chicken', device_type_id: types.convection, steps: [step({ temperature: 190 })] }),
      )
    ).json<{ data: Recipe }>().data;
    expect(again.version).toBe(4);
  });

  it('keeps the total time as the sum of durations, core-probe steps counting as nothing', async () => {
    const { client, body, create } = await setup();
    const recipe = await create({ steps: [step(), step({ duration_seconds: null, core_temperature: 65 })] });
    expect(recipe.duration_seconds).toBe(600);
    const updated = await client.put(
      `${RECIPES}/${recipe.id}`,
      body({ steps: [step({ duration_seconds: 90 }), step({ duration_seconds: 30 })] }),
    );
    expect(updated.json<{ data: Recipe }>().data.duration_seconds).toBe(120);
  });
});

describe('PUT /api/recipes/{id} and sets', () => {
  it('keeps the sets when set_ids is left out and replaces them when given', async () => {
    const { org, client, body, create, types } = await setup();
    const a = await buildRecipeSet(t.db, org.organisationId, { typeId: types.combi });
    const b = await buildRecipeSet(t.db, org.organisationId, { typeId: types.combi });
    const recipe = await create({ set_ids: [a.id] });
    const kept = await client.put(`${RECIPES}/${recipe.id}`, body({ name: 'Other' }));
    expect(kept.json<{ data: Recipe }>().data.set_ids).toEqual([a.id]);
    const replaced = await client.put(`${RECIPES}/${recipe.id}`, body({ set_ids: [b.id] }));
    expect(replaced.json<{ data: Recipe }>().data.set_ids).toEqual([b.id]);
  });

  it('refuses a new type while the recipe is in sets of the old one (set_ids left out)', async () => {
    const { org, client, body, create, types } = await setup();
    const set = await buildRecipeSet(t.db, org.organisationId, { typeId: types.combi });
    const recipe = await create({ set_ids: [set.id] });
    const res = await client.put(`${RECIPES}/${recipe.id}`, body({ device_type_id: types.convection }));
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ set_ids: [en('recipe.set_type')] });
    // Leaving the sets in the same request is fine.
    const moved = await client.put(
      `${RECIPES}/${recipe.id}`,
      body({ device_type_id: types.convection, set_ids: [] }),
    );
    expect(moved.statusCode).toBe(200);
  });

  it('changes nothing when the update is refused', async () => {
    const { client, body, create } = await setup();
    const recipe = await create();
    const res = await client.put(
      `${RECIPES}/${recipe.id}`,
      body({ name: 'Changed', steps: [step({ temperature: 20 })] }),
    );
    expect(res.statusCode).toBe(422);
    expect((await client.get(`${RECIPES}/${recipe.id}`)).json()).toEqual({ data: recipe });
  });
});

describe('validation (422)', () => {
  type Case = [
    string,
    (types: Awaited<ReturnType<typeof setup>>['types']) => Record<string, unknown>,
    Record<string, string[]>,
  ];
  const cases: Case[] = [
    [
      'a type that takes no recipes',
      (ty) => ({ device_type_id: ty.dishwasher }),
      { device_type_id: ['This type of equipment takes no recipes.'] },
    ],
    [
      'a type that does not exist',
      () => ({ device_type_id: 999_999 }),
      { device_type_id: [en('field.exists')] },
    ],
    [
      'a mode the type does not have',
      (ty) => ({
        device_type_id: ty.fryer,
        steps: [{ mode: 'steam', temperature: 100, duration_seconds: 60 }],
      }),
      { 'steps.0.mode': ['This mode is not available on this type of equipment (available: fry).'] },
    ],
    [
      "temperatures outside each step's mode, each with its own range",
      () => ({
        steps: [
          step(),
          step({ mode: 'steam', temperature: 150 }),
          step({ mode: 'combination', temperature: 260 }),
          step({ temperature: 29 }),
        ],
      }),
      {
        'steps.1.temperature': ['In this mode the temperature must be from 30 to 130 °C.'],
        'steps.2.temperature': ['In this mode the temperature must be from 30 to 250 °C.'],
        'steps.3.temperature': ['In this mode the temperature must be from 30 to 300 °C.'],
      },
    ],
    [
      'a freezing temperature to chill',
      (ty) => ({
        device_type_id: ty.chiller,
        steps: [{ mode: 'chill', temperature: -18, duration_seconds: 60 }],
      }),
      { 'steps.0.temperature': ['In this mode the temperature must be from -5 to 10 °C.'] },
    ],
    [
      'humidity in a mode without it',
      () => ({ steps: [step({ humidity: 50 })] }),
      { 'steps.0.humidity': ['Humidity is not set in this mode: leave it empty.'] },
    ],
    [
      'a fan speed in a mode without a fan',
      (ty) => ({
        device_type_id: ty.fryer,
        steps: [{ mode: 'fry', temperature: 175, fan_speed: 2, duration_seconds: 240 }],
      }),
      { 'steps.0.fan_speed': ['This mode has no fan: leave the fan speed empty.'] },
    ],
    [
      'both a duration and a core temperature',
      () => ({ steps: [step({ core_temperature: 70 })] }),
      { 'steps.0.duration_seconds': ['Set exactly one of the step duration and the core temperature.'] },
    ],
    [
      'neither a duration nor a core temperature',
      () => ({ steps: [step(), step({ duration_seconds: null })] }),
      { 'steps.1.duration_seconds': ['Set exactly one of the step duration and the core temperature.'] },
    ],
    [
      'a core temperature on a type without a probe',
      (ty) => ({
        device_type_id: ty.fryer,
        steps: [{ mode: 'fry', temperature: 175, core_temperature: 70 }],
      }),
      { 'steps.0.core_temperature': ['This equipment has no core probe: a step can only end after a time.'] },
    ],
    [
      'an image nobody uploaded',
      () => ({ image: `${'ab'.repeat(16)}.jpg` }),
      { image: ['The image was not found: upload it again.'] },
    ],
    ['a set that does not exist', () => ({ set_ids: [999_999] }), { set_ids: [en('field.exists')] }],
    // Schema rules, for the shape of their answers.
    ['no steps', () => ({ steps: [] }), { steps: [en('field.array_min', { min: 1 })] }],
    [
      'a mode that does not exist',
      () => ({ steps: [step({ mode: 'grill' })] }),
      {
        'steps.0.mode': [en('field.enum', { values: 'steam, convection, combination, fry, chill, freeze' })],
      },
    ],
    ['an unknown field', () => ({ organisation_id: 1 }), { organisation_id: [en('field.unknown_key')] }],
  ];

  it.each(cases)('%s', async (_label, extra, errors) => {
    const { org, client, body, types } = await setup();
    const res = await client.post(`${RECIPES}/`, body(extra(types)));
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>()).toEqual({ message: en('validation.failed'), errors });
    const rows = await t.db
      .selectFrom('recipes')
      .select('id')
      .where('organisation_id', '=', org.organisationId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('reports every problem of a recipe at once, in Russian for a Russian request', async () => {
    const { client, body, types } = await setup();
    const res = await client.post(
      `${RECIPES}/`,
      body({
        device_type_id: types.combi,
        image: `${'cd'.repeat(16)}.png`,
        steps: [step({ mode: 'steam', temperature: 140, humidity: 30 }), step({ mode: 'fry' })],
      }),
      { 'accept-language': 'ru' },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      image: ['Изображение не найдено: загрузите его ещё раз.'],
      'steps.0.temperature': ['В этом режиме температура от 30 до 130 °C.'],
      'steps.0.humidity': ['В этом режиме влажность не задаётся: оставьте поле пустым.'],
      'steps.1.mode': [
        'Этот режим недоступен для этого типа оборудования (доступны: steam, convection, combination).',
      ],
    });
  });

  it("refuses another organisation's set on set_ids as not existing", async () => {
    const { client, body, types } = await setup();
    const theirs = await buildOrganisation(t.db);
    const theirSet = await buildRecipeSet(t.db, theirs.organisationId, { typeId: types.combi });
    const res = await client.post(`${RECIPES}/`, body({ set_ids: [theirSet.id] }));
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ set_ids: [en('field.exists')] });
  });

  it('refuses a set of another type of equipment', async () => {
    const { org, client, body, types } = await setup();
    const fryers = await buildRecipeSet(t.db, org.organisationId, { typeId: types.fryer });
    const res = await client.post(`${RECIPES}/`, body({ set_ids: [fryers.id] }));
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      set_ids: ['A set for another type of equipment: a recipe joins only sets of its own type.'],
    });
  });
});

describe('GET /api/recipes/', () => {
  it('answers every recipe of the organisation as {data}, by name, without page', async () => {
    const { create } = await setup();
    const { client, create: createMine } = await setup();
    await create({ name: 'Aardvark stew' });
    const b = await createMine({ name: 'Beta' });
    const a = await createMine({ name: 'alpha' });
    const res = await client.get(`${RECIPES}/`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<object>())).toEqual(['data']);
    expect(res.json<{ data: Recipe[] }>().data.map((r) => r.id)).toEqual(
      [a, b].sort((x, y) => (x.name < y.name ? -1 : 1)).map((r) => r.id),
    );
    expect(res.json<{ data: Recipe[] }>().data.find((r) => r.id === b.id)).toEqual(b);
  });

  it('pages with page and per_page', async () => {
    const { client, create } = await setup();
    for (const name of ['R1', 'R2', 'R3']) await create({ name });
    const page = (await client.get(`${RECIPES}/?page=2&per_page=2`)).json<Paged>();
    expect(page.data.map((r) => r.name)).toEqual(['R3']);
    expect(page.meta).toMatchObject({ current_page: 2, from: 3, to: 3, total: 3, last_page: 2, per_page: 2 });
    expect(page.links.first).toBe('http://localhost:80/api/recipes/?page=1&per_page=2');
  });

  it('searches name and category in any case', async () => {
    const { client, create } = await setup();
    await create({ name: 'Борщ', category: 'Супы' });
    await create({ name: 'Солянка', category: 'супы' });
    await create({ name: 'Суп-пюре', category: 'Закуски' });
    await create({ name: 'Brioche', category: 'Bakery' });
    const found = (await client.get(`${RECIPES}/?search=${encodeURIComponent('СУП')}`)).json<{
      data: Recipe[];
    }>();
    expect(found.data.map((r) => r.name)).toEqual(['Борщ', 'Солянка', 'Суп-пюре']);
    const bakery = (await client.get(`${RECIPES}/?search=bAk`)).json<{ data: Recipe[] }>();
    expect(bakery.data.map((r) => r.name)).toEqual(['Brioche']);
  });

  it('filters by device_type_id, category and set_id', async () => {
    const { org, client, create, types } = await setup();
    const combi = await create({ name: 'A', category: 'Meat' });
    await create({ name: 'B', device_type_id: types.convection, category: 'Fish' });
    await create({
      name: 'C',
      device_type_id: types.fryer,
      category: 'Meat balls',
      steps: [{ mode: 'fry', temperature: 175, duration_seconds: 240 }],
    });
    const set = await buildRecipeSet(t.db, org.organisationId, {
      typeId: types.combi,
      recipeIds: [combi.id],
    });
    const names = async (query: string) => {
      const res = await client.get(`${RECIPES}/?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: Recipe[] }>().data.map((r) => r.name);
    };
    expect(
      await names(`filters[device_type_id][operator]=%3D&filters[device_type_id][value]=${types.fryer}`),
    ).toEqual(['C']);
    expect(
      await names(
        `filters[device_type_id][operator]=in&filters[device_type_id][value][]=${types.fryer}&filters[device_type_id][value][]=${types.convection}`,
      ),
    ).toEqual(['B', 'C']);
    expect(await names('filters[category][operator]=%3D&filters[category][value]=Meat')).toEqual(['A']);
    expect(await names('filters[category][operator]=like&filters[category][value]=meat')).toEqual(['A', 'C']);
    expect(await names(`filters[set_id][operator]=%3D&filters[set_id][value]=${set.id}`)).toEqual(['A']);
    expect(
      await names(
        `filters=${encodeURIComponent(JSON.stringify({ set_id: { operator: '=', value: set.id } }))}&page=1`,
      ),
    ).toEqual(['A']);
  });

  it('refuses filters off the whitelist, all at once (422 on filters.<field>)', async () => {
    const { client } = await setup();
    const res = await client.get(
      `${RECIPES}/?filters[organisation_id][operator]=%3D&filters[organisation_id][value]=1` +
        '&filters[set_id][operator]=like&filters[set_id][value]=1' +
        '&filters[device_type_id][operator]=%3D&filters[device_type_id][value]=x',
    );
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      'filters.organisation_id': [en('filter.field')],
      'filters.set_id': [en('filter.operator')],
      'filters.device_type_id': [en('filter.value')],
    });
  });
});

describe('POST /api/recipes/{id}/duplicate', () => {
  it('copies the steps as «<name> (copy)» at version 1, in no set', async () => {
    const { org, client, body, create, types } = await setup();
    const set = await buildRecipeSet(t.db, org.organisationId, { typeId: types.combi });
    const source = await create({ category: 'Meat', description: 'Crisp', set_ids: [set.id] });
    await client.put(
      `${RECIPES}/${source.id}`,
      body({ category: 'Meat', description: 'Crisp', steps: [step({ temperature: 200 })] }),
    );
    const res = await client.post(`${RECIPES}/${source.id}/duplicate`);
    expect(res.statusCode).toBe(201);
    const copy = res.json<{ data: Recipe }>().data;
    expect(copy).toMatchObject({
      name: 'Roast chicken (copy)',
      device_type_id: types.combi,
      category: 'Meat',
      description: 'Crisp',
      version: 1,
      set_ids: [],
      duration_seconds: 600,
    });
    expect(copy.id).not.toBe(source.id);
    expect(copy.steps).toEqual(
      (await client.get(`${RECIPES}/${source.id}`)).json<{ data: Recipe }>().data.steps,
    );
    const text =
      `{"format":"kontrol-program/1","recipe":${copy.id},"version":1,"type":"combi_oven","name":"Roast chicken (copy)","steps":1}\n` +
      '{"step":1,"mode":"convection","temperature":200,"humidity":null,"fan_speed":3,"duration_seconds":600,' +
      '"core_temperature":null,"prompt":null}\n';
    expect(copy.crc).toBe(crcOf(text));
    expect((await client.get(`${RECIPES}/${copy.id}`)).json()).toEqual({ data: copy });
  });

  it('names the copy in Russian for a Russian request, cut to fit the longest name', async () => {
    const { client, create } = await setup();
    const source = await create({ name: 'Щи' });
    const res = await client.post(`${RECIPES}/${source.id}/duplicate`, undefined, {
      'accept-language': 'ru',
    });
    expect(res.json<{ data: Recipe }>().data.name).toBe('Щи (копия)');
    const long = await create({ name: 'Ж'.repeat(120) });
    const copy = (
      await client.post(`${RECIPES}/${long.id}/duplicate`, undefined, { 'accept-language': 'ru' })
    ).json<{
      data: Recipe;
    }>().data;
    expect(copy.name).toBe(`${'Ж'.repeat(112)} (копия)`);
    expect(copy.name).toHaveLength(120);
  });
});

describe('POST /api/recipes/{id}/bind_to_sets', () => {
  it('replaces the sets: a new set gets the recipe at its end, a kept set keeps its place', async () => {
    const { org, client, create, types } = await setup();
    const [r1, r2, r3] = [
      await create({ name: 'R1' }),
      await create({ name: 'R2' }),
      await create({ name: 'R3' }),
    ];
    const a = await buildRecipeSet(t.db, org.organisationId, {
      typeId: types.combi,
      recipeIds: [r1.id, r2.id],
    });
    const b = await buildRecipeSet(t.db, org.organisationId, { typeId: types.combi });
    const c = await buildRecipeSet(t.db, org.organisationId, { typeId: types.combi, recipeIds: [r2.id] });
    const bind = async (recipeId: number, setIds: number[]) => {
      const res = await client.post(`${RECIPES}/${recipeId}/bind_to_sets`, { set_ids: setIds });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: Recipe }>().data;
    };

    expect((await bind(r3.id, [b.id, a.id])).set_ids).toEqual([a.id, b.id]);
    expect(await setRecipeIds(client, a.id)).toEqual([r1.id, r2.id, r3.id]);
    expect(await setRecipeIds(client, b.id)).toEqual([r3.id]);

    expect((await bind(r1.id, [a.id, c.id])).set_ids).toEqual([a.id, c.id]);
    expect(await setRecipeIds(client, a.id)).toEqual([r1.id, r2.id, r3.id]);
    expect(await setRecipeIds(client, c.id)).toEqual([r2.id, r1.id]);

    expect((await bind(r3.id, [b.id])).set_ids).toEqual([b.id]);
    expect(await setRecipeIds(client, a.id)).toEqual([r1.id, r2.id]);
    expect((await bind(r3.id, [])).set_ids).toEqual([]);
    expect(await setRecipeIds(client, b.id)).toEqual([]);
    expect((await client.get(`${RECIPES}/${r3.id}`)).json<{ data: Recipe }>().data.set_ids).toEqual([]);
  });

  it("refuses missing sets, another organisation's and another type's, and changes nothing", async () => {
    const { org, client, create, types } = await setup();
    const theirs = await buildOrganisation(t.db);
    const mine = await buildRecipeSet(t.db, org.organisationId, { typeId: types.combi });
    const theirSet = await buildRecipeSet(t.db, theirs.organisationId, { typeId: types.combi });
    const fryers = await buildRecipeSet(t.db, org.organisationId, { typeId: types.fryer });
    const recipe = await create({ set_ids: [mine.id] });
    for (const [setIds, message] of [
      [[mine.id, 999_999], en('field.exists')],
      [[theirSet.id], en('field.exists')],
      [[fryers.id], en('recipe.set_type')],
    ] as const) {
      const res = await client.post(`${RECIPES}/${recipe.id}/bind_to_sets`, { set_ids: setIds });
      expect(res.statusCode).toBe(422);
      expect(res.json<Errors>().errors).toEqual({ set_ids: [message] });
    }
    expect((await client.get(`${RECIPES}/${recipe.id}`)).json<{ data: Recipe }>().data.set_ids).toEqual([
      mine.id,
    ]);
    const bad = await client.post(`${RECIPES}/${recipe.id}/bind_to_sets`, { set_ids: 'x' });
    expect(bad.json<Errors>().errors).toEqual({ set_ids: [en('field.type')] });
  });
});

/** A device of the organisation holding the recipe (a bind row, as a deployment writes it). */
async function deployTo(organisationId: number, recipe: Recipe) {
  const device = await buildDevice(t.db, organisationId);
  const now = new Date().toISOString();
  await t.db
    .insertInto('device_recipe_binds')
    .values({
      organisation_id: organisationId,
      device_id: device.id,
      recipe_id: recipe.id,
      set_id: null,
      version: recipe.version,
      crc: recipe.crc,
      size: 100,
      state: 'installed',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return device;
}

describe('DELETE /api/recipes/{id}', () => {
  it('deletes a recipe (204, then 404) and takes it out of its sets', async () => {
    const { org, client, create, types } = await setup();
    const kept = await create({ name: 'Kept' });
    const recipe = await create();
    const set = await buildRecipeSet(t.db, org.organisationId, {
      typeId: types.combi,
      recipeIds: [recipe.id, kept.id],
    });
    const res = await client.delete(`${RECIPES}/${recipe.id}`);
    expect(res.statusCode).toBe(204);
    expect((await client.get(`${RECIPES}/${recipe.id}`)).statusCode).toBe(404);
    expect((await client.delete(`${RECIPES}/${recipe.id}`)).statusCode).toBe(404);
    expect(await setRecipeIds(client, set.id)).toEqual([kept.id]);
  });

  it('refuses while the recipe is on devices (422 on `recipe`) and keeps it', async () => {
    const { org, client, create } = await setup();
    const recipe = await create();
    await deployTo(org.organisationId, recipe);
    await deployTo(org.organisationId, recipe);
    const res = await client.delete(`${RECIPES}/${recipe.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>()).toEqual({
      message: en('validation.failed'),
      errors: { recipe: ['The recipe is installed on devices (2): remove it from them first.'] },
    });
    const ru = await client.delete(`${RECIPES}/${recipe.id}`, { 'accept-language': 'ru' });
    expect(ru.json<Errors>().errors).toEqual({
      recipe: ['Рецепт установлен на устройства (2): сначала удалите его с них.'],
    });
    expect((await client.get(`${RECIPES}/${recipe.id}`)).json()).toEqual({ data: recipe });
    await t.db.deleteFrom('device_recipe_binds').where('recipe_id', '=', recipe.id).execute();
    expect((await client.delete(`${RECIPES}/${recipe.id}`)).statusCode).toBe(204);
  });

  it('refuses a new device type while the recipe is on devices', async () => {
    const { org, client, body, create, types } = await setup();
    const recipe = await create();
    await deployTo(org.organisationId, recipe);
    const res = await client.put(`${RECIPES}/${recipe.id}`, body({ device_type_id: types.convection }));
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      device_type_id: ['The recipe is installed on devices (1): its type of equipment cannot change.'],
    });
    // Its steps may change: the deployment notices the new version.
    const hotter = await client.put(`${RECIPES}/${recipe.id}`, body({ steps: [step({ temperature: 200 })] }));
    expect(hotter.json<{ data: Recipe }>().data.version).toBe(2);
  });
});

describe('OpenAPI', () => {
  it('describes every recipes route at /api/docs/json', async () => {
    const spec = (await t.app.inject('/api/docs/json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const described = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/recipes'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
      .sort();
    // The deployment's routes (recipe-deploy) share the prefix.
    expect(described).toEqual(
      expect.arrayContaining([
        'delete /api/recipes/{id}',
        'delete /api/recipes_sets/{id}',
        'get /api/recipes/',
        'get /api/recipes/images/{file}',
        'get /api/recipes/{id}',
        'get /api/recipes_sets/',
        'get /api/recipes_sets/{id}',
        'post /api/recipes/',
        'post /api/recipes/image',
        'post /api/recipes/{id}/bind_to_sets',
        'post /api/recipes/{id}/duplicate',
        'post /api/recipes_sets/',
        'put /api/recipes/{id}',
        'put /api/recipes_sets/{id}',
      ]),
    );
  });
});

describe('organisation scoping and access', () => {
  it("answers 404 for another organisation's recipe on every {id} route, and changes nothing", async () => {
    const mine = await setup();
    const theirs = await setup();
    const recipe = await theirs.create();
    const mySet = await buildRecipeSet(t.db, mine.org.organisationId, { typeId: mine.types.combi });
    const url = `${RECIPES}/${recipe.id}`;
    for (const res of [
      await mine.client.get(url),
      await mine.client.put(url, mine.body({ name: 'Mine now' })),
      await mine.client.delete(url),
      await mine.client.post(`${url}/duplicate`),
      await mine.client.post(`${url}/bind_to_sets`, { set_ids: [mySet.id] }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: en('http.not_found') });
    }
    expect((await theirs.client.get(url)).json()).toEqual({ data: recipe });
    const all = (await mine.client.get(`${RECIPES}/`)).json<{ data: Recipe[] }>().data;
    expect(all).toEqual([]);
  });

  it('answers 404 for an id that is not a number', async () => {
    const { client } = await setup();
    expect((await client.get(`${RECIPES}/abc`)).statusCode).toBe(404);
    expect((await client.put(`${RECIPES}/1e3`, {})).statusCode).toBe(404);
  });

  it('answers 403 without the recipes module, 401 without a session, 419 without the CSRF token', async () => {
    const { org, create, body } = await setup();
    const recipe = await create();
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard', 'devices'] });
    const denied = new TestClient(t.app);
    await denied.login(user.email, user.password);
    const guest = await TestClient.visitor(t.app);
    const url = `${RECIPES}/${recipe.id}`;
    for (const [client, status] of [
      [denied, 403],
      [guest, 401],
    ] as const) {
      for (const res of [
        await client.get(`${RECIPES}/`),
        await client.post(`${RECIPES}/`, body()),
        await client.get(url),
        await client.put(url, body()),
        await client.delete(url),
        await client.post(`${url}/duplicate`),
        await client.post(`${url}/bind_to_sets`, { set_ids: [] }),
      ]) {
        expect(res.statusCode).toBe(status);
      }
    }
    const { client } = await setup();
    client.sendXsrf = false;
    expect((await client.post(`${RECIPES}/`, body())).statusCode).toBe(419);
  });
});
