import {
  CONNECTION_GAP_MS,
  MAX_TELEMETRY_DEVICES,
  MAX_TELEMETRY_RANGE_DAYS,
  RESOLUTIONS,
  type Resolution,
} from '@kontrol/contracts';

/**
 * What the telemetry tab shows, as its query string holds it (docs/telemetry.md, "The telemetry
 * page"): the devices, a period (a preset, or `start`/`finish` for one of the user's own), the
 * resolution, the page of raw samples and whether the min–max bands show.
 */
export const TELEMETRY_PARAMS = {
  devices: '',
  period: '24h',
  start: '',
  finish: '',
  resolution: 'auto',
  samples_page: '1',
  band: 'on',
} as const;
export type TelemetryParams = Record<keyof typeof TELEMETRY_PARAMS, string>;

export const PERIOD_PRESETS = ['today', '24h', '7d', '30d'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export type PeriodChoice = PeriodPreset | 'custom';

export interface Period {
  start: number;
  finish: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** "Now" for the presets: the end of the current minute, so a period stays put for a minute. */
export function presetAnchor(now: number = Date.now()): number {
  return Math.ceil(now / MINUTE_MS) * MINUTE_MS;
}

/** A preset's period ending at `now`; "today" begins at the browser's local midnight. */
export function presetPeriod(preset: PeriodPreset, now: number): Period {
  switch (preset) {
    case 'today': {
      const midnight = new Date(now);
      midnight.setHours(0, 0, 0, 0);
      return { start: midnight.getTime(), finish: now };
    }
    case '24h':
      return { start: now - 24 * HOUR_MS, finish: now };
    case '7d':
      return { start: now - 7 * DAY_MS, finish: now };
    case '30d':
      return { start: now - 30 * DAY_MS, finish: now };
  }
}

/** A moment of the query string (ISO 8601, or a `datetime-local` value read as local time). */
export function parseMoment(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** `devices=3,1,2`: positive whole ids, each once, in the order given, at most {@link MAX_TELEMETRY_DEVICES}. */
export function parseDeviceIds(text: string): number[] {
  const ids = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d{1,10}$/.test(part))
    .map(Number)
    .filter((id) => id > 0);
  return [...new Set(ids)].slice(0, MAX_TELEMETRY_DEVICES);
}

export function parseResolution(text: string): Resolution {
  return (RESOLUTIONS as readonly string[]).includes(text) ? (text as Resolution) : 'auto';
}

export function parsePage(text: string): number {
  const page = Number.parseInt(text, 10);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/**
 * The period of the query string: `start` and `finish` when both are moments (the user's own),
 * else the preset ending at `now`.
 */
export function periodOf(params: Pick<TelemetryParams, 'period' | 'start' | 'finish'>, now: number) {
  const start = parseMoment(params.start);
  const finish = parseMoment(params.finish);
  if (start !== null && finish !== null)
    return { choice: 'custom' as PeriodChoice, period: { start, finish } };
  const preset = (PERIOD_PRESETS as readonly string[]).includes(params.period)
    ? (params.period as PeriodPreset)
    : '24h';
  return { choice: preset as PeriodChoice, period: presetPeriod(preset, now) };
}

/** Why a period cannot be asked for (the server's own rule), or null. */
export function periodProblem(period: Period): 'order' | 'too_long' | null {
  if (!(period.finish > period.start)) return 'order';
  if (period.finish - period.start > MAX_TELEMETRY_RANGE_DAYS * DAY_MS) return 'too_long';
  return null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A moment as a `datetime-local` input shows it: local time, to the minute. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(
    d.getMinutes(),
  )}`;
}

/** A `datetime-local` value (local time) as epoch milliseconds, or null when incomplete. */
export function fromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** The browser's IANA time zone: the CSV's times and the day buckets are in it. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Where a line breaks at each resolution: a gap longer than this has no samples in it. */
export const GAP_MS: Record<Exclude<Resolution, 'auto'>, number> = {
  raw: CONNECTION_GAP_MS,
  minute: CONNECTION_GAP_MS,
  hour: 2 * HOUR_MS,
  day: 2 * DAY_MS,
};
