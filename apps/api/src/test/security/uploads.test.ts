import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import {
  ADDRESS_IMAGE_MAX_BYTES,
  IMAGE_MAX_PIXELS,
  IMAGE_MAX_SIDE_PX,
  translate,
  type AddressImageType,
  type MessageKey,
} from '@kontrol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_FILE_NAME, imageSize } from '../../lib/image-files.js';
import { buildAddress } from '../builders.js';
import { buildOrg, type Org } from './fixtures.js';
import { isErrorShape, send, type Answer, type Session } from './http.js';
import { useAppWithRoutes } from './route-table.js';

/**
 * docs/security.md "Uploads": every upload route, from one table, against hostile files sent as
 * a browser sends them (HTTP multipart on the real app): polyglots, SVG with script (also sent as
 * `image/png` named `.png`), files over the size limit, "decompression bombs" (a tiny file
 * declaring an enormous picture) and hostile file names. Each is refused (422 on `image`, nothing
 * stored) or neutralised (stored under a name the server chose, with the extension of the type
 * found in its bytes, and served back with that type, `nosniff`, a sandboxing CSP and a
 * `Content-Disposition` naming no part of the client's file name).
 */

// UPLOADS_DIR two levels below a folder of the test's own: a name that climbs out of the uploads
// folder would leave a file in `root`, where the test looks for it.
const root = mkdtempSync(join(tmpdir(), 'kontrol-security-uploads-'));
const uploadsDir = join(root, 'a', 'b', 'uploads');
mkdirSync(uploadsDir, { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ctx = useAppWithRoutes({ UPLOADS_DIR: uploadsDir });

// ---------------------------------------------------------------------------------------------
// The upload routes: a new one is added here, and the first test fails until it is.

interface UploadRoute {
  /** As the route table names it. */
  key: string;
  /** Where its files are kept, under UPLOADS_DIR. */
  folder: string;
  /** Served files are named `<prefix>…` in their Content-Disposition. */
  prefix: string;
  /** A URL to upload to, with whatever rows of `org` it needs. */
  target(org: Org): Promise<string>;
  /** After a successful upload: the URL that serves the file back and the name it is stored under. */
  stored(answer: Answer, target: string, org: Org): Promise<{ url: string; file: string }>;
}

const dataOf = (answer: Answer) => (JSON.parse(answer.body) as { data: Record<string, unknown> }).data;

const UPLOAD_ROUTES: readonly UploadRoute[] = [
  {
    key: 'POST /api/addresses/:id/image',
    folder: 'addresses',
    prefix: 'address-',
    async target(org) {
      const { id } = await buildAddress(ctx.db, org.id);
      return `/api/addresses/${id}/image`;
    },
    async stored(answer, target, org) {
      const id = Number(/\/api\/addresses\/(\d+)\/image/.exec(target)?.[1]);
      expect(dataOf(answer).image_url).toMatch(new RegExp(`^/api/addresses/${id}/image\\?v=\\d+$`));
      const row = await ctx.db
        .selectFrom('addresses')
        .select('image_file')
        .where('id', '=', id)
        .where('organisation_id', '=', org.id)
        .executeTakeFirstOrThrow();
      return { url: target, file: row.image_file ?? '' };
    },
  },
  {
    key: 'POST /api/recipes/image',
    folder: 'recipes',
    prefix: 'recipe-',
    target: async () => '/api/recipes/image',
    stored: async (answer) => {
      const data = dataOf(answer) as { image: string; url: string };
      return { url: data.url, file: data.image };
    },
  },
  {
    key: 'POST /api/alerts/photo',
    folder: 'complaints',
    prefix: 'complaint-',
    target: async () => '/api/alerts/photo',
    stored: async (answer) => {
      const data = dataOf(answer) as { photo: string; url: string };
      return { url: data.url, file: data.photo };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Images, real and hostile, built byte by byte.

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG of `width` × `height`: 1-bit grey, all black, so even 10 000 × 4 000 deflates to a few
 * kilobytes. With `declareOnly`, the IHDR says the size and one empty IDAT follows: what a
 * "decompression bomb" sends (a decoder would allocate width × height before finding out).
 */
function png(width = 1, height = 1, declareOnly = false): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const row = Buffer.alloc(1 + Math.ceil(width / 8)); // filter byte 0, then the pixels
  const pixels = declareOnly ? Buffer.alloc(0) : deflateSync(Buffer.concat(Array(height).fill(row)));
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const segment = (marker: number, data: number[]) => [
  0xff,
  marker,
  (data.length + 2) >> 8,
  (data.length + 2) & 0xff,
  ...data,
];

/**
 * A baseline grey JPEG whose frame header says `width` × `height`. At 1 × 1 it is a real image
 * (one 8 × 8 block, all coefficients zero); larger, only its header is (nothing decodes it here).
 */
function jpeg(width = 1, height = 1): Buffer {
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]), // quantisation table 0
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, 1, ...new Array<number>(15).fill(0), 0x00]), // DC table 0
    ...segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]), // AC table 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // start of scan
    0b0011_1111,
    0xff,
    0xd9,
  ]);
}

