import {
  crcHex,
  programFileText,
  setFileText,
  type ProgramRecipe,
  type ProgramSet,
} from '@kontrol/contracts';
import { crc32 } from 'node:zlib';

/**
 * The bytes of program files (docs/device-protocol.md, "Recipes"): the text of
 * `@kontrol/contracts` as UTF-8, and its CRC32 (IEEE, zlib's) as 8 hex digits.
 */
export interface ProgramFile {
  bytes: Buffer;
  crc: string;
  size: number;
}

export function fileOf(text: string): ProgramFile {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, crc: crcHex(crc32(bytes)), size: bytes.length };
}

export function programFile(recipe: ProgramRecipe): ProgramFile {
  return fileOf(programFileText(recipe));
}

export function setFile(set: ProgramSet): ProgramFile {
  return fileOf(setFileText(set));
}
