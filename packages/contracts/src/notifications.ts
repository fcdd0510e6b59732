import { z } from 'zod';
import { filtersParamSchema, pageQuerySchema, pagedSchema } from './pagination.js';

/** Notifications a user receives (SPEC §1 "Telemetry and notifications"; raised by device events). */
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
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/**
 * `GET /api/notifications` (page, filters) and `/api/notifications/excel` (filters, `tz`).
 * Filters: `kind`, `severity`, `device_id` (`=`, `in`), `created_at` (`>=`, `<=`, `between`),
 * `read_at` (`=` / `!=` null: unread / read).
 */
export const notificationsQuerySchema = pageQuerySchema.extend({
  filters: filtersParamSchema.optional(),
  tz: z.string().min(1).max(64).optional(),
});
export const notificationsPageSchema = pagedSchema(notificationSchema);