function riff(chunkType: string, data: Buffer): Buffer {
  const chunkSize = Buffer.alloc(4);
  chunkSize.writeUInt32LE(data.length);
  const chunk = Buffer.concat([Buffer.from(chunkType), chunkSize, data, Buffer.alloc(data.length % 2)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP'), chunk]);
}

/** A lossless WebP (VP8L) whose header says `width` × `height` (at most 16 384 a side). */
function webpLossless(width = 1, height = 1): Buffer {
  const bits = Buffer.alloc(4);
  bits.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14) | (1 << 28));
  return riff(
    'VP8L',
    Buffer.concat([Buffer.from([0x2f]), bits, Buffer.from([0x11, 0x88, 0x88, 0xfe, 0x07])]),
  );
}

/** An extended WebP (VP8X) whose canvas is `width` × `height` (up to 2^24 a side). */
function webpExtended(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', data);
}

/** A ZIP holding one stored file: what a JPEG/PNG-and-ZIP polyglot carries at its end. */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const fileName = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + data.length, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

const HTML =
  '<html><body><script>fetch("/api/users/auth").then(r=>r.text()).then(alert)</script></body></html>';
const PHP = '<?php system($_GET["c"]); ?>';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1" onload="alert(document.cookie)">' +
  '<script>alert(document.domain)</script></svg>';

// ---------------------------------------------------------------------------------------------
// What is sent, and what must come of it.

type Outcome =
  | { refused: MessageKey; params?: Record<string, number> }
  | { stored: AddressImageType; extension: 'jpg' | 'png' | 'webp' };

interface Case {
  name: string;
  bytes: () => Buffer;
  /** The file name and type the "browser" claims; defaults `photo.png`, `image/png`. */
  filename?: string;
  type?: string;
  /** The multipart header's `filename*=` (RFC 5987) instead of `filename=`. */
  filenameStar?: string;
  outcome: Outcome;
}

const refused = (key: MessageKey, params?: Record<string, number>): Outcome => ({ refused: key, params });
const storedAs = (type: AddressImageType): Outcome => ({
  stored: type,
  extension: type === 'image/jpeg' ? 'jpg' : type === 'image/png' ? 'png' : 'webp',
});
const DIMENSIONS = { side: IMAGE_MAX_SIDE_PX, megapixels: IMAGE_MAX_PIXELS / 1_000_000 };

