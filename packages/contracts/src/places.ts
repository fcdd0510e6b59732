import { z } from 'zod';
import { filtersParamSchema } from './pagination.js';

/** Addresses (sites) and their rooms: docs/contract.md, "Product and areas", "Addresses and rooms"; docs/places-and-equipment.md. */

export const ADDRESS_NAME_MAX_LENGTH = 255;
export const FULL_ADDRESS_MAX_LENGTH = 500;
export const CITY_MAX_LENGTH = 255;
export const ROOM_NAME_MAX_LENGTH = 255;
export const ROOM_FLOOR_MAX_LENGTH = 50;
export const DESCRIPTION_MAX_LENGTH = 2000;
/** Time zone a new address gets in the console when nobody picks another. */
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';

/** Address images: checked by their first bytes, not by name; larger uploads answer 422 on `image`. */
export const ADDRESS_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const ADDRESS_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type AddressImageType = (typeof ADDRESS_IMAGE_TYPES)[number];
/**
 * Uploaded images (addresses, recipes, complaint photos) may be at most this wide and high, and
 * hold at most this many pixels, as their headers declare: a few kilobytes can declare a picture
 * that takes gigabytes to decode, in every browser that shows it (a "decompression bomb").
 */
export const IMAGE_MAX_SIDE_PX = 10_000;
export const IMAGE_MAX_PIXELS = 40_000_000;

/** Weekdays in ISO order (Monday first), the keys of a weekly work time. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A local time of day, `HH:MM`, 00:00–23:59. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const timeOfDaySchema = z
  .string()
  .refine((value) => TIME_OF_DAY_PATTERN.test(value), { params: { key: 'field.time_of_day' } });

/** Zones found known, so that a request naming one does not build a formatter (about 0.1 ms) again. */
const knownZones = new Set<string>();

/** True when `zone` is an IANA time zone this runtime knows (`Europe/Moscow`, `Asia/Yekaterinburg`). */
export function isTimeZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/.test(zone) && zone !== 'UTC') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    return false;
  }
  // Only names that pass the pattern and that Intl knows: a few hundred at most.
  knownZones.add(zone);
  return true;
}

export const timeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, { params: { key: 'field.time_zone' } });

/**
 * One weekday's opening hours in the address's local time, or `null` when closed. A `close` earlier
 * than `open` means the site works past midnight (22:00–02:00); equal times are refused.
 */
export const dayWorkTimeSchema = z
  .object({ open: timeOfDaySchema, close: timeOfDaySchema })
  .refine((day) => day.open !== day.close, { path: ['close'], params: { key: 'field.work_time_equal' } })
  .nullable();
export type DayWorkTime = z.infer<typeof dayWorkTimeSchema>;

export const workTimeSchema = z.object({
  mon: dayWorkTimeSchema,
  tue: dayWorkTimeSchema,
  wed: dayWorkTimeSchema,
  thu: dayWorkTimeSchema,
  fri: dayWorkTimeSchema,
  sat: dayWorkTimeSchema,
  sun: dayWorkTimeSchema,
});
export type WorkTime = z.infer<typeof workTimeSchema>;

/** The work time a new address starts with: Monday to Sunday 09:00–21:00. */
export const DEFAULT_WORK_TIME: WorkTime = {
  mon: { open: '09:00', close: '21:00' },
  tue: { open: '09:00', close: '21:00' },
  wed: { open: '09:00', close: '21:00' },
  thu: { open: '09:00', close: '21:00' },
  fri: { open: '09:00', close: '21:00' },
  sat: { open: '09:00', close: '21:00' },
  sun: { open: '09:00', close: '21:00' },
};

const requiredText = (max: number) => z.string().trim().min(1).max(max);
/** Free text that may be left out: blank, null and missing all mean "none" (`null`). */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

export const addressSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  full_address: z.string(),
  city: z.string(),
  time_zone: z.string(),
  work_time: workTimeSchema,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Where the console loads the image from (same origin, needs the session), or null. */
  image_url: z.string().nullable(),
  rooms_count: z.number().int(),
  devices_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Address = z.infer<typeof addressSchema>;

/** `POST /api/addresses/` and `PUT /api/addresses/{id}` (PUT takes the whole address). */
export const addressBodySchema = z
  .object({
    name: requiredText(ADDRESS_NAME_MAX_LENGTH),
    full_address: requiredText(FULL_ADDRESS_MAX_LENGTH),
    city: requiredText(CITY_MAX_LENGTH),
    time_zone: timeZoneSchema,
    work_time: workTimeSchema,
    latitude: z.number().min(-90).max(90).nullish().default(null),
    longitude: z.number().min(-180).max(180).nullish().default(null),
  })
  .strict()
  .refine((body) => (body.latitude == null) === (body.longitude == null), {
    path: ['longitude'],
    params: { key: 'field.coordinates_pair' },
  });
export type AddressBody = z.input<typeof addressBodySchema>;

export const roomSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  address_id: z.number().int(),
  floor: z.string().nullable(),
  description: z.string().nullable(),
  devices_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Room = z.infer<typeof roomSchema>;

/** `POST /api/rooms/` and `PUT /api/rooms/{id}`. */
export const roomBodySchema = z
  .object({
    name: requiredText(ROOM_NAME_MAX_LENGTH),
    address_id: z.number().int().positive(),
    floor: optionalText(ROOM_FLOOR_MAX_LENGTH),
    description: optionalText(DESCRIPTION_MAX_LENGTH),
  })
  .strict();
export type RoomBody = z.input<typeof roomBodySchema>;

/**
 * List queries of `GET /api/addresses/` and `GET /api/rooms/`: without `page` the whole list comes
 * as `{data: [...]}` (what the console's reference data reads); with `page` a paged list.
 */
export const placesListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  filters: filtersParamSchema.optional(),
});
