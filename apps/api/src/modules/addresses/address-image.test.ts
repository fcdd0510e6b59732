import {
  ADDRESS_IMAGE_MAX_BYTES,
  DEFAULT_WORK_TIME,
  translate,
  type Address,
  type MessageKey,
} from '@kontrol/contracts';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { sniffImageType } from './address-image.js';

const uploadsDir = mkdtempSync(join(tmpdir(), 'kontrol-uploads-'));
const imagesDir = join(uploadsDir, 'addresses');
const t = useTestApp({ env: { UPLOADS_DIR: uploadsDir } });
afterAll(() => rmSync(uploadsDir, { recursive: true, force: true }));

const en = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);
type Errors = { message: string; errors: Record<string, string[]> };

// Tiny but real images, built byte by byte.

/** A 1×1 RGB PNG: signature, IHDR, one deflated scanline, IEND, each chunk with its CRC-32. */
function png(rgb: [number, number, number] = [0x33, 0x66, 0xcc]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]); // 1×1, 8 bits, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, ...rgb]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A 1×1 grey baseline JPEG: one 8×8 block whose DC difference and AC coefficients are all zero,
 * coded with one-symbol Huffman tables (DC category 0 → `0`, end-of-block → `0`).
 */
function jpeg(): Buffer {
  const segment = (marker: number, data: number[]) => [0xff, marker, 0, data.length + 2, ...data];
  const startOfImage = [0xff, 0xd8];
  const endOfImage = [0xff, 0xd9];
  return Buffer.from([
    ...startOfImage,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]), // quantisation table 0
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // baseline, 1×1, one component
    ...segment(0xc4, [0x00, 1, ...new Array<number>(15).fill(0), 0x00]), // DC table 0
    ...segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]), // AC table 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // start of scan
    0b0011_1111, // DC `0`, EOB `0`, padded with ones
    ...endOfImage,
  ]);
}

/** A 1×1 lossless WebP: `RIFF`, size, `WEBP`, and one VP8L chunk. */
function webp(): Buffer {
  const vp8l = Buffer.from([0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07]);
  const chunk = Buffer.concat([
    Buffer.from('VP8L'),
    Buffer.from([vp8l.length, 0, 0, 0]),
    vp8l,
    Buffer.from([0]),
  ]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP'), chunk]);
}

interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

/** A multipart/form-data body as a browser's FormData sends it. */
function multipart(parts: Part[]) {
  const boundary = `----KontrolBoundary${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`,
      ),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const imagePart = (data: Buffer, filename = 'photo.png', type = 'image/png'): Part => ({
  name: 'image',
  filename,
  type,
  data,
});

async function upload(client: TestClient, addressId: number, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return client.post(`/api/addresses/${addressId}/image`, payload, headers);
}

async function organisation() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  return { ...org, client };
}