const CASES: readonly Case[] = [
  // Polyglots. Only a signature, then a payload: the header is no image's, refused.
  {
    name: 'the JPEG signature, then HTML',
    bytes: () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(HTML)]),
    filename: 'x.html',
    type: 'text/html',
    outcome: refused('image.type'),
  },
  {
    name: 'the PNG signature, then PHP',
    bytes: () => Buffer.concat([PNG_SIGNATURE, Buffer.from(PHP)]),
    filename: 'shell.php.png',
    outcome: refused('image.type'),
  },
  {
    name: 'RIFF/WEBP, then JavaScript',
    bytes: () => Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00WEBP'), Buffer.from('alert(1)//')]),
    filename: 'x.webp',
    type: 'image/webp',
    outcome: refused('image.type'),
  },
  // A whole image with a payload after it: stored as the image it is, served as that image.
  {
    name: 'a real JPEG followed by an HTML page',
    bytes: () => Buffer.concat([jpeg(), Buffer.from(HTML)]),
    filename: 'page.html',
    type: 'text/html',
    outcome: storedAs('image/jpeg'),
  },
  {
    name: 'a real PNG followed by a ZIP holding a PHP script',
    bytes: () => Buffer.concat([png(), zipOf('shell.php', PHP)]),
    filename: 'shell.php',
    type: 'application/x-php',
    outcome: storedAs('image/png'),
  },
  {
    name: 'a real WebP followed by JavaScript',
    bytes: () => Buffer.concat([webpLossless(), Buffer.from(`\n${HTML}`)]),
    filename: 'x.js',
    type: 'application/javascript',
    outcome: storedAs('image/webp'),
  },
  {
    name: 'a GIF/JavaScript polyglot (GIF89a=…)',
    bytes: () =>
      Buffer.concat([
        Buffer.from('GIF89a/*'),
        Buffer.from([0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0x00, 0x2c]),
        Buffer.from('*/=alert(document.domain);//'),
      ]),
    filename: 'x.gif',
    type: 'image/gif',
    outcome: refused('image.type'),
  },
  {
    name: 'a PDF',
    bytes: () =>
      Buffer.from('%PDF-1.7\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>'),
    filename: 'x.pdf',
    type: 'application/pdf',
    outcome: refused('image.type'),
  },
  {
    name: 'a PDF named .jpg, sent as image/jpeg',
    bytes: () => Buffer.from('%PDF-1.7\n%âãÏÓ\n'),
    filename: 'invoice.jpg',
    type: 'image/jpeg',
    outcome: refused('image.type'),
  },
  {
    name: 'an HTML page named .jpg, sent as image/jpeg',
    bytes: () => Buffer.from(HTML),
    filename: 'x.jpg',
    type: 'image/jpeg',
    outcome: refused('image.type'),
  },
  // SVG: never accepted, whatever it is called.
  {
    name: 'an SVG with a script, as image/svg+xml',
    bytes: () => Buffer.from(SVG),
    filename: 'x.svg',
    type: 'image/svg+xml',
    outcome: refused('image.type'),
  },
  {
    name: 'an SVG with a script, named .png and sent as image/png',
    bytes: () => Buffer.from(SVG),
    filename: 'logo.png',
    type: 'image/png',
    outcome: refused('image.type'),
  },
  {
    name: 'an SVG with an XML declaration and a byte order mark, as image/jpeg',
    bytes: () => Buffer.from(`\uFEFF<?xml version="1.0"?>\n${SVG}`),
    filename: 'x.jpg',
    type: 'image/jpeg',
    outcome: refused('image.type'),
  },
  {
    name: 'an SVG after the PNG signature',
    bytes: () => Buffer.concat([PNG_SIGNATURE, Buffer.from(SVG)]),
    outcome: refused('image.type'),
  },
  // Sizes.
  {
    name: 'one byte over the 5 MiB limit (a real PNG, padded)',
    bytes: () => {
      const big = Buffer.alloc(ADDRESS_IMAGE_MAX_BYTES + 1);
      png().copy(big);
      return big;
    },
    outcome: refused('image.too_large', { max: ADDRESS_IMAGE_MAX_BYTES / (1024 * 1024) }),
  },
  {
    name: 'twice the 5 MiB limit',
    bytes: () => Buffer.concat([jpeg(), Buffer.alloc(2 * ADDRESS_IMAGE_MAX_BYTES)]),
    filename: 'big.jpg',
    type: 'image/jpeg',
    outcome: refused('image.too_large', { max: ADDRESS_IMAGE_MAX_BYTES / (1024 * 1024) }),
  },
  {
    name: 'a PNG of 100 000 × 100 000 declared in 70 bytes (a decompression bomb)',
    bytes: () => png(100_000, 100_000, true),
    outcome: refused('image.dimensions', DIMENSIONS),
  },
  {
    name: 'a PNG one pixel wider than the limit',
    bytes: () => png(IMAGE_MAX_SIDE_PX + 1, 1),
    outcome: refused('image.dimensions', DIMENSIONS),
  },
  {
    name: 'a PNG within the sides but over the pixels (7 000 × 7 000 = 49 MP)',
    bytes: () => png(7_000, 7_000, true),
    outcome: refused('image.dimensions', DIMENSIONS),
  },
  {
    name: 'a JPEG declaring 65 535 × 65 535',
    bytes: () => jpeg(65_535, 65_535),
    filename: 'x.jpg',
    type: 'image/jpeg',
    outcome: refused('image.dimensions', DIMENSIONS),
  },
  {
    name: 'a lossless WebP declaring 16 384 × 16 384',
    bytes: () => webpLossless(16_384, 16_384),
    filename: 'x.webp',
    type: 'image/webp',
    outcome: refused('image.dimensions', DIMENSIONS),
  },
  {
    name: 'an extended WebP declaring a 16 777 216 × 16 777 216 canvas',
    bytes: () => webpExtended(2 ** 24, 2 ** 24),
    filename: 'x.webp',
    type: 'image/webp',
    outcome: refused('image.dimensions', DIMENSIONS),
  },
  {
    name: 'a PNG declaring 0 × 0',
    bytes: () => png(0, 0, true),
    outcome: refused('image.type'),
  },
  {
    name: 'a real PNG exactly at the limits (10 000 × 4 000 = 40 MP)',
    bytes: () => png(IMAGE_MAX_SIDE_PX, IMAGE_MAX_PIXELS / IMAGE_MAX_SIDE_PX),
    outcome: storedAs('image/png'),
  },
  // Hostile names: the file is stored and served under a name the server chose.
  {
    name: 'the name ../../etc/passwd.png',
    bytes: () => png(),
    filename: '../../etc/passwd.png',
    outcome: storedAs('image/png'),
  },
  {
    name: 'the name ..\\..\\x.jpg',
    bytes: () => jpeg(),
    filename: '..\\..\\x.jpg',
    type: 'image/jpeg',
    outcome: storedAs('image/jpeg'),
  },
  {
    name: 'an absolute name /etc/cron.d/x.png',
    bytes: () => png(),
    filename: '/etc/cron.d/x.png',
    outcome: storedAs('image/png'),
  },
  {
    name: 'a name with NUL: x.png\\0.php',
    bytes: () => png(),
    filename: 'x.png\u0000.php',
    outcome: storedAs('image/png'),
  },
  {
    name: 'a name of 8 000 characters',
    bytes: () => png(),
    filename: `${'a'.repeat(8_000)}.png`,
    outcome: storedAs('image/png'),
  },
  {
    name: 'a unicode name (RTL override, emoji)',
    bytes: () => png(),
    filename: 'фото\u202Egnp.exe😀.png',
    outcome: storedAs('image/png'),
  },
  {
    name: 'a name with quotes and markup',
    bytes: () => png(),
    filename: '"><img src=x onerror=alert(1)>.png',
    outcome: storedAs('image/png'),
  },
  {
    name: "an RFC 5987 name climbing out: filename*=UTF-8''..%2F..%2Fx.png",
    bytes: () => png(),
    filenameStar: "UTF-8''..%2F..%2F..%2Fx.png",
    outcome: storedAs('image/png'),
  },
  // The type comes from the bytes, never from the name or the claimed type.
  { name: 'a JPEG named .png and sent as image/png', bytes: () => jpeg(), outcome: storedAs('image/jpeg') },
  {
    name: 'a PNG named .html and sent as text/html',
    bytes: () => png(),
    filename: 'x.html',
    type: 'text/html',
    outcome: storedAs('image/png'),
  },
];

