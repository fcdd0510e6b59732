import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH, optionalText } from './places.js';
import { NOTIFICATION_SEVERITIES } from './notifications.js';
import { filtersParamSchema, pageQuerySchema, pagedSchema } from './pagination.js';
import { DEVICE_STATES, momentSchema } from './telemetry.js';

/**
 * Current templates ("Шаблоны тока", module `device_event_template`) and device events: docs/contract.md, "Screens and routes",
 * docs/contract.md, "Current templates and device events"; docs/events.md.
 *
 * A template is the norm of a device type's electric current — a band of current (A) per state —
 * and the rules that raise events. Devices point to it with `template_id`; the gateway runs its
 * rules on their samples as they arrive.
 */

export const TEMPLATE_NAME_MAX_LENGTH = 255;
export const EVENT_TITLE_MAX_LENGTH = 255;
export const EVENT_COMMENT_MAX_LENGTH = 2000;
export const MAX_TEMPLATE_RULES = 20;
/** The longest duration a rule may wait for (a week). */
export const MAX_RULE_MINUTES = 7 * 24 * 60;
/** The highest current a band may name (A); samples are limited to the same (SAMPLE_LIMITS). */
export const MAX_BAND_CURRENT_A = 1000;

/** States that have a band of normal current. */
export const NORM_STATES = ['idle', 'heating', 'cooking', 'washing'] as const;
export type NormState = (typeof NORM_STATES)[number];

export const EVENT_SEVERITIES = NOTIFICATION_SEVERITIES;
export type EventSeverity = (typeof EVENT_SEVERITIES)[number];

const amps = z.number().min(0).max(MAX_BAND_CURRENT_A);
export const bandSchema = z
  .object({ min: amps, max: amps })
  .strict()
  .refine((band) => band.min <= band.max, { path: ['max'], params: { key: 'field.band' } });
export type Band = z.infer<typeof bandSchema>;

/** A band per state; null where the template says nothing about that state. */
export const normsSchema = z
  .object({
    idle: bandSchema.nullish().default(null),
    heating: bandSchema.nullish().default(null),
    cooking: bandSchema.nullish().default(null),
    washing: bandSchema.nullish().default(null),
  })
  .strict();
export type Norms = z.output<typeof normsSchema>;

/**
 * The rules a template may hold (docs/events.md, "Rules"). Each condition opens one event when it
 * has held for `duration_minutes` and closes it at the first sample where it no longer holds.
 * - `current_above` / `current_below`: in `state`, the current is above the band's max / below its min;
 * - `no_data`: no sample for `duration_minutes` (checked on a timer);
 * - `state_too_long`: `state` (a wash that never ends) has lasted `duration_minutes`;
 * - `error_code`: the device reports an error code (any, or one of `codes`);
 * - `door_open_while_heating`: the door is open while the device heats or cooks.
 */
export const EVENT_RULE_KINDS = [
  'current_above',
  'current_below',
  'no_data',
  'state_too_long',
  'error_code',
  'door_open_while_heating',
] as const;
export type EventRuleKind = (typeof EVENT_RULE_KINDS)[number];
/** Events raised by rules, and those written by hand. */
export const EVENT_KINDS = [...EVENT_RULE_KINDS, 'manual'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** A rule's key within its template: what its events and the gateway's state name it by. */
export const RULE_KEY_PATTERN = /^[a-z0-9_-]{1,32}$/;
const ruleKey = z
  .string()
  .refine((value) => RULE_KEY_PATTERN.test(value), { params: { key: 'field.rule_key' } });
const minutes = z.number().int().min(0).max(MAX_RULE_MINUTES);
const ruleBase = {
  /** Given by the server when missing (`r1`, `r2`, …); kept when the template is edited. */
  key: ruleKey.optional(),
  severity: z.enum(EVENT_SEVERITIES).default('warning'),
  duration_minutes: minutes.default(0),
};
export const eventRuleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('current_above'), state: z.enum(NORM_STATES), ...ruleBase }).strict(),
  z.object({ kind: z.literal('current_below'), state: z.enum(NORM_STATES), ...ruleBase }).strict(),
  z
    .object({ kind: z.literal('no_data'), ...ruleBase, duration_minutes: minutes.min(1).default(30) })
    .strict(),
  z
    .object({
      kind: z.literal('state_too_long'),
      state: z.enum(DEVICE_STATES),
      ...ruleBase,
      duration_minutes: minutes.min(1),
    })
    .strict(),
  z
    .object({
      kind: z.literal('error_code'),
      codes: z.array(z.string().trim().min(1).max(32)).max(50).default([]),
      ...ruleBase,
    })
    .strict(),
  z.object({ kind: z.literal('door_open_while_heating'), ...ruleBase }).strict(),
]);
export type EventRuleInput = z.input<typeof eventRuleSchema>;
/** A rule as stored and answered: it always has its key. */
export type EventRule = z.output<typeof eventRuleSchema> & { key: string };

