import { z } from 'zod';
import { idSchema } from './ids.js';
import { filtersParamSchema, pageQuerySchema, pagedSchema } from './pagination.js';

/**
 * Notifications a user receives (docs/contract.md, "Product and areas"): raised by device events
 * and complaints, kept in the user's list, and copied to the channels the user chose
 * (docs/notifications.md).
 */
export const NOTIFICATION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  severity: z.enum(NOTIFICATION_SEVERITIES),
  title: z.string(),
  body: z.string(),
  device_id: z.number().int().nullable(),
  event_id: z.number().int().nullable(),
  /** The complaint it is about (kind `request`). */
  alert_id: z.number().int().nullable(),
  /**
   * When what it tells of happened: a device event's start (which may be well before the
   * notification was written: a rule's duration, history a device sent late), else `created_at`.
   * The lists show it and sort by it, newest first.
   */
  occurred_at: z.string(),
  /** When the notification was written. */
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/**
 * `GET /api/notifications` (page, filters) and `/api/notifications/excel` (filters, `tz`).
 * Filters: `kind`, `severity`, `device_id` (`=`, `in`), `occurred_at` and `created_at` (`>=`, `<=`,
 * `between`), `read_at` (`=` / `!=` null: unread / read).
 */
export const notificationsQuerySchema = pageQuerySchema.extend({
  filters: filtersParamSchema.optional(),
  tz: z.string().min(1).max(64).optional(),
});
export const notificationsPageSchema = pagedSchema(notificationSchema);

/** Most ids one `POST /api/notifications/read` may name. */
export const NOTIFICATIONS_READ_MAX_IDS = 1_000;

/**
 * `POST /api/notifications/read`: marks the caller's own notifications read — those in `ids`, or
 * all of them when `ids` is left out. An id that is not one of the caller's is a 422 on `ids`.
 */
export const notificationsReadBodySchema = z
  .object({
    ids: z.array(idSchema).min(1).max(NOTIFICATIONS_READ_MAX_IDS).optional(),
  })
  // No body at all (null) marks all too.
  .nullish();
export type NotificationsReadBody = z.input<typeof notificationsReadBodySchema>;

/** The answer to `POST /api/notifications/read`: how many became read, and how many stay unread. */
export const notificationsReadResultSchema = z.object({
  data: z.object({ marked: z.number().int(), unread: z.number().int() }),
});

/** `GET /api/notifications/unread`: the caller's unread notifications (a badge). */
export const notificationsUnreadSchema = z.object({ data: z.object({ unread: z.number().int() }) });