// ---------------------------------------------------------------------------------------------

/** One file part named `image`, headers written as given (quotes, NUL and all). */
function multipartOf(testCase: Case) {
  const boundary = `----KontrolUpload${Math.random().toString(16).slice(2)}`;
  const name =
    testCase.filenameStar !== undefined
      ? `filename*=${testCase.filenameStar}`
      : `filename="${testCase.filename ?? 'photo.png'}"`;
  return {
    raw: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; ${name}\r\n` +
          `Content-Type: ${testCase.type ?? 'image/png'}\r\n\r\n`,
      ),
      testCase.bytes(),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Every file under `root`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort();
}

/** The stored files of one upload folder. */
const folderFiles = (folder: string) =>
  filesUnder(root)
    .filter((path) => path.startsWith(join('a', 'b', 'uploads', folder) + '/'))
    .map((path) => relative(join('a', 'b', 'uploads', folder), path));

async function fetchBytes(url: string, session: Session) {
  const response = await ctx.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

let org: Org;
beforeAll(async () => {
  org = await buildOrg(ctx.app, ctx.db, 'Uploads');
});

describe('uploads', () => {
  it('the table names every upload route of the app (a multipart route missing from it fails here)', () => {
    const multipart = ctx.routes.filter((route) => route.multipart).map((route) => route.key);
    expect(multipart.sort()).toEqual(UPLOAD_ROUTES.map((route) => route.key).sort());
  });

  it('the header reader knows each test image for what it declares', () => {
    // The builders above are what the server reads: check them against the shared code once.
    expect(imageSize(png(3, 2), 'image/png')).toEqual({ width: 3, height: 2 });
    expect(imageSize(jpeg(640, 480), 'image/jpeg')).toEqual({ width: 640, height: 480 });
    expect(imageSize(webpLossless(300, 200), 'image/webp')).toEqual({ width: 300, height: 200 });
    expect(imageSize(webpExtended(2 ** 24, 5), 'image/webp')).toEqual({ width: 2 ** 24, height: 5 });
  });

  describe.each(UPLOAD_ROUTES)('$key', (route) => {
    it.each(CASES)('$name', async (testCase) => {
      const target = await route.target(org);
      const before = folderFiles(route.folder);
      const upload = multipartOf(testCase);
      const answer = await send(ctx.app, { method: 'POST', url: target, session: org.admin, ...upload });
      expect(answer.status, answer.body.slice(0, 300)).toBeLessThan(500);
      const sentName = testCase.filename ?? testCase.filenameStar ?? 'photo.png';

      if ('refused' in testCase.outcome) {
        expect(answer.status, answer.body.slice(0, 300)).toBe(422);
        expect(isErrorShape(answer)).toBe(true);
        const message = translate('en', testCase.outcome.refused, testCase.outcome.params);
        expect(JSON.parse(answer.body)).toEqual({
          message: translate('en', 'validation.failed'),
          errors: { image: [message] },
        });
        expect(folderFiles(route.folder), 'nothing stored').toEqual(before);
      } else {
        expect([200, 201], answer.body.slice(0, 300)).toContain(answer.status);
        // Nothing of the client's name comes back.
        if (sentName.length > 3) expect(answer.body).not.toContain(sentName.slice(0, 40));
        const { url, file } = await route.stored(answer, target, org);
        expect(file).toMatch(IMAGE_FILE_NAME);
        expect(file.endsWith(`.${testCase.outcome.extension}`), file).toBe(true);
        expect(folderFiles(route.folder)).toContain(file);

        const served = await fetchBytes(url, org.admin);
        expect(served.status).toBe(200);
        expect(served.headers['content-type']).toBe(testCase.outcome.stored);
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(String(served.headers['content-security-policy'])).toBe("default-src 'none'; sandbox");
        // Inline, under a name made of the route's prefix and server-chosen parts only.
        const disposition = String(served.headers['content-disposition']);
        expect(disposition).toMatch(
          new RegExp(`^inline; filename="${route.prefix}[0-9a-z]+(\\.(jpg|png|webp))?"$`),
        );
        // Stored as sent: the bytes are never decoded, so nothing in them ever runs on the server.
        expect(Buffer.compare(served.bytes, testCase.bytes())).toBe(0);
      }

      // Whatever the name said, every file under the test's folder is a server-named image in
      // one of the upload folders: nothing climbed out, nothing else was written.
      for (const path of filesUnder(root)) {
        expect(path).toMatch(/^a\/b\/uploads\/(addresses|recipes|complaints)\/[0-9a-f]{32}\.(jpg|png|webp)$/);
      }
    });
  });

  it('the image is refused in Russian too', async () => {
    const route = UPLOAD_ROUTES[0];
    if (!route) throw new Error('no upload route');
    const upload = multipartOf({
      name: 'bomb',
      bytes: () => png(100_000, 100_000, true),
      outcome: refused('image.dimensions'),
    });
    const answer = await send(ctx.app, {
      method: 'POST',
      url: await route.target(org),
      session: org.admin,
      headers: { 'accept-language': 'ru' },
      ...upload,
    });
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body)).toEqual({
      message: translate('ru', 'validation.failed'),
      errors: { image: [translate('ru', 'image.dimensions', DIMENSIONS)] },
    });
    expect(translate('ru', 'image.dimensions', DIMENSIONS)).toBe(
      'Изображение слишком большое: не больше 10000 × 10000 пикселей и 40 мегапикселей.',
    );
    expect(translate('en', 'image.dimensions', DIMENSIONS)).toBe(
      'The image is too large: at most 10000 × 10000 pixels and 40 megapixels.',
    );
  });
});
