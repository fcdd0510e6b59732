import { z } from 'zod';
import { notificationSchema } from './notifications.js';
import { DEVICE_STATES, MAX_TELEMETRY_DEVICES, idListSchema, telemetrySeriesSchema } from './telemetry.js';

import { LIVE_MAX_NOTIFICATIONS } from './live-constants.js';

// The stream's path, event names and limits: live-constants.ts.

export const liveQuerySchema = z.object({
  /** Devices whose new samples the caller wants (an open chart); at most MAX_TELEMETRY_DEVICES. */
  devices: idListSchema.pipe(z.array(z.number()).max(MAX_TELEMETRY_DEVICES)).optional(),
});

/** One device that reported since the last event. */
export const liveDeviceSchema = z.object({
  id: z.number().int(),
  last_online: z.object({ last_utc: z.string() }),
  work_start: z.object({ date: z.string().nullable(), start: z.string().nullable() }),
  state: z.enum(DEVICE_STATES).nullable(),
  current: z.number().nullable(),
  temperature: z.number().nullable(),
});
export type LiveDevice = z.infer<typeof liveDeviceSchema>;

export const liveDevicesEventSchema = z.object({ data: z.array(liveDeviceSchema) });
export type LiveDevicesEvent = z.infer<typeof liveDevicesEventSchema>;

/** New raw samples, columnar as `GET /api/telemetry/?resolution=raw` answers them. */
export const liveSamplesEventSchema = z.object({ data: z.array(telemetrySeriesSchema) });
export type LiveSamplesEvent = z.infer<typeof liveSamplesEventSchema>;

/** Device events that opened, closed or changed since the last `device_events` event. */
export const liveDeviceEventSchema = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  kind: z.string(),
  severity: z.enum(['info', 'warning', 'critical']),
  started_at: z.string(),
  ended_at: z.string().nullable(),
});
export const liveDeviceEventsEventSchema = z.object({ data: z.array(liveDeviceEventSchema) });
export type LiveDeviceEventsEvent = z.infer<typeof liveDeviceEventsEventSchema>;

/**
 * The caller's own notifications that arrived since the last `notifications` event and pass their
 * settings (web channel on, kind and severity chosen), newest first.
 */
export const liveNotificationsEventSchema = z.object({
  data: z.array(notificationSchema).max(LIVE_MAX_NOTIFICATIONS),
});
export type LiveNotificationsEvent = z.infer<typeof liveNotificationsEventSchema>;
