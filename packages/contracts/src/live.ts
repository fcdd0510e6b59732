import { z } from 'zod';
import type { ModuleSlug } from './modules.js';
import { notificationSchema } from './notifications.js';
import { DEVICE_STATES, MAX_TELEMETRY_DEVICES, idListSchema, telemetrySeriesSchema } from './telemetry.js';

/**
 * Live updates (docs/live-updates.md): `GET /api/live` is a Server-Sent Events stream of the
 * caller's organisation. It sends a `devices` event when devices report (their new last online
 * moment, state and readings) and, for the devices named in `?devices=`, a `samples` event with
 * their new raw samples, which an open chart appends. A `device_events` event names the device
 * events that opened, closed or changed (docs/events.md), so the dashboard and the event lists
 * read them again. A `notifications` event carries the caller's own new notifications that pass
 * their settings (docs/notifications.md): the web channel.
 */
export const LIVE_PATH = '/api/live';

export const LIVE_EVENTS = {
  devices: 'devices',
  samples: 'samples',
  deviceEvents: 'device_events',
  notifications: 'notifications',
} as const;

/** Asking for `samples` events (screens that draw a device's samples) needs one of these. */
export const LIVE_SAMPLE_MODULES: readonly ModuleSlug[] = ['devices', 'telemetry'];

/** How often each API process looks for devices that reported (the most an update waits). */
export const LIVE_POLL_MS = 1_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** What the browser waits before reconnecting a dropped stream (the SSE `retry:` field). */
export const LIVE_RETRY_MS = 3_000;
/** Most new samples of one device in one `samples` event (older ones are left to a reload). */
export const LIVE_MAX_SAMPLES = 600;
/** Most notifications in one `notifications` event (the newest; the rest are in the list). */
export const LIVE_MAX_NOTIFICATIONS = 20;

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
