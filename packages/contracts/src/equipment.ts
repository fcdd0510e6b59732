import { z } from 'zod';
import { filtersParamSchema } from './pagination.js';
import { DESCRIPTION_MAX_LENGTH, optionalText, timeOfDaySchema } from './places.js';
import { DEVICE_TYPE_SLUGS, TELEMETRY_KINDS } from './equipment-constants.js';

/**
 * Device types, devices, device groups and the service log: docs/contract.md, "Product and areas", "Entities" Device, "Equipment";
 * docs/places-and-equipment.md.
 */

export const DEVICE_NAME_MAX_LENGTH = 255;
export const SERIAL_NUMBER_MAX_LENGTH = 100;
export const NOTES_MAX_LENGTH = 2000;
export const GROUP_NAME_MAX_LENGTH = 255;
export const GROUP_MAX_DEVICES = 10_000;
/** Controller ids are what a device calls itself on MQTT: letters, digits, `_ - . :`. */
export const CONTROLLER_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
export const WASH_INTERVAL_MAX_HOURS = 24 * 31;
export const SERVICE_INTERVAL_MAX_DAYS = 3650;

/** `GET /api/devices/types/` → `{data: {data: DeviceType[]}}` (docs/contract.md, "HTTP calls"). */
export const deviceTypeSchema = z.object({
  id: z.number().int(),
  slug: z.enum(DEVICE_TYPE_SLUGS),
  /** In the language of the request (`Accept-Language`). */
  name: z.string(),
  telemetry: z.array(z.enum(TELEMETRY_KINDS)),
  /** Default hours between washes; null for types that do not wash (they never count as outdated). */
  wash_interval_hours: z.number().int().nullable(),
  /** How many programs a device of this type stores; null when it takes no recipes. */
  program_capacity: z.number().int().nullable(),
});
export type DeviceType = z.infer<typeof deviceTypeSchema>;

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 is refused). */
export const dateSchema = z.string().refine(
  (value) => {
    if (!DATE_PATTERN.test(value)) return false;
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  },
  { params: { key: 'field.date' } },
);

export const deviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type_id: z.number().int(),
  room_id: z.number().int(),
  address_id: z.number().int(),
  serial_number: z.string().nullable(),
  controller_id: z.string().nullable(),
  template_id: z.number().int().nullable(),
  /** docs/contract.md, "Entities": a device counts as smart if it has a controller_id or a template_id. */
  is_smart: z.boolean(),
  /** Planned local time of day at the address (`HH:MM`), or null. */
  shift_start: z.string().nullable(),
  /** Hours between washes for this device; null means the type's default. */
  wash_interval_hours: z.number().int().nullable(),
  service_interval_days: z.number().int().nullable(),
  next_service_date: z.string().nullable(),
  notes: z.string().nullable(),
  /** docs/contract.md, "Entities"; filled by the telemetry gateway. */
  last_online: z.object({ last_utc: z.string().nullable() }),
  /** docs/contract.md, "Entities": today's observed start of work at the address (local date and time), when known. */
  work_start: z.object({ date: z.string().nullable(), start: z.string().nullable() }),
  /** Whether a gateway credential has been issued (the secret itself is shown only once). */
  has_credential: z.boolean(),
  credential_issued_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Device = z.infer<typeof deviceSchema>;

/** A device as the create and rotate calls answer it: once, with its gateway credential. */
export const deviceWithCredentialSchema = deviceSchema.extend({ credential: z.string().nullable() });
export type DeviceWithCredential = z.infer<typeof deviceWithCredentialSchema>;

