import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressImageType } from '@kontrol/contracts';

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

/** What the store names files: 128 random bits and the type's extension, nothing from the upload. */
const FILE_NAME = /^[0-9a-f]{32}\.(jpg|png|webp)$/;

/**
 * Address images on disk, in `<UPLOADS_DIR>/addresses/`. File names are generated here and checked
 * again before every use, so a value read from the database can never point outside the folder.
 */
export class AddressImageStore {
  readonly dir: string;

  constructor(uploadsDir: string) {
    this.dir = join(uploadsDir, 'addresses');
  }

  private pathOf(fileName: string) {
    if (!FILE_NAME.test(fileName)) throw new Error(`not an address image file name: ${fileName}`);
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
