import { z } from 'zod';
import type { DeviceTypeSlug } from './equipment-constants.js';
import { DESCRIPTION_MAX_LENGTH, optionalText } from './places.js';
import { filtersParamSchema, pagedSchema } from './pagination.js';

/**
 * Recipes, recipe sets and their deployment to devices: docs/contract.md, "Product and areas", "Entities" (Recipe bind, Recipe
 * deployment), docs/contract.md, "Recipes, sets and deployment"; docs/recipes.md, the program files in docs/device-protocol.md.
 */

export const RECIPE_NAME_MAX_LENGTH = 120;
export const RECIPE_CATEGORY_MAX_LENGTH = 60;
export const STEP_PROMPT_MAX_LENGTH = 200;
export const MAX_RECIPE_STEPS = 30;
export const MAX_STEP_SECONDS = 24 * 3600;
export const SET_NAME_MAX_LENGTH = 120;
export const MAX_SET_RECIPES = 1000;

/** An uploaded recipe image's name: 128 random bits and the type's extension (never the upload's own name). */
export const RECIPE_IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|webp)$/;
/** `POST /api/recipes/image` (multipart, JPEG/PNG/WebP by their bytes, at most ADDRESS_IMAGE_MAX_BYTES). */
export const recipeImageSchema = z.object({ image: z.string(), url: z.string() });

/** The cooking modes a step may use. */
export const STEP_MODES = ['steam', 'convection', 'combination', 'fry', 'chill', 'freeze'] as const;
export type StepMode = (typeof STEP_MODES)[number];

/** What a step of a mode may ask for: cabinet (or oil) temperature range, humidity, fan. */
export interface ModeLimits {
  temperature: { min: number; max: number };
  /** Humidity 0–100 % may be set (combination); otherwise it is not part of the step. */
  humidity: boolean;
  /** Fan speed 1–5 may be set. */
  fan: boolean;
}

/**
 * The device types that take recipes (a type with `program_capacity`), their modes and limits, and
 * whether a step may end on a core temperature (the type has a core probe).
 */
export const RECIPE_TYPES: Partial<
  Record<DeviceTypeSlug, { modes: Partial<Record<StepMode, ModeLimits>>; coreProbe: boolean }>
> = {
  combi_oven: {
    modes: {
      steam: { temperature: { min: 30, max: 130 }, humidity: false, fan: true },
      convection: { temperature: { min: 30, max: 300 }, humidity: false, fan: true },
      combination: { temperature: { min: 30, max: 250 }, humidity: true, fan: true },
    },
    coreProbe: true,
  },
  convection_oven: {
    modes: { convection: { temperature: { min: 30, max: 300 }, humidity: false, fan: true } },
    coreProbe: true,
  },
  fryer: {
    modes: { fry: { temperature: { min: 100, max: 190 }, humidity: false, fan: false } },
    coreProbe: false,
  },
  blast_chiller: {
    modes: {
      chill: { temperature: { min: -5, max: 10 }, humidity: false, fan: true },
      freeze: { temperature: { min: -40, max: -18 }, humidity: false, fan: true },
    },
    coreProbe: true,
  },
};
/** A core-temperature target's range (°C). */
export const CORE_TEMPERATURE_LIMITS = { min: -30, max: 99 };

/**
 * One step. It ends after `duration_seconds` or when the core probe reads `core_temperature`
 * (exactly one of the two). `humidity` only in modes that take it, `fan_speed` (1–5) only in modes
 * with a fan. `prompt`: what the cook is asked to do before the step starts.
 */
export const recipeStepSchema = z
  .object({
    mode: z.enum(STEP_MODES),
    temperature: z.number().int().min(-40).max(300),
    humidity: z.number().int().min(0).max(100).nullish().default(null),
    fan_speed: z.number().int().min(1).max(5).nullish().default(null),
    duration_seconds: z.number().int().min(1).max(MAX_STEP_SECONDS).nullish().default(null),
    core_temperature: z
      .number()
      .int()
      .min(CORE_TEMPERATURE_LIMITS.min)
      .max(CORE_TEMPERATURE_LIMITS.max)
      .nullish()
      .default(null),
    prompt: optionalText(STEP_PROMPT_MAX_LENGTH),
  })
  .strict();
export type RecipeStep = z.output<typeof recipeStepSchema>;

export const recipeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  device_type_id: z.number().int(),
  category: z.string().nullable(),
  description: z.string().nullable(),
  /** The uploaded image's name (`POST /api/recipes/image`) and where to get it, or null. */
  image: z.string().nullable(),
  image_url: z.string().nullable(),
  steps: z.array(z.custom<RecipeStep>()),
  /** Moves on every change of what goes into the program file. */
  version: z.number().int(),
  /** CRC32 (IEEE) of the recipe's program file, 8 lower-case hex digits. */
  crc: z.string(),
  /** Total planned time (s), with core-probe steps counted as nothing. */
  duration_seconds: z.number().int(),
  set_ids: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Recipe = z.infer<typeof recipeSchema>;

