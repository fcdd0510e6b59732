import {
  ADDRESS_IMAGE_MAX_BYTES,
  translate,
  type Complaint,
  type ComplaintEvent,
  type ComplaintPhoto,
  type MessageKey,
} from '@kontrol/contracts';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const uploadsDir = mkdtempSync(join(tmpdir(), 'kontrol-complaint-uploads-'));
const photosDir = join(uploadsDir, 'complaints');
const t = useTestApp({ env: { UPLOADS_DIR: uploadsDir } });
afterAll(() => rmSync(uploadsDir, { recursive: true, force: true }));

const en = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);
type Errors = { message: string; errors: Record<string, string[]> };

/**
 * A 1×1 grey baseline JPEG (the server reads its type from the first bytes and its size from the
 * frame header): one 8×8 block whose coefficients are all zero, with one-symbol Huffman tables.
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
  return client.post('/api/alerts/photo', payload, headers);
}

async function setup() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const device = await buildDevice(t.db, org.organisationId);
  const uploaded = async (bytes = jpeg()) => {
    const res = await upload(client, bytes);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: ComplaintPhoto }>().data;
  };
  return { ...org, client, device, uploaded };
}

const storedFiles = () => {
  try {
    return readdirSync(photosDir);
  } catch {
    return [];
  }
};

describe('POST /api/alerts/photo and GET /api/alerts/photo/{file}', () => {
  it.each([
    ['JPEG', jpeg, 'image/jpeg', 'jpg'],
    ['WebP', webp, 'image/webp', 'webp'],
  ] as const)(
    'stores a %s under a new random name, as the organisation’s: 201',
    async (_label, build, type, ext) => {
      const { client, organisationId } = await setup();
      const bytes = build();
      // The name and type the browser claims count for nothing.
      const res = await upload(client, bytes, '../../evil name.gif', 'image/gif');
      expect(res.statusCode).toBe(201);
      const { data } = res.json<{ data: ComplaintPhoto }>();
      expect(data.photo).toMatch(new RegExp(`^[0-9a-f]{32}\\.${ext}$`));
      expect(data.url).toBe(`/api/alerts/photo/${data.photo}`);
      expect(readFileSync(join(photosDir, data.photo)).equals(bytes)).toBe(true);
      const row = await t.db
        .selectFrom('complaint_photos')
        .select(['organisation_id', 'type'])
        .where('file', '=', data.photo)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ organisation_id: organisationId, type });

      const served = await client.get(data.url);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers).toMatchObject({
        'content-type': type,
        'content-length': String(bytes.length),
        'content-disposition': `inline; filename="complaint-${data.photo}"`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      });
    },
  );

  it('refuses a text file renamed .jpg, one byte too many and no file (422 on `image`), storing nothing', async () => {
    const { client } = await setup();
    const before = storedFiles().length;
    const text = await upload(client, Buffer.from('<svg onload="alert(1)"/>'), 'x.jpg', 'image/jpeg');
    expect(text.statusCode).toBe(422);
    expect(text.json<Errors>().errors).toEqual({ image: [en('image.type')] });
    const big = Buffer.concat([jpeg(), Buffer.alloc(ADDRESS_IMAGE_MAX_BYTES + 1 - jpeg().length)]);
    const large = await upload(client, big);
    expect(large.statusCode).toBe(422);
    expect(large.json<Errors>().errors).toEqual({ image: [en('image.too_large', { max: 5 })] });
    const none = await client.post('/api/alerts/photo', {});
    expect(none.statusCode).toBe(422);
    expect(none.json<Errors>().errors).toEqual({ image: [en('image.missing')] });
    expect(storedFiles()).toHaveLength(before);
  });

  it("answers 404 for another organisation's photo and for names that are not a photo of the store", async () => {
    const { uploaded } = await setup();
    const photo = await uploaded();
    const other = await setup();
    expect((await other.client.get(photo.url)).statusCode).toBe(404);
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'abc.jpg', `${photo.photo.slice(0, -3)}gif`]) {
      expect((await other.client.get(`/api/alerts/photo/${name}`)).statusCode).toBe(404);
    }
  });

  it('answers 403 without the requests module and 401 without a session', async () => {
    const { organisationId, uploaded } = await setup();
    const photo = await uploaded();
    const user = await buildUser(t.db, organisationId, { modules: ['recipes'] });
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    expect((await upload(client, jpeg())).statusCode).toBe(403);
    expect((await client.get(photo.url)).statusCode).toBe(403);
    expect((await new TestClient(t.app).get(photo.url)).statusCode).toBe(401);
  });
});

describe('photos in complaints and comments', () => {
  it('attaches uploaded photos to a complaint and to a comment, duplicates dropped', async () => {
    const { client, device, uploaded } = await setup();
    const [a, b] = [await uploaded(), await uploaded(webp())];
    const res = await client.post('/api/alerts/', {
      title: 'Broken glass',
      device_id: device.id,
      photos: [a?.photo, b?.photo, a?.photo],
    });
    expect(res.statusCode, res.body).toBe(201);
    const complaint = res.json<{ data: Complaint }>().data;
    expect(complaint.photos).toEqual([a, b]);
    const comment = await client.post(`/api/alerts/${complaint.id}/events`, { photos: [b?.photo] });
    expect(comment.statusCode).toBe(201);
    expect(comment.json<{ data: ComplaintEvent[] }>().data).toEqual([
      expect.objectContaining({ kind: 'comment', text: null, photos: [b] }),
    ]);
    const shown = (await client.get(`/api/alerts/${complaint.id}`)).json<{ data: Complaint }>().data;
    expect(shown).toMatchObject({ photos: [a, b], comments_count: 1 });
  });

  it("refuses another organisation's photo in a complaint and in a comment (422 on photos)", async () => {
    const { uploaded } = await setup();
    const theirs = await uploaded();
    const { client, device } = await setup();
    const res = await client.post('/api/alerts/', {
      title: 'A',
      device_id: device.id,
      photos: [theirs.photo],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ photos: [en('complaint.photo')] });
    const own = await client.post('/api/alerts/', { title: 'A', device_id: device.id });
    const id = own.json<{ data: Complaint }>().data.id;
    const comment = await client.post(`/api/alerts/${id}/events`, { text: 'x', photos: [theirs.photo] });
    expect(comment.statusCode).toBe(422);
    expect(comment.json<Errors>().errors).toEqual({ photos: [en('complaint.photo')] });
    const bad = await client.post(`/api/alerts/${id}/events`, { photos: ['../x.jpg'] });
    expect(bad.statusCode).toBe(422);
  });
});
