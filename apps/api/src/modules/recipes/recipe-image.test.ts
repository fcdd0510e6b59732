import { ADDRESS_IMAGE_MAX_BYTES, translate, type MessageKey, type Recipe } from '@kontrol/contracts';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const uploadsDir = mkdtempSync(join(tmpdir(), 'kontrol-recipe-uploads-'));
const imagesDir = join(uploadsDir, 'recipes');
const t = useTestApp({ env: { UPLOADS_DIR: uploadsDir } });
afterAll(() => rmSync(uploadsDir, { recursive: true, force: true }));

const en = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);
type Errors = { message: string; errors: Record<string, string[]> };
interface Uploaded {
  image: string;
  url: string;
}

/**
 * A 1×1 grey baseline JPEG: one 8×8 block whose DC difference and AC coefficients are all zero,
 * coded with one-symbol Huffman tables (DC category 0 → `0`, end-of-block → `0`).
 */
function jpeg(): Buffer {
  const segment = (marker: number, data: number[]) => [0xff, marker, 0, data.length + 2, ...data];
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]), // quantisation table 0
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // baseline, 1×1, one component
    ...segment(0xc4, [0x00, 1, ...new Array<number>(15).fill(0), 0x00]), // DC table 0
    ...segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]), // AC table 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // start of scan
    0b0011_1111, // DC `0`, EOB `0`, padded with ones
    0xff,
    0xd9,
  ]);
}

