import {
  ADDRESS_IMAGE_MAX_BYTES,
  IMAGE_MAX_PIXELS,
  IMAGE_MAX_SIDE_PX,
  type AddressImageType,
} from '@kontrol/contracts';
import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { FieldValidationError } from '@kontrol/server-kit';

/**
 * Uploaded images (address images, recipe images): what is accepted, how files are named and kept
 * on disk, and the headers they are served with (docs/places-and-equipment.md, docs/recipes.md).
 */

/** File name extension of each accepted image type (stored files and download names). */
export const IMAGE_EXTENSIONS: Record<AddressImageType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type by the file's first bytes, never by its name or the type the browser claims:
 * JPEG `FF D8 FF`, PNG's eight-byte signature, WebP `RIFF····WEBP`. Anything else is undefined.
 */
export function sniffImageType(bytes: Uint8Array): AddressImageType | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/** An image's size in pixels, as its header declares it. */
export interface ImageSize {
  width: number;
  height: number;
}

const textAt = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/** PNG: the first chunk must be IHDR (13 bytes), width and height big-endian at 16 and 20. */
function pngSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 24 || view.getUint32(8) !== 13 || textAt(bytes, 12, 16) !== 'IHDR') return undefined;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** JPEG markers of a frame header (SOF0–SOF15 but DHT C4, JPG C8 and DAC CC): they hold the size. */
const isFrameHeader = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * JPEG: walks the segments after SOI (each `FF`, a marker and a big-endian length counting
 * itself) up to the first frame header, whose height and width follow its precision byte. A
 * segment that overruns the file, a byte that is no marker, or a scan or the end before any
 * frame header: no size.
 */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    while (bytes[at] === 0xff) at += 1; // fill bytes
    const marker = bytes[at];
    at += 1;
    if (marker === undefined || marker === 0x00) return undefined;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length: TEM, RSTn
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda) return undefined; // SOI, EOI, SOS
    if (at + 2 > bytes.length) return undefined;
    const length = view.getUint16(at);
    if (length < 2 || at + length > bytes.length) return undefined;
    if (isFrameHeader(marker)) {
      if (length < 7) return undefined;
      return { width: view.getUint16(at + 5), height: view.getUint16(at + 3) };
    }
    at += length;
  }
  return undefined;
}

/**
 * WebP: the first chunk after `RIFF····WEBP`. Lossy `VP8 `: a frame tag, the start code
 * `9D 01 2A`, then 14-bit width and height; lossless `VP8L`: the byte `2F`, then 14-bit width − 1
 * and height − 1; extended `VP8X`: four bytes of flags, then 24-bit canvas width − 1 and height − 1.
 */
function webpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const uint24 = (at: number) => view.getUint16(at, true) + ((bytes[at + 2] ?? 0) << 16);
  switch (bytes.length >= 20 ? textAt(bytes, 12, 16) : '') {
    case 'VP8 ':
      if (bytes.length < 30 || bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a)
        return undefined;
      return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    case 'VP8L': {
      if (bytes.length < 25 || bytes[20] !== 0x2f) return undefined;
      const bits = view.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      if (bytes.length < 30) return undefined;
      return { width: uint24(24) + 1, height: uint24(27) + 1 };
    default:
      return undefined;
  }
}

/**
 * The width and height an image of `type` declares in its header, read without decoding it;
 * undefined when the header is not one of that type (bytes that only start like an image).
 */
export function imageSize(bytes: Uint8Array, type: AddressImageType): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'image/png') return pngSize(bytes, view);
  if (type === 'image/jpeg') return jpegSize(bytes, view);
  return webpSize(bytes, view);
}

const MEGABYTE = 1024 * 1024;
export const imageTooLarge = () =>
  new FieldValidationError(
    { image: ['image.too_large'] },
    { 'image.too_large': { max: ADDRESS_IMAGE_MAX_BYTES / MEGABYTE } },
  );
export const imageMissing = () => new FieldValidationError({ image: ['image.missing'] });
export const imageWrongType = () => new FieldValidationError({ image: ['image.type'] });
export const imageTooManyPixels = () =>
  new FieldValidationError(
    { image: ['image.dimensions'] },
    { 'image.dimensions': { side: IMAGE_MAX_SIDE_PX, megapixels: IMAGE_MAX_PIXELS / 1_000_000 } },
  );

/**
 * The type of an uploaded image, checked: some bytes (else `image.missing`), at most
 * ADDRESS_IMAGE_MAX_BYTES (else `image.too_large`), JPEG, PNG or WebP by its bytes, with a header
 * of that type declaring a size (else `image.type`), at most IMAGE_MAX_SIDE_PX a side and
 * IMAGE_MAX_PIXELS in all (else `image.dimensions`: a small file may declare a picture that takes
 * gigabytes to decode); each a 422 on `image`. The image is never decoded here.
 */
export function checkedImageType(bytes: Uint8Array): AddressImageType {
  if (bytes.length === 0) throw imageMissing();
  if (bytes.length > ADDRESS_IMAGE_MAX_BYTES) throw imageTooLarge();
  const type = sniffImageType(bytes);
  if (!type) throw imageWrongType();
  const size = imageSize(bytes, type);
  if (!size || size.width === 0 || size.height === 0) throw imageWrongType();
  if (
    size.width > IMAGE_MAX_SIDE_PX ||
    size.height > IMAGE_MAX_SIDE_PX ||
    size.width * size.height > IMAGE_MAX_PIXELS
  ) {
    throw imageTooManyPixels();
  }
  return type;
}

/** What the store names files: 128 random bits and the type's extension, nothing from the upload. */
export const IMAGE_FILE_NAME = /^[0-9a-f]{32}\.(jpg|png|webp)$/;

/**
 * Image files in one folder (`<UPLOADS_DIR>/<kind>/`). File names are generated here and checked
 * again before every use, so a value read from the database or a URL can never point outside it.
 */
export class ImageFileStore {
  constructor(readonly dir: string) {}

  private pathOf(fileName: string) {
    if (!IMAGE_FILE_NAME.test(fileName)) throw new Error(`not an image file name: ${fileName}`);
    return join(this.dir, fileName);
  }

  /** Writes a new file and answers its name; the folder is created on the first upload. */
  async save(bytes: Uint8Array, type: AddressImageType): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const fileName = `${randomBytes(16).toString('hex')}.${IMAGE_EXTENSIONS[type]}`;
    await writeFile(this.pathOf(fileName), bytes, { flag: 'wx', mode: 0o640 });
    return fileName;
  }

  /** The open file, or undefined when it is not on disk. */
  async open(fileName: string): Promise<FileHandle | undefined> {
    try {
      return await open(this.pathOf(fileName), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Removes the file; one already gone is fine. */
  async remove(fileName: string): Promise<void> {
    await rm(this.pathOf(fileName), { force: true });
  }
}

/** Image URLs change with their content, so a day in the browser's own cache is safe. */
const IMAGE_CACHE_CONTROL = 'private, max-age=86400';

/**
 * Headers of a served image: its sniffed type, shown inline under `downloadName`, never sniffed
 * again by the browser, and, opened on its own, able to run and load nothing whatever it holds.
 */
export function imageResponseHeaders(type: string, size: number, downloadName: string) {
  return {
    'content-type': type,
    'content-length': String(size),
    'content-disposition': `inline; filename="${downloadName}"`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': IMAGE_CACHE_CONTROL,
  };
}

/** The size of an open file; the file is closed if it cannot be read. */
export async function openFileSize(handle: FileHandle): Promise<number> {
  try {
    return (await handle.stat()).size;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