/** `POST /api/recipes/` and `PUT /api/recipes/{id}` (the whole recipe). */
export const recipeBodySchema = z
  .object({
    name: z.string().trim().min(1).max(RECIPE_NAME_MAX_LENGTH),
    device_type_id: z.number().int().positive(),
    category: optionalText(RECIPE_CATEGORY_MAX_LENGTH),
    description: optionalText(DESCRIPTION_MAX_LENGTH),
    /** An image uploaded with `POST /api/recipes/image` (its `image`), or null. */
    image: z.string().regex(RECIPE_IMAGE_NAME).nullish().default(null),
    steps: z.array(recipeStepSchema).min(1).max(MAX_RECIPE_STEPS),
    set_ids: z.array(z.number().int().positive()).max(1000).optional(),
  })
  .strict();
export type RecipeBody = z.input<typeof recipeBodySchema>;

/** `GET /api/recipes/`: without `page` every recipe as `{data}` (reference data); else paged. */
export const recipesListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  filters: filtersParamSchema.optional(),
  search: z.string().trim().max(100).optional(),
});
export const recipesPageSchema = pagedSchema(recipeSchema);

/** docs/contract.md, "Entities" (Recipe bind): `POST /api/recipes/{id}/bind_to_sets` — the whole list of the recipe's sets. */
export const recipeBindBodySchema = z
  .object({ set_ids: z.array(z.number().int().positive()).max(1000) })
  .strict();

export const recipeSetSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** A set is for one device type: what a device of that type holds. */
  device_type_id: z.number().int(),
  /** In the set's order. */
  recipe_ids: z.array(z.number().int()),
  /** CRC32 of the set's file (docs/device-protocol.md). */
  crc: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RecipeSet = z.infer<typeof recipeSetSchema>;

/** `POST /api/recipes_sets/` and `PUT /api/recipes_sets/{id}`. */
export const recipeSetBodySchema = z
  .object({
    name: z.string().trim().min(1).max(SET_NAME_MAX_LENGTH),
    description: optionalText(DESCRIPTION_MAX_LENGTH),
    device_type_id: z.number().int().positive(),
    recipe_ids: z.array(z.number().int().positive()).max(MAX_SET_RECIPES).default([]),
  })
  .strict();
export type RecipeSetBody = z.input<typeof recipeSetBodySchema>;

/**
 * What is bound to a device and how its delivery goes (`GET /api/devices/{id}/recipe_binds`,
 * `get_upload_status`): `queued` (waiting for the device, e.g. offline), `sending` (the device was
 * told and has not reported yet), `installed` (it reported the right CRC), `failed` (`error`:
 * `crc_mismatch`, `timeout`, `download_failed`, `capacity`), `removing` (asked to delete it).
 */
export const UPLOAD_STATES = ['queued', 'sending', 'installed', 'failed', 'removing'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];
export const UPLOAD_ERRORS = ['crc_mismatch', 'timeout', 'download_failed', 'capacity'] as const;
export type UploadError = (typeof UPLOAD_ERRORS)[number];

export const recipeBindSchema = z.object({
  /** The bind id (docs/contract.md, "Entities" `bind_ids`). */
  id: z.number().int(),
  device_id: z.number().int(),
  recipe_id: z.number().int(),
  /** The set it came with, or null for a recipe deployed on its own. */
  set_id: z.number().int().nullable(),
  /** The recipe's version and CRC that were (or are being) delivered. */
  version: z.number().int(),
  crc: z.string(),
  state: z.enum(UPLOAD_STATES),
  error: z.enum(UPLOAD_ERRORS).nullable(),
  /** The CRC the device reported, when it did. */
  reported_crc: z.string().nullable(),
  attempts: z.number().int(),
  /** A newer version of the recipe exists than the one delivered. */
  outdated: z.boolean(),
  updated_at: z.string(),
});
export type RecipeBind = z.infer<typeof recipeBindSchema>;

/** docs/contract.md, "Entities" (Recipe deployment): `POST /api/recipes_sets/upload`. */
export const setUploadBodySchema = z
  .object({ device_id: z.number().int().positive(), set_id: z.number().int().positive() })
  .strict();
/** `POST /api/recipes_sets/upload_recipes`. */
export const recipesUploadBodySchema = z
  .object({
    device_id: z.number().int().positive(),
    recipe_ids: z.array(z.number().int().positive()).min(1).max(MAX_SET_RECIPES),
  })
  .strict();
/** `DELETE /api/recipes_sets_2/delete_recipes` and `POST /api/recipes_sets/get_program_files`. */
export const bindIdsBodySchema = z
  .object({ bind_ids: z.array(z.number().int().positive()).min(1).max(MAX_SET_RECIPES) })
  .strict();

/** `GET /api/devices/{id}/get_crc_file`: what the device should hold. */
export const crcFileSchema = z.object({
  device_id: z.number().int(),
  set: z.object({ id: z.number().int(), crc: z.string() }).nullable(),
  files: z.array(
    z.object({
      bind_id: z.number().int(),
      recipe_id: z.number().int(),
      file: z.string(),
      crc: z.string(),
      size: z.number().int(),
    }),
  ),
});

/** `GET /api/devices/{id}/get_upload_status`: counts per state, and each bind. */
export const uploadStatusSchema = z.object({
  device_id: z.number().int(),
  /** The set the device holds (`devices.recipe_set_id`), or null. */
  set_id: z.number().int().nullable(),
  counts: z.record(z.enum(UPLOAD_STATES), z.number().int()),
  binds: z.array(recipeBindSchema),
});