export const deviceEventTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** The device type whose current it describes. */
  device_type_id: z.number().int(),
  /** Set when the template is tuned for one device: only that device may use it. */
  device_id: z.number().int().nullable(),
  norms: z.object({
    idle: z.object({ min: z.number(), max: z.number() }).nullable(),
    heating: z.object({ min: z.number(), max: z.number() }).nullable(),
    cooking: z.object({ min: z.number(), max: z.number() }).nullable(),
    washing: z.object({ min: z.number(), max: z.number() }).nullable(),
  }),
  rules: z.array(z.custom<EventRule>()),
  /** The devices whose `template_id` is this template. */
  device_ids: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DeviceEventTemplate = z.infer<typeof deviceEventTemplateSchema>;

/**
 * `POST /api/devices/events/templates/add` and `PUT …/templates/{id}` (PUT takes the whole
 * template). `device_ids`, when given, is the whole list of devices that use the template: they
 * get its id as `template_id`, and devices it no longer lists lose it.
 */
export const deviceEventTemplateBodySchema = z
  .object({
    name: z.string().trim().min(1).max(TEMPLATE_NAME_MAX_LENGTH),
    description: optionalText(DESCRIPTION_MAX_LENGTH),
    device_type_id: z.number().int().positive(),
    device_id: z.number().int().positive().nullish().default(null),
    norms: normsSchema.default({ idle: null, heating: null, cooking: null, washing: null }),
    rules: z.array(eventRuleSchema).max(MAX_TEMPLATE_RULES).default([]),
    device_ids: z.array(z.number().int().positive()).max(10_000).optional(),
  })
  .strict();
export type DeviceEventTemplateBody = z.input<typeof deviceEventTemplateBodySchema>;

const person = z.object({ id: z.number().int(), name: z.string() });

export const deviceEventSchema = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  /** The device's name now (an event is deleted with its device). */
  device_name: z.string(),
  /** The template and rule that raised it; null for a manual event. */
  template_id: z.number().int().nullable(),
  rule_key: z.string().nullable(),
  kind: z.enum(EVENT_KINDS),
  severity: z.enum(EVENT_SEVERITIES),
  /** What happened, in the language of the request (a manual event's own title as written). */
  title: z.string(),
  description: z.string().nullable(),
  started_at: z.string(),
  /** Null while the condition still holds (the event is open). */
  ended_at: z.string().nullable(),
  /** The reading that opened it (A for current rules, minutes for durations), when there is one. */
  value: z.number().nullable(),
  acknowledged: z
    .object({ by: person.nullable(), at: z.string(), comment: z.string().nullable() })
    .nullable(),
  created_by: person.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DeviceEvent = z.infer<typeof deviceEventSchema>;

/** `POST /api/devices/events/add`: an event written by hand (a fault seen on site, a visit). */
export const deviceEventBodySchema = z
  .object({
    device_id: z.number().int().positive(),
    severity: z.enum(EVENT_SEVERITIES).default('info'),
    title: z.string().trim().min(1).max(EVENT_TITLE_MAX_LENGTH),
    description: optionalText(EVENT_COMMENT_MAX_LENGTH),
    /** ISO 8601 with a zone or epoch ms; now when missing. */
    started_at: momentSchema.optional(),
    /** Null or missing: the event is open until someone closes it. */
    ended_at: momentSchema.nullish(),
  })
  .strict();
export type DeviceEventBody = z.input<typeof deviceEventBodySchema>;

/**
 * `PUT /api/devices/events/{id}`: acknowledge (or take back the acknowledgement) with a comment;
 * a manual event may also change its title, description, severity and end, and be closed.
 * An event raised by a rule is closed by the rule, not by hand.
 */
export const deviceEventUpdateSchema = z
  .object({
    acknowledged: z.boolean().optional(),
    comment: optionalText(EVENT_COMMENT_MAX_LENGTH).optional(),
    title: z.string().trim().min(1).max(EVENT_TITLE_MAX_LENGTH).optional(),
    description: optionalText(EVENT_COMMENT_MAX_LENGTH).optional(),
    severity: z.enum(EVENT_SEVERITIES).optional(),
    /** Manual events only: when it ended (null opens it again). */
    ended_at: momentSchema.nullish(),
  })
  .strict();
export type DeviceEventUpdate = z.input<typeof deviceEventUpdateSchema>;

/**
 * `GET /api/devices/events`. With `page`: a paged list, newest first. Without it: what the console
 * loads on entry (docs/contract.md, "Product and areas") — every open event and those that started in the last 24 hours, at
 * most EVENTS_ENTRY_LIMIT, as `{data: [...]}`.
 * Filters: `device_id`, `device_type_id` (the device's type), `template_id`, `kind`, `severity` (`=`,
 * `in`); `started_at` (`>=`, `<=`, `between`); `ended_at` (`=` null: open, `!=` null: closed);
 * `acknowledged_at` (`=` / `!=` null).
 */
export const EVENTS_ENTRY_LIMIT = 1000;
/** Who may read device events: the template module's holders, and those of screens that show problems. */
export const EVENT_READER_MODULES = ['device_event_template', 'dashboard', 'devices'] as const;
export const deviceEventsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: pageQuerySchema.shape.per_page,
  filters: filtersParamSchema.optional(),
});
export const deviceEventsPageSchema = pagedSchema(deviceEventSchema);
