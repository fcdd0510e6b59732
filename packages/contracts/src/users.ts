import { z } from 'zod';
import { idSchema } from './ids.js';
import { aclModuleSchema } from './acl.js';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, USER_ROLES, USER_STATUSES } from './auth.js';
import { LOCALES } from './constants.js';
import { nameSchema } from './names.js';
import { EVENT_KINDS } from './events.js';
import { NOTIFICATION_SEVERITIES } from './notifications.js';
import { filtersParamSchema, MAX_PER_PAGE, pagedSchema } from './pagination.js';
import { DEFAULT_TIME_ZONE, timeOfDaySchema, timeZoneSchema } from './places.js';

/**
 * Users of an organisation and their notification settings (docs/contract.md, "Product and areas", "Entities" user
 * labels, docs/contract.md, "Users and access control"). docs/people.md says who may do what.
 */

/** An invitation link is valid this long; the admin can send a new one. */
export const INVITATION_TTL_HOURS = 7 * 24;

/** A user as the users screens see them. `status` is verified once the e-mail is proven. */
export const userSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES),
  acl_role_id: z.number().int().nullable(),
  acl_role: z
    .object({ id: z.number().int(), name: z.string(), modules: z.array(aclModuleSchema) })
    .nullable(),
  locale: z.enum(LOCALES),
  /** Disabled users cannot sign in; their sessions and tokens have ended. */
  disabled: z.boolean(),
  /** Invited and has not yet chosen a password. */
  invitation_pending: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

/**
 * `GET /api/users/?page` (filters: id, role, status, acl_role_id `=`/`in`; name, email `=`/`like`;
 * disabled `=`). Without `page` the answer is the whole list, so nothing here has a default
 * (`pageQuerySchema.partial()` would keep its defaults and always page).
 */
export const usersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).optional(),
  filters: filtersParamSchema.optional(),
});
export const usersPageSchema = pagedSchema(userSchema);

/** The name the invitation e-mail greets by: no links, e-mail addresses or control characters. */
const name = nameSchema(NAME_MAX_LENGTH);
const email = z.email().max(EMAIL_MAX_LENGTH);

/** `POST /api/users/add`: the new user gets an invitation e-mail to choose a password. */
export const userAddBodySchema = z.object({
  name,
  email,
  role: z.enum(USER_ROLES).default('regular'),
  acl_role_id: idSchema.nullable().default(null),
  locale: z.enum(LOCALES).default('ru'),
});
export type UserAddBody = z.input<typeof userAddBodySchema>;

/** `PUT /api/users/{id}`: any subset of the fields; `disabled: true` ends the user's sessions. */
export const userUpdateBodySchema = z
  .object({
    name,
    email,
    role: z.enum(USER_ROLES),
    acl_role_id: idSchema.nullable(),
    locale: z.enum(LOCALES),
    disabled: z.boolean(),
  })
  .partial();
export type UserUpdateBody = z.input<typeof userUpdateBodySchema>;

/** What a notification can be about: a device event of any kind, a complaint, or a device over its limits. */
export const NOTIFICATION_KINDS = [...EVENT_KINDS, 'request', 'device_limit'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_CHANNELS = ['web', 'email', 'telegram'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * `GET/POST /api/users/{id}/settings`. Which notifications reach the user (kinds and severities)
 * and where (channels); during quiet hours (local to `time_zone`, may pass midnight) e-mail and
 * Telegram wait until they end — critical ones too unless `quiet_hours_critical` is true. The
 * notifications list always keeps everything; `web` is the pop-up in the console.
 */
export const userSettingsSchema = z
  .object({
    channels: z.object({ web: z.boolean(), email: z.boolean(), telegram: z.boolean() }),
    kinds: z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length),
    severities: z.array(z.enum(NOTIFICATION_SEVERITIES)).max(NOTIFICATION_SEVERITIES.length),
    quiet_hours: z.object({ start: timeOfDaySchema, end: timeOfDaySchema }).nullable(),
    quiet_hours_critical: z.boolean(),
    locale: z.enum(LOCALES),
    time_zone: timeZoneSchema,
  })
  .refine((s) => !s.quiet_hours || s.quiet_hours.start !== s.quiet_hours.end, {
    path: ['quiet_hours', 'end'],
    params: { key: 'field.quiet_hours_equal' },
  });
export type UserSettings = z.infer<typeof userSettingsSchema>;

/**
 * What a user who never saved settings gets: every channel (Telegram reaches only a chat the user
 * bound), warnings and above, every kind, no quiet hours.
 */
export const DEFAULT_USER_SETTINGS: Omit<UserSettings, 'locale'> = {
  channels: { web: true, email: true, telegram: true },
  kinds: [...NOTIFICATION_KINDS],
  severities: ['warning', 'critical'],
  quiet_hours: null,
  quiet_hours_critical: true,
  time_zone: DEFAULT_TIME_ZONE,
};
