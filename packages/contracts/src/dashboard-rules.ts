// Kept free of zod: the console's dashboard recomputes these on every live update.
import { OFFLINE_THRESHOLD_MINUTES, WORK_START_THRESHOLD_MINUTES } from './constants.js';
import { localDateTime, zoneOffsetMs } from './time-zones.js';

/**
 * The dashboard's rules (docs/contract.md, "Dashboard rules", docs/dashboard.md), one pure function each,
 * shared by the server (`GET /api/devices/stat`) and the console (which recomputes them as live
 * updates arrive). `now` is epoch milliseconds (UTC).
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** What the rules read of a device (the `devices` rows of `GET /api/devices/stat`). */
export interface DashboardRuleDevice {
  is_smart: boolean;
  template_id: number | null;
  /** Planned local time of day at the address, `HH:MM`. */
  shift_start: string | null;
  /** IANA zone of the device's address. */
  time_zone: string;
  last_online: { last_utc: string | null };
  /** The observed start of work: local date and `HH:MM` at the address. */
  work_start: { date: string | null; start: string | null };
  /** The device's wash interval (its own, else its type's); null: it does not wash. */
  wash_interval_hours: number | null;
  /** The end of the last completed wash (ISO), if any. */
  last_wash_at: string | null;
  /** Open device events (problems) of the device. */
  open_events: number;
  /**
   * Open complaints (status new or in progress) naming the device; absent counts as none (answers
   * and fixtures from before complaints).
   */
  open_complaints?: number;
}

/** Offline: never online, or last online more than 1 440 minutes ago. */
export function isOffline(device: Pick<DashboardRuleDevice, 'last_online'>, now: number): boolean {
  const last = device.last_online.last_utc;
  if (last === null) return true;
  return now - Date.parse(last) > OFFLINE_THRESHOLD_MINUTES * MINUTE_MS;
}

/** Online: last online 1 440 minutes ago or less. */
export function isOnline(device: Pick<DashboardRuleDevice, 'last_online'>, now: number): boolean {
  return !isOffline(device, now);
}

/**
 * The moment (epoch ms, UTC) today's shift starts: the address's local date at `now`, at the
 * local `shift_start` of that date in the address's zone.
 */
export function shiftStartUtc(shiftStart: string, timeZone: string, now: number): number {
  const today = localDateTime(now, timeZone).date;
  const [year = 0, month = 1, day = 1] = today.split('-').map(Number);
  const [hours = 0, minutes = 0] = shiftStart.split(':').map(Number);
  // The wall-clock time read as if it were UTC, moved by the zone's offset; the offset is read
  // again at the first answer, so a daylight-saving change earlier that day is taken into account.
  const guess = Date.UTC(year, month - 1, day, hours, minutes);
  const first = guess - zoneOffsetMs(guess, timeZone);
  return guess - zoneOffsetMs(first, timeZone);
}

/**
 * Today's local date and shift moments per zone at one `now`: a fleet has few zones and few shift
 * times, and reading a zone's calendar (Intl) costs far more than the rules themselves.
 */
export class ZoneDay {
  private readonly dates = new Map<string, string>();
  private readonly shifts = new Map<string, number>();
  constructor(readonly now: number) {}

  today(timeZone: string): string {
    let date = this.dates.get(timeZone);
    if (date === undefined) this.dates.set(timeZone, (date = localDateTime(this.now, timeZone).date));
    return date;
  }

  shiftStart(shiftStart: string, timeZone: string): number {
    const key = `${timeZone} ${shiftStart}`;
    let moment = this.shifts.get(key);
    if (moment === undefined) this.shifts.set(key, (moment = shiftStartUtc(shiftStart, timeZone, this.now)));
    return moment;
  }
}

/**
 * Slow to start work: a smart device with a shift start whose shift has begun (its UTC moment is
 * past the current UTC time by more than the 0-minute threshold) and that has no work start today
 * (local date at the address), or a work start later than its shift start.
 */
