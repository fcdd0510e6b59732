import { ADDRESS_IMAGE_MAX_BYTES, type AddressImageType } from '@kontrol/contracts';
import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { FieldValidationError } from './http-errors.js';

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

const MEGABYTE = 1024 * 1024;
export const imageTooLarge = () =>
  new FieldValidationError(
    { image: ['image.too_large'] },
    { 'image.too_large': { max: ADDRESS_IMAGE_MAX_BYTES / MEGABYTE } },
  );
export const imageMissing = () => new FieldValidationError({ image: ['image.missing'] });
export const imageWrongType = () => new FieldValidationError({ image: ['image.type'] });

/**
 * The type of an uploaded image, checked: some bytes (else `image.missing`), at most
 * ADDRESS_IMAGE_MAX_BYTES (else `image.too_large`), JPEG, PNG or WebP by its bytes (else
 * `image.type`); each a 422 on `image`.
 */
export function checkedImageType(bytes: Uint8Array): AddressImageType {
  if (bytes.length === 0) throw imageMissing();
  if (bytes.length > ADDRESS_IMAGE_MAX_BYTES) throw imageTooLarge();
  const type = sniffImageType(bytes);
  if (!type) throw imageWrongType();
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
