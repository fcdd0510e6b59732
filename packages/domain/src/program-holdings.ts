import { crc32 } from 'node:zlib';
import { crcHex, programFileName, programFileText, setFileText, type RecipeStep } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';

/**
 * What a device should hold of recipes and sets, and their files' bytes: read by the gateway to
 * dispatch them and by the API to show a device's deployment (docs/device-protocol.md, "Recipes").
 */

/** A file's bytes as the protocol sends them (UTF-8) and its CRC32 (IEEE, zlib's) in hex. */
export interface ProgramBytes {
  bytes: Buffer;
  crc: string;
  size: number;
}

export function bytesOf(text: string): ProgramBytes {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, crc: crcHex(crc32(bytes)), size: bytes.length };
}

/** The name of the set file on a device and in downloads (the device holds one set). */
export function setFileName(setId: number): string {
  return `set-${setId}.kset`;
}

/** A recipe's program file from its stored row (`steps` JSON), as `programFileText` writes it. */
export function programBytes(recipe: {
  id: number;
  version: number;
  type: string;
  name: string;
  steps: string;
}): ProgramBytes {
  return bytesOf(
    programFileText({
      id: recipe.id,
      version: recipe.version,
      type: recipe.type,
      name: recipe.name,
      steps: JSON.parse(recipe.steps) as RecipeStep[],
    }),
  );
}

export interface HeldFile {
  bind_id: number;
  recipe_id: number;
  set_id: number | null;
  version: number;
  file: string;
  crc: string;
  size: number;
}

/** What a device should hold: its set file (when it holds a set) and its program files. */
export interface DeviceHoldings {
  set: { id: number; name: string; file: string; crc: string; bytes: Buffer } | null;
  /** The set's files in the set's order, then the recipes deployed on their own, by bind. */
  files: HeldFile[];
}

/** The binds a device should hold (every state but `removing`), by id. */
export function heldBinds(db: Kysely<Database>, deviceId: number) {
  return db
    .selectFrom('device_recipe_binds')
    .select(['id', 'recipe_id', 'set_id', 'version', 'crc', 'size'])
    .where('device_id', '=', deviceId)
    .where('state', '!=', 'removing')
    .orderBy('id')
    .execute();
}

/** The device's set: its name, type and recipes in order; undefined when it holds none. */
export async function deviceSet(db: Kysely<Database>, deviceId: number) {
  const set = await db
    .selectFrom('devices')
    .innerJoin('recipe_sets', 'recipe_sets.id', 'devices.recipe_set_id')
    .innerJoin('device_types', 'device_types.id', 'recipe_sets.device_type_id')
    .select(['recipe_sets.id', 'recipe_sets.name', 'device_types.slug'])
    .where('devices.id', '=', deviceId)
    .executeTakeFirst();
  if (!set) return undefined;
  const recipes = await db
    .selectFrom('recipe_set_recipes')
    .select('recipe_id')
    .where('set_id', '=', set.id)
    .orderBy('position')
    .orderBy('recipe_id')
    .execute();
  return { ...set, recipeIds: recipes.map((row) => row.recipe_id) };
}

/**
 * The device's holdings (docs/device-protocol.md, "Recipes"): every bind not being removed, at
 * the version it was deployed at. The set file lists the set's recipes in the set's order that
 * are bound on the device with this set, each with its bound version and CRC: right after a
 * deploy it is the set's own file; when a recipe changed and was not deployed again, it still
 * says what the device was given.
 */
export async function deviceHoldings(db: Kysely<Database>, deviceId: number): Promise<DeviceHoldings> {
  const [binds, set] = await Promise.all([heldBinds(db, deviceId), deviceSet(db, deviceId)]);
  const files: HeldFile[] = binds.map((bind) => ({
    bind_id: bind.id,
    recipe_id: bind.recipe_id,
    set_id: bind.set_id,
    version: bind.version,
    file: programFileName(bind.recipe_id, bind.version),
    crc: bind.crc,
    size: bind.size,
  }));
  if (!set) return { set: null, files };
  const position = new Map(set.recipeIds.map((recipeId, index) => [recipeId, index]));
  const inSet = (file: HeldFile) => file.set_id === set.id && position.has(file.recipe_id);
  const ofSet = files
    .filter(inSet)
    .sort((a, b) => (position.get(a.recipe_id) ?? 0) - (position.get(b.recipe_id) ?? 0));
  const file = bytesOf(
    setFileText({
      id: set.id,
      name: set.name,
      type: set.slug,
      recipes: ofSet.map((held) => ({ id: held.recipe_id, version: held.version, crc: held.crc })),
    }),
  );
  return {
    set: { id: set.id, name: set.name, file: setFileName(set.id), crc: file.crc, bytes: file.bytes },
    files: [...ofSet, ...files.filter((held) => !inSet(held))],
  };
}