async function createAddress(client: TestClient) {
  const res = await client.post('/api/addresses/', {
    name: `Cafe ${Math.random().toString(16).slice(2, 8)}`,
    full_address: 'Moscow, Tverskaya 1',
    city: 'Moscow',
    time_zone: 'Europe/Moscow',
    work_time: DEFAULT_WORK_TIME,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: Address }>().data;
}

async function storedFileOf(addressId: number) {
  const row = await t.db
    .selectFrom('addresses')
    .select(['image_file', 'image_type', 'image_updated_at'])
    .where('id', '=', addressId)
    .executeTakeFirstOrThrow();
  return row;
}

const storedFiles = () => {
  try {
    return readdirSync(imagesDir);
  } catch {
    return [];
  }
};

describe('the test images', () => {
  it('are what their first bytes say', () => {
    expect(sniffImageType(png())).toBe('image/png');
    expect(sniffImageType(jpeg())).toBe('image/jpeg');
    expect(sniffImageType(webp())).toBe('image/webp');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeUndefined();
  });
});

describe('POST /api/addresses/{id}/image', () => {
  it.each([
    ['JPEG', jpeg, 'image/jpeg', 'jpg'],
    ['PNG', png, 'image/png', 'png'],
    ['WebP', webp, 'image/webp', 'webp'],
  ] as const)(
    'accepts a %s, stores it under a random name and serves it back',
    async (_label, build, type, ext) => {
      const { client } = await organisation();
      const address = await createAddress(client);
      const bytes = build();
      // The name and type the browser claims count for nothing.
      const res = await upload(client, address.id, [imagePart(bytes, 'holiday photo.gif', 'image/gif')]);
      expect(res.statusCode).toBe(200);
      const { data } = res.json<{ data: Address }>();
      const stored = await storedFileOf(address.id);
      expect(stored.image_type).toBe(type);
      expect(stored.image_file).toMatch(new RegExp(`^[0-9a-f]{32}\\.${ext}$`));
      expect(data.image_url).toBe(
        `/api/addresses/${address.id}/image?v=${Date.parse(stored.image_updated_at ?? '')}`,
      );
      expect(data).toMatchObject({ id: address.id, name: address.name, rooms_count: 0 });
      expect(readFileSync(join(imagesDir, stored.image_file ?? '')).equals(bytes)).toBe(true);

      const served = await client.get(data.image_url ?? '');
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers).toMatchObject({
        'content-type': type,
        'content-length': String(bytes.length),
        'content-disposition': `inline; filename="address-${address.id}.${ext}"`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, max-age=86400',
      });
      expect(
        (await client.get(`/api/addresses/${address.id}`)).json<{ data: Address }>().data.image_url,
      ).toBe(data.image_url);
      const head = await client.request({ method: 'HEAD', url: data.image_url ?? '' });
      expect([head.statusCode, head.headers['content-type'], head.body]).toEqual([200, type, '']);
    },
  );

  it('takes the first file part whatever its field name, after any plain fields', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const res = await upload(client, address.id, [
      { name: 'note', data: 'front door' },
      { name: 'file', filename: 'a.png', type: 'image/png', data: png() },
      { name: 'second', filename: 'b.txt', type: 'text/plain', data: 'ignored' },
    ]);
    expect(res.statusCode).toBe(200);
    expect((await storedFileOf(address.id)).image_type).toBe('image/png');
  });

  it('refuses a text file renamed .png (422 on `image`) and stores nothing', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const before = storedFiles();
    const res = await upload(client, address.id, [imagePart(Buffer.from('just some text\n'), 'notes.png')]);
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>()).toEqual({
      message: en('validation.failed'),
      errors: { image: [en('image.type')] },
    });
    expect(storedFiles()).toEqual(before);
    expect((await storedFileOf(address.id)).image_file).toBeNull();
  });

  it('refuses an SVG, whose script a browser would run', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const res = await upload(client, address.id, [imagePart(Buffer.from(svg), 'logo.svg', 'image/svg+xml')]);
    expect(res.json<Errors>().errors).toEqual({ image: [en('image.type')] });
  });

  it('accepts exactly ADDRESS_IMAGE_MAX_BYTES and refuses one byte more (422 on `image`)', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const largest = Buffer.alloc(ADDRESS_IMAGE_MAX_BYTES);
    png().copy(largest);
    expect((await upload(client, address.id, [imagePart(largest)])).statusCode).toBe(200);
    const kept = await storedFileOf(address.id);

    const tooLarge = Buffer.alloc(ADDRESS_IMAGE_MAX_BYTES + 1);
    png().copy(tooLarge);
    const res = await upload(client, address.id, [imagePart(tooLarge)]);
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      image: [en('image.too_large', { max: ADDRESS_IMAGE_MAX_BYTES / (1024 * 1024) })],
    });
    expect(res.json<Errors>().errors.image).toEqual(['The image is larger than 5 MB.']);
    expect(await storedFileOf(address.id)).toEqual(kept);
    expect(storedFiles()).toContain(kept.image_file);
  });

  it('answers 422 image.missing without a file: no file part, an empty file, or no multipart at all', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const missing = { image: [en('image.missing')] };
    const onlyFields = await upload(client, address.id, [{ name: 'image', data: 'not a file' }]);
    expect([onlyFields.statusCode, onlyFields.json<Errors>().errors]).toEqual([422, missing]);
    const empty = await upload(client, address.id, [imagePart(Buffer.alloc(0))]);
    expect([empty.statusCode, empty.json<Errors>().errors]).toEqual([422, missing]);
    const json = await client.post(`/api/addresses/${address.id}/image`, { image: 'x' });
    expect([json.statusCode, json.json<Errors>().errors]).toEqual([422, missing]);
  });

  it('answers 400 to a multipart body cut short', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const { payload, headers } = multipart([imagePart(png())]);
    const res = await client.post(`/api/addresses/${address.id}/image`, payload.subarray(0, 60), headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: en('http.bad_request') });
  });

  it('replaces the image: the new file is served and the old one is deleted', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    await upload(client, address.id, [imagePart(png())]);
    const first = await storedFileOf(address.id);
    expect(storedFiles()).toContain(first.image_file);

    const res = await upload(client, address.id, [imagePart(jpeg(), 'new.jpg', 'image/jpeg')]);
    expect(res.statusCode).toBe(200);
    const second = await storedFileOf(address.id);
    expect(second.image_file).not.toBe(first.image_file);
    expect(storedFiles()).toContain(second.image_file);
    expect(storedFiles()).not.toContain(first.image_file);
    const served = await client.get(`/api/addresses/${address.id}/image`);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.equals(jpeg())).toBe(true);
  });
});