export function isWorkStartedSlow(
  device: Pick<DashboardRuleDevice, 'is_smart' | 'shift_start' | 'time_zone' | 'work_start'>,
  now: number,
  zones: ZoneDay = new ZoneDay(now),
): boolean {
  if (!device.is_smart || device.shift_start === null) return false;
  const startsAt = zones.shiftStart(device.shift_start, device.time_zone);
  if (now <= startsAt + WORK_START_THRESHOLD_MINUTES * MINUTE_MS) return false;
  const today = zones.today(device.time_zone);
  const { date, start } = device.work_start;
  if (date !== today || start === null) return true;
  return start > device.shift_start;
}

/**
 * Wash outdated: a smart device that washes (it has a wash interval) whose last completed wash
 * ended longer ago than that interval, or that has never completed one.
 */
export function isWashOutdated(
  device: Pick<DashboardRuleDevice, 'is_smart' | 'wash_interval_hours' | 'last_wash_at'>,
  now: number,
): boolean {
  if (!device.is_smart) return false;
  return washOverdue(
    device.wash_interval_hours,
    device.last_wash_at === null ? undefined : Date.parse(device.last_wash_at),
    now,
  );
}

/** The wash rule itself (also the device page's "overdue" badge): an interval and no wash within it. */
export function washOverdue(
  intervalHours: number | null,
  lastCompleted: number | undefined,
  now: number,
): boolean {
  return (
    intervalHours !== null && (lastCompleted === undefined || now - lastCompleted > intervalHours * HOUR_MS)
  );
}

/** Without norm: a smart device with no current template. */
export function isWithoutNorm(device: Pick<DashboardRuleDevice, 'is_smart' | 'template_id'>): boolean {
  return device.is_smart && device.template_id === null;
}

/** Has an issue: at least one open device event, or an open complaint naming it. */
export function hasIssue(device: Pick<DashboardRuleDevice, 'open_events' | 'open_complaints'>): boolean {
  return device.open_events > 0 || (device.open_complaints ?? 0) > 0;
}

/** The six counters of docs/contract.md, "Product and areas", in its order; each is also a filter of the device list. */
/** The metrics a device's day on the dashboard can draw by the minute (`current` by default). */
export const DASHBOARD_REPORTS = ['current', 'temperature'] as const;

export const DASHBOARD_COUNTERS = [
  'online',
  'offline',
  'washOutdated',
  'workStartedSlow',
  'issueReports',
  'devicesWithoutTmplNorma',
] as const;
export type DashboardCounter = (typeof DASHBOARD_COUNTERS)[number];
export type DashboardCounters = Record<DashboardCounter, number>;

/** Whether a device counts in a counter (the device list's `problem` filter uses the same test). */
export function countsIn(
  counter: DashboardCounter,
  device: DashboardRuleDevice,
  now: number,
  zones: ZoneDay = new ZoneDay(now),
): boolean {
  switch (counter) {
    case 'online':
      return isOnline(device, now);
    case 'offline':
      return isOffline(device, now);
    case 'washOutdated':
      return isWashOutdated(device, now);
    case 'workStartedSlow':
      return isWorkStartedSlow(device, now, zones);
    case 'issueReports':
      return hasIssue(device);
    case 'devicesWithoutTmplNorma':
      return isWithoutNorm(device);
  }
}

export function dashboardCounters(devices: readonly DashboardRuleDevice[], now: number): DashboardCounters {
  const counters: DashboardCounters = {
    online: 0,
    offline: 0,
    washOutdated: 0,
    workStartedSlow: 0,
    issueReports: 0,
    devicesWithoutTmplNorma: 0,
  };
  const zones = new ZoneDay(now);
  for (const device of devices) {
    if (isOffline(device, now)) counters.offline += 1;
    else counters.online += 1;
    if (isWashOutdated(device, now)) counters.washOutdated += 1;
    if (isWorkStartedSlow(device, now, zones)) counters.workStartedSlow += 1;
    if (hasIssue(device)) counters.issueReports += 1;
    if (isWithoutNorm(device)) counters.devicesWithoutTmplNorma += 1;
  }
  return counters;
}
