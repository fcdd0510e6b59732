import { z } from 'zod';
import type { RecipeStep } from './recipes.js';

/**
 * Program files and their exchange with a device (docs/device-protocol.md, "Recipes"). A program
 * file is UTF-8 text, lines ended by LF, each line one JSON object with its fields in a fixed
 * order: the same recipe always gives the same bytes, so the same CRC32 (IEEE, as zlib computes
 * it). The device proves it installed a file by reporting the CRC it computed over the bytes it
 * stored.
 */

export const PROGRAM_FORMAT = 'kontrol-program/1';
export const SET_FORMAT = 'kontrol-set/1';

/** The name of a recipe's file on the device: its id and version. */
export function programFileName(recipeId: number, version: number): string {
  return `r${recipeId}-v${version}.kpf`;
}

export interface ProgramRecipe {
  id: number;
  version: number;
  /** The device type's slug. */
  type: string;
  name: string;
  steps: readonly RecipeStep[];
}

/** The program file of a recipe, as text (encode as UTF-8 for the bytes and the CRC). */
export function programFileText(recipe: ProgramRecipe): string {
  const lines = [
    JSON.stringify({
      format: PROGRAM_FORMAT,
      recipe: recipe.id,
      version: recipe.version,
      type: recipe.type,
      name: recipe.name,
      steps: recipe.steps.length,
    }),
    ...recipe.steps.map((step, index) =>
      JSON.stringify({
        step: index + 1,
        mode: step.mode,
        temperature: step.temperature,
        humidity: step.humidity,
        fan_speed: step.fan_speed,
        duration_seconds: step.duration_seconds,
        core_temperature: step.core_temperature,
        prompt: step.prompt,
      }),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

export interface ProgramSet {
  id: number;
  name: string;
  type: string;
  /** In the set's order, each with its file's CRC. */
  recipes: readonly { id: number; version: number; crc: string }[];
}

/** The set file: which program files the device should hold, in order, with their CRCs. */
export function setFileText(set: ProgramSet): string {
  const lines = [
    JSON.stringify({
      format: SET_FORMAT,
      set: set.id,
      name: set.name,
      type: set.type,
      recipes: set.recipes.length,
    }),
    ...set.recipes.map((recipe) =>
      JSON.stringify({
        recipe: recipe.id,
        version: recipe.version,
        file: programFileName(recipe.id, recipe.version),
        crc: recipe.crc,
      }),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** A CRC32 as the protocol writes it: 8 lower-case hex digits. */
export const CRC_PATTERN = /^[0-9a-f]{8}$/;
export function crcHex(crc: number): string {
  return (crc >>> 0).toString(16).padStart(8, '0');
}

/** Where a device downloads a program file and reports on it (bearer: its gateway credential). */
export const PROGRAMS_PATH = '/api/ingest/v1/programs';
/** A device that was told to fetch and has not reported within this long: the delivery failed (`timeout`). */
export const PROGRAM_REPORT_TIMEOUT_MS = 2 * 60_000;

/**
 * The command on `kontrol/v1/<controller_id>/cmd` (QoS 1) telling a device what to fetch and what
 * to delete. `url` is a path under the server the device talks to (`PROGRAMS_PATH/<bind_id>`).
 */
export const programsCommandSchema = z.object({
  type: z.literal('programs'),
  /** Unique per command: a device that sees the same id twice (a redelivery) may ignore it. */
  id: z.string(),
  set: z.object({ id: z.number().int(), crc: z.string() }).nullable(),
  install: z.array(
    z.object({
      bind_id: z.number().int(),
      recipe_id: z.number().int(),
      file: z.string(),
      crc: z.string(),
      size: z.number().int(),
      url: z.string(),
    }),
  ),
  remove: z.array(z.object({ bind_id: z.number().int(), file: z.string() })),
});
export type ProgramsCommand = z.infer<typeof programsCommandSchema>;

/**
 * `POST PROGRAMS_PATH/<bind_id>/report`: the CRC the device computed over the file it stored, or
 * `removed: true` once it deleted a file it was told to remove, or an `error` it met downloading
 * or storing (`download_failed`, `capacity`).
 */
export const programReportSchema = z
  .object({
    crc: z.string().regex(CRC_PATTERN).optional(),
    removed: z.literal(true).optional(),
    error: z.enum(['download_failed', 'capacity']).optional(),
  })
  .strict()
  .refine(
    (report) => [report.crc, report.removed, report.error].filter((x) => x !== undefined).length === 1,
    {
      params: { key: 'field.invalid' },
    },
  );
export type ProgramReport = z.infer<typeof programReportSchema>;
