import { z } from 'zod';
import { DASHBOARD_COUNTERS, DASHBOARD_REPORTS } from './dashboard-rules.js';
import { dateSchema } from './equipment.js';
import { deviceEventSchema } from './events.js';
import { DEVICE_STATES } from './telemetry.js';

/**
 * The dashboard (docs/contract.md, "Product and areas" counters and widgets, "Dashboard rules", "HTTP calls" `/devices/stat`,
 * `/devices/reports/dashboard`, `/devices/info/prefer_graph`); docs/dashboard.md.
 */

/**
 * One device as the dashboard works with it: what the rules of dashboard-rules.ts read, its state,
 * and its name and place. The console has it from a stat device ({@link statDeviceSchema}) and the
 * device as the devices list gives it (dashboard-stat.ts, `fromStatDevice`).
 */
export const dashboardDeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type_id: z.number().int(),
  address_id: z.number().int(),
  room_id: z.number().int(),
  is_smart: z.boolean(),
  template_id: z.number().int().nullable(),
  shift_start: z.string().nullable(),
  time_zone: z.string(),
  last_online: z.object({ last_utc: z.string().nullable() }),
  work_start: z.object({ date: z.string().nullable(), start: z.string().nullable() }),
  wash_interval_hours: z.number().int().nullable(),
  last_wash_at: z.string().nullable(),
  /** The latest reported state, null when it never reported. */
  state: z.enum(DEVICE_STATES).nullable(),
  current: z.number().nullable(),
  temperature: z.number().nullable(),
  open_events: z.number().int(),
  /** Open complaints (status new or in progress, OPEN_COMPLAINT_STATUSES) naming the device. */
  open_complaints: z.number().int().optional(),
  /** The highest severity among its open events. */
  open_severity: z.enum(['info', 'warning', 'critical']).nullable(),
  /** When its oldest open event started. */
  problem_since: z.string().nullable(),
});
export type DashboardDevice = z.infer<typeof dashboardDeviceSchema>;

/**
 * One device of `GET /api/devices/stat` (docs/dashboard.md, "The stat answer"): what the rules read
 * and what changes, without what the devices list already gives (name, type, address, room), so
 * that a chain's 50 000 devices stay under 10 MB. A field at its empty value (null, false, 0, a
 * moment never seen) is left out. The live fields may be null in the console, where live updates
 * write them.
 */
export const statDeviceSchema = z.object({
  id: z.number().int(),
  /** IANA zone of the device's address. */
  time_zone: z.string(),
  is_smart: z.literal(true).optional(),
  template_id: z.number().int().optional(),
  shift_start: z.string().optional(),
  last_online: z.object({ last_utc: z.string().nullable() }).optional(),
  work_start: z.object({ date: z.string().nullable(), start: z.string().nullable() }).optional(),
  wash_interval_hours: z.number().int().optional(),
  last_wash_at: z.string().optional(),
  state: z.enum(DEVICE_STATES).nullable().optional(),
  current: z.number().nullable().optional(),
  temperature: z.number().nullable().optional(),
  open_events: z.number().int().optional(),
  open_complaints: z.number().int().optional(),
  open_severity: z.enum(['info', 'warning', 'critical']).optional(),
  problem_since: z.string().optional(),
});
export type StatDevice = z.infer<typeof statDeviceSchema>;

/**
 * `GET /api/devices/stat` and `/api/devices/stat/{type}` (a device type id or slug):
 * `{data: {devices, issues_count, bad_devices_for_templates, counters, now}}`.
 * `issues_count` is the number of devices with open events or open complaints (`issueReports`);
 * `bad_devices_for_templates` the number of smart devices without a current template; `counters`
 * the six counters computed at `now`.
 */
export const deviceStatSchema = z.object({
  devices: z.array(statDeviceSchema),
  issues_count: z.number().int(),
  bad_devices_for_templates: z.number().int(),
  counters: z.object(
    Object.fromEntries(DASHBOARD_COUNTERS.map((name) => [name, z.number().int()])) as Record<
      (typeof DASHBOARD_COUNTERS)[number],
      z.ZodNumber
    >,
  ),
  /** The server's clock when it counted (ISO). */
  now: z.string(),
});
export type DeviceStat = z.infer<typeof deviceStatSchema>;

/**
 * `GET /api/devices/info/prefer_graph`: `date` (YYYY-MM-DD) in `tz` (an IANA zone; UTC by default),
 * the devices of one `type` (its id or slug, as `/devices/stat/{type}`) or all of them.
 */
export const preferGraphQuerySchema = z.object({
  date: dateSchema,
  tz: z.string().min(1).max(64).optional(),
  type: z.string().min(1).max(64).optional(),
});
/** Per hour of the day (24 entries, 23 or 25 across a daylight-saving change): devices that reported, worked and washed. */
export const preferGraphSchema = z.object({
  date: z.string(),
  time_zone: z.string(),
  hours: z.array(
    z.object({
      /** The hour's start (ISO, UTC) and its local label `HH:00`. */
      start: z.string(),
      label: z.string(),
      online: z.number().int(),
      working: z.number().int(),
      washing: z.number().int(),
    }),
  ),
});
export type PreferGraph = z.infer<typeof preferGraphSchema>;

/**
 * `GET /api/devices/reports/dashboard` (date, device, report): one device's local day at its
 * address. `report` picks the metric drawn by the minute (`current` by default, or `temperature`,
 * `DASHBOARD_REPORTS` in dashboard-rules.ts); the answer also holds the day's events, washes and work.
 */
export const dashboardReportQuerySchema = z.object({
  date: dateSchema,
  device: z.coerce.number().int().min(1),
  report: z.enum(DASHBOARD_REPORTS).default('current'),
});
export const dashboardReportSchema = z.object({
  device_id: z.number().int(),
  date: z.string(),
  time_zone: z.string(),
  report: z.enum(DASHBOARD_REPORTS),
  /** By the minute: start of each minute (epoch ms), mean, min and max; null where no sample came. */
  t: z.array(z.number()),
  mean: z.array(z.number().nullable()),
  min: z.array(z.number().nullable()),
  max: z.array(z.number().nullable()),
  /** The template's bands, for the current report of a device with a template. */
  norms: z.record(z.string(), z.object({ min: z.number(), max: z.number() }).nullable()).nullable(),
  events: z.array(deviceEventSchema),
  washes: z.array(
    z.object({ start: z.string(), finish: z.string(), outcome: z.enum(['completed', 'aborted']) }),
  ),
  work: z.object({
    start: z.string().nullable(),
    end: z.string().nullable(),
    worked_minutes: z.number().int(),
  }),
});
export type DashboardReport = z.infer<typeof dashboardReportSchema>;