describe('GET and DELETE /api/addresses/{id}/image, and deleting the address', () => {
  it('answers 404 while there is no image', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const res = await client.get(`/api/addresses/${address.id}/image`);
    expect([res.statusCode, res.json()]).toEqual([404, { message: en('http.not_found') }]);
  });

  it('removes the image (204), its file too, and answers 204 again when there is none', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    await upload(client, address.id, [imagePart(webp(), 'a.webp', 'image/webp')]);
    const { image_file: file } = await storedFileOf(address.id);

    const res = await client.delete(`/api/addresses/${address.id}/image`);
    expect(res.statusCode).toBe(204);
    expect(await storedFileOf(address.id)).toEqual({
      image_file: null,
      image_type: null,
      image_updated_at: null,
    });
    expect(storedFiles()).not.toContain(file);
    expect(
      (await client.get(`/api/addresses/${address.id}`)).json<{ data: Address }>().data.image_url,
    ).toBeNull();
    expect((await client.get(`/api/addresses/${address.id}/image`)).statusCode).toBe(404);
    expect((await client.delete(`/api/addresses/${address.id}/image`)).statusCode).toBe(204);
  });

  it('deletes the image file with the address', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    await upload(client, address.id, [imagePart(png())]);
    const { image_file: file } = await storedFileOf(address.id);
    expect(storedFiles()).toContain(file);
    expect((await client.delete(`/api/addresses/${address.id}`)).statusCode).toBe(204);
    expect(storedFiles()).not.toContain(file);
  });
});

describe('address image: organisations, modules and sessions', () => {
  it("answers 404 for another organisation's address on upload, download and delete, and leaves its image alone", async () => {
    const mine = await organisation();
    const theirs = await organisation();
    const their = await createAddress(theirs.client);
    await upload(theirs.client, their.id, [imagePart(png())]);
    const before = await storedFileOf(their.id);
    const notFound = { message: en('http.not_found') };

    const post = await upload(mine.client, their.id, [imagePart(jpeg(), 'x.jpg', 'image/jpeg')]);
    expect([post.statusCode, post.json()]).toEqual([404, notFound]);
    // A 404 even for an upload that would be refused on its own.
    const text = await upload(mine.client, their.id, [imagePart(Buffer.from('text'))]);
    expect(text.statusCode).toBe(404);
    const get = await mine.client.get(`/api/addresses/${their.id}/image`);
    expect([get.statusCode, get.json()]).toEqual([404, notFound]);
    const del = await mine.client.delete(`/api/addresses/${their.id}/image`);
    expect([del.statusCode, del.json()]).toEqual([404, notFound]);

    expect(await storedFileOf(their.id)).toEqual(before);
    expect(storedFiles()).toContain(before.image_file);
    expect((await theirs.client.get(`/api/addresses/${their.id}/image`)).statusCode).toBe(200);
  });

  it('answers 403 without the addresses module, 401 without a session, 419 without the CSRF token', async () => {
    const { client, organisationId } = await organisation();
    const address = await createAddress(client);
    await upload(client, address.id, [imagePart(png())]);
    const user = await buildUser(t.db, organisationId, { modules: ['dashboard'] });
    const denied = new TestClient(t.app);
    await denied.login(user.email, user.password);
    const forbidden = { message: en('http.forbidden') };
    for (const res of [
      await upload(denied, address.id, [imagePart(png())]),
      await denied.get(`/api/addresses/${address.id}/image`),
      await denied.delete(`/api/addresses/${address.id}/image`),
    ]) {
      expect([res.statusCode, res.json()]).toEqual([403, forbidden]);
    }

    const visitor = await TestClient.visitor(t.app);
    const unauthenticated = { message: en('http.unauthenticated') };
    for (const res of [
      await upload(visitor, address.id, [imagePart(png())]),
      await visitor.get(`/api/addresses/${address.id}/image`),
      await visitor.delete(`/api/addresses/${address.id}/image`),
    ]) {
      expect([res.statusCode, res.json()]).toEqual([401, unauthenticated]);
    }

    client.sendXsrf = false;
    expect((await upload(client, address.id, [imagePart(jpeg())])).statusCode).toBe(419);
    expect((await storedFileOf(address.id)).image_type).toBe('image/png');
  });
});