/** A 1×1 RGB PNG: signature, IHDR, one deflated scanline, IEND, each chunk with its CRC-32. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])),
    chunk('IDAT', deflateSync(Buffer.from([0, 0xcc, 0x66, 0x33]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
function multipart(data: Buffer, filename: string, type: string) {
  const boundary = `----KontrolBoundary${Math.random().toString(16).slice(2)}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${filename}"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function upload(client: TestClient, data: Buffer, filename = 'photo.jpg', type = 'image/jpeg') {
  const { payload, headers } = multipart(data, filename, type);
  return client.post('/api/recipes/image', payload, headers);
}

async function organisation() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const combi = await t.db
    .selectFrom('device_types')
    .select('id')
    .where('slug', '=', 'combi_oven')
    .executeTakeFirstOrThrow();
  const recipeBody = (image: string | null, name = 'Pie') => ({
    name,
    device_type_id: combi.id,
    image,
    steps: [{ mode: 'convection', temperature: 180, duration_seconds: 600 }],
  });
  const uploaded = async (bytes = jpeg()) => {
    const res = await upload(client, bytes);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Uploaded }>().data;
  };
  return { ...org, client, recipeBody, uploaded };
}

const storedFiles = () => {
  try {
    return readdirSync(imagesDir);
  } catch {
    return [];
  }
};

describe('POST /api/recipes/image', () => {
  it.each([
    ['JPEG', jpeg, 'image/jpeg', 'jpg'],
    ['PNG', png, 'image/png', 'png'],
  ] as const)(
    'stores a %s under a new random name, as the organisation’s: 201',
    async (_label, build, type, ext) => {
      const { client, organisationId } = await organisation();
      const bytes = build();
      // The name and type the browser claims count for nothing.
      const res = await upload(client, bytes, '../../evil name.gif', 'image/gif');
      expect(res.statusCode).toBe(201);
      const { data } = res.json<{ data: Uploaded }>();
      expect(data.image).toMatch(new RegExp(`^[0-9a-f]{32}\\.${ext}$`));
      expect(data.url).toBe(`/api/recipes/images/${data.image}`);
      expect(readFileSync(join(imagesDir, data.image)).equals(bytes)).toBe(true);
      const row = await t.db
        .selectFrom('recipe_images')
        .select(['organisation_id', 'type'])
        .where('file', '=', data.image)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ organisation_id: organisationId, type });

      const served = await client.get(data.url);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers).toMatchObject({
        'content-type': type,
        'content-length': String(bytes.length),
        'content-disposition': `inline; filename="recipe-${data.image}"`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, max-age=86400',
      });
    },
  );

  it('refuses a text file renamed .jpg (422 on `image`) and stores nothing', async () => {
    const { client } = await organisation();
    const before = storedFiles();
    const res = await upload(client, Buffer.from('just some text\n'), 'notes.jpg');
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>()).toEqual({
      message: en('validation.failed'),
      errors: { image: ['Upload a JPEG, PNG or WebP image.'] },
    });
    expect(storedFiles()).toEqual(before);
  });

  it('refuses one byte more than ADDRESS_IMAGE_MAX_BYTES (422 on `image`) and stores nothing', async () => {
    const { client } = await organisation();
    const before = storedFiles();
    const tooLarge = Buffer.alloc(ADDRESS_IMAGE_MAX_BYTES + 1);
    jpeg().copy(tooLarge);
    const res = await upload(client, tooLarge);
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ image: ['The image is larger than 5 MB.'] });
    expect(storedFiles()).toEqual(before);
  });

  it('answers 422 image.missing without a file', async () => {
    const { client } = await organisation();
    const empty = await upload(client, Buffer.alloc(0));
    expect([empty.statusCode, empty.json<Errors>().errors]).toEqual([422, { image: [en('image.missing')] }]);
    const json = await client.post('/api/recipes/image', { image: 'x' });
    expect([json.statusCode, json.json<Errors>().errors]).toEqual([422, { image: [en('image.missing')] }]);
  });
});

describe('recipe images in recipes', () => {
  it('gives a recipe the uploaded image and its URL', async () => {
    const { client, recipeBody, uploaded } = await organisation();
    const image = await uploaded();
    const res = await client.post('/api/recipes/', recipeBody(image.image));
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: Recipe }>().data).toMatchObject({ image: image.image, image_url: image.url });
  });

  it('deletes the image file with the last recipe that uses it', async () => {
    const { client, recipeBody, uploaded } = await organisation();
    const image = await uploaded();
    const recipe = (await client.post('/api/recipes/', recipeBody(image.image))).json<{ data: Recipe }>()
      .data;
    const copy = (await client.post(`/api/recipes/${recipe.id}/duplicate`)).json<{ data: Recipe }>().data;
    expect(copy.image).toBe(image.image);

    expect((await client.delete(`/api/recipes/${recipe.id}`)).statusCode).toBe(204);
    expect(storedFiles()).toContain(image.image);
    expect((await client.get(image.url)).statusCode).toBe(200);

    expect((await client.delete(`/api/recipes/${copy.id}`)).statusCode).toBe(204);
    expect(storedFiles()).not.toContain(image.image);
    expect((await client.get(image.url)).statusCode).toBe(404);
    const rows = await t.db
      .selectFrom('recipe_images')
      .select('file')
      .where('file', '=', image.image)
      .execute();
    expect(rows).toEqual([]);
  });

  it('deletes the previous image when a recipe is given another and nothing else uses it', async () => {
    const { client, recipeBody, uploaded } = await organisation();
    const first = await uploaded();
    const second = await uploaded(png());
    const recipe = (await client.post('/api/recipes/', recipeBody(first.image))).json<{ data: Recipe }>()
      .data;
    const res = await client.put(`/api/recipes/${recipe.id}`, recipeBody(second.image));
    expect(res.json<{ data: Recipe }>().data).toMatchObject({ image: second.image, version: 1 });
    expect(storedFiles()).not.toContain(first.image);
    expect(storedFiles()).toContain(second.image);
    const cleared = await client.put(`/api/recipes/${recipe.id}`, recipeBody(null));
    expect(cleared.json<{ data: Recipe }>().data).toMatchObject({ image: null, image_url: null });
    expect(storedFiles()).not.toContain(second.image);
  });
});

describe('recipe images: organisations, modules and sessions', () => {
  it("answers 404 for another organisation's image and refuses it in a recipe", async () => {
    const mine = await organisation();
    const theirs = await organisation();
    const their = await theirs.uploaded();
    const get = await mine.client.get(their.url);
    expect([get.statusCode, get.json()]).toEqual([404, { message: en('http.not_found') }]);
    const res = await mine.client.post('/api/recipes/', mine.recipeBody(their.image));
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ image: [en('recipe.image')] });
    expect((await theirs.client.get(their.url)).statusCode).toBe(200);
  });

  it('answers 404 for names that are not an image of the store', async () => {
    const { client, uploaded } = await organisation();
    const image = await uploaded();
    for (const name of [
      'abc.jpg',
      image.image.replace('.jpg', '.png'),
      `${image.image}x`,
      '..%2F..%2Fpackage.json',
    ]) {
      const res = await client.get(`/api/recipes/images/${name}`);
      expect(res.statusCode, name).toBe(404);
    }
  });

  it('answers 403 without the recipes module, 401 without a session, 419 without the CSRF token', async () => {
    const { client, organisationId, uploaded } = await organisation();
    const image = await uploaded();
    const user = await buildUser(t.db, organisationId, { modules: ['addresses'] });
    const denied = new TestClient(t.app);
    await denied.login(user.email, user.password);
    for (const res of [await upload(denied, jpeg()), await denied.get(image.url)]) {
      expect([res.statusCode, res.json()]).toEqual([403, { message: en('http.forbidden') }]);
    }
    const visitor = await TestClient.visitor(t.app);
    for (const res of [await upload(visitor, jpeg()), await visitor.get(image.url)]) {
      expect(res.statusCode).toBe(401);
    }
    const before = storedFiles();
    client.sendXsrf = false;
    expect((await upload(client, jpeg())).statusCode).toBe(419);
    expect(storedFiles()).toEqual(before);
  });
});