/** `POST /api/devices/` and `PUT /api/devices/{id}` (PUT takes the whole device). */
export const deviceBodySchema = z
  .object({
    name: z.string().trim().min(1).max(DEVICE_NAME_MAX_LENGTH),
    type_id: z.number().int().positive(),
    room_id: z.number().int().positive(),
    serial_number: optionalText(SERIAL_NUMBER_MAX_LENGTH),
    controller_id: z
      .string()
      .trim()
      .refine((value) => value === '' || CONTROLLER_ID_PATTERN.test(value), {
        params: { key: 'field.controller_id' },
      })
      .nullish()
      .transform((value) => (value ? value : null)),
    template_id: z.number().int().positive().nullish().default(null),
    shift_start: timeOfDaySchema.nullish().default(null),
    wash_interval_hours: z.number().int().min(1).max(WASH_INTERVAL_MAX_HOURS).nullish().default(null),
    service_interval_days: z.number().int().min(1).max(SERVICE_INTERVAL_MAX_DAYS).nullish().default(null),
    next_service_date: dateSchema.nullish().default(null),
    notes: optionalText(NOTES_MAX_LENGTH),
  })
  .strict();
export type DeviceBody = z.input<typeof deviceBodySchema>;

/**
 * `GET /api/devices/`: without `page` every device of the organisation as `{data: [...]}` (the
 * console's reference data, docs/contract.md, "Product and areas"); with `page` a paged list. `search` matches name, serial
 * number and controller id; `sort` is a field, `-field` for descending.
 */
export const DEVICE_SORT_FIELDS = ['name', 'created_at', 'next_service_date', 'last_online'] as const;
export const devicesListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  filters: filtersParamSchema.optional(),
  search: z.string().trim().max(100).optional(),
  sort: z
    .string()
    .refine((value) => (DEVICE_SORT_FIELDS as readonly string[]).includes(value.replace(/^-/, '')), {
      params: { key: 'field.sort' },
    })
    .optional(),
});

export const deviceGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  device_ids: z.array(z.number().int()),
  devices_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DeviceGroup = z.infer<typeof deviceGroupSchema>;

/** `POST /api/devices/client/groups/add` and `PUT /api/devices/client/groups/{id}`. */
export const deviceGroupBodySchema = z
  .object({
    name: z.string().trim().min(1).max(GROUP_NAME_MAX_LENGTH),
    description: optionalText(DESCRIPTION_MAX_LENGTH),
    device_ids: z.array(z.number().int().positive()).max(GROUP_MAX_DEVICES).default([]),
  })
  .strict();
export type DeviceGroupBody = z.input<typeof deviceGroupBodySchema>;

/** `GET /api/devices/client/groups` (docs/contract.md, "Entities": page and filters). */
export const deviceGroupsListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  filters: filtersParamSchema.optional(),
});

export const SERVICE_ENTRY_KINDS = ['maintenance', 'repair', 'part_replaced', 'inspection'] as const;
export type ServiceEntryKind = (typeof SERVICE_ENTRY_KINDS)[number];
export const SERVICE_NOTE_MAX_LENGTH = 2000;
export const PERFORMER_MAX_LENGTH = 255;
export const PART_MAX_LENGTH = 255;

export const serviceEntrySchema = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  date: z.string(),
  kind: z.enum(SERVICE_ENTRY_KINDS),
  /** Who did the work (an engineer or a company), as written. */
  performed_by: z.string(),
  part: z.string().nullable(),
  note: z.string().nullable(),
  /** The console user who wrote the entry. */
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type ServiceEntry = z.infer<typeof serviceEntrySchema>;

/** `POST /api/devices/{id}/service_log`. */
export const serviceEntryBodySchema = z
  .object({
    date: dateSchema,
    kind: z.enum(SERVICE_ENTRY_KINDS),
    performed_by: z.string().trim().min(1).max(PERFORMER_MAX_LENGTH),
    part: optionalText(PART_MAX_LENGTH),
    note: optionalText(SERVICE_NOTE_MAX_LENGTH),
  })
  .strict()
  .refine((body) => body.kind !== 'part_replaced' || body.part !== null, {
    path: ['part'],
    params: { key: 'field.required' },
  });
export type ServiceEntryBody = z.input<typeof serviceEntryBodySchema>;
