// Kept free of zod so the console can import it without evaluating the validator (live.ts holds
// the schemas).
import type { ModuleSlug } from './modules.js';

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
