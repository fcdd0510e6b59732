/**
 * Calendar arithmetic in IANA time zones with the platform's Intl only (no library): what the
 * gateway needs for `work_start` and the reports need for "a local day at this address".
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let cached = formats.get(timeZone);
  if (!cached) {
    cached = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, cached);
  }
  return cached;
}

function parts(ts: number, timeZone: string) {
  const out: Record<string, string> = {};
  for (const part of format(timeZone).formatToParts(ts)) out[part.type] = part.value;
  return out as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string>;
}

/** The zone's offset at `ts` (to the second), read from Intl: about 20 µs a call. */
function readOffsetMs(ts: number, timeZone: string): number {
  const p = parts(ts, timeZone);
  const asUtc = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return asUtc - (ts - (ts % 1000));
}

const QUARTER_HOUR_MS = 900_000;
/** Quarter hours whose offset each zone has read (NaN: the offset changes inside it). */
const offsets = new Map<string, Map<number, number>>();
/** Quarter hours kept per zone: a day and a half of one device's work, or a report's range. */
const OFFSETS_KEPT = 256;

/**
 * How far `timeZone` is ahead of UTC at `ts`, in ms. The ingest asks this for every sample's
 * minute, so the offset is read once per zone and quarter hour of UTC: when it is the same at the
 * quarter's first and last second, it holds throughout (zones change at most once in 15 minutes);
 * a quarter with a change is read at each moment asked.
 */
export function zoneOffsetMs(ts: number, timeZone: string): number {
  const quarter = Math.floor(ts / QUARTER_HOUR_MS);
  let zone = offsets.get(timeZone);
  let offset = zone?.get(quarter);
  if (offset === undefined) {
    const start = quarter * QUARTER_HOUR_MS;
    const first = readOffsetMs(start, timeZone);
    offset = readOffsetMs(start + QUARTER_HOUR_MS - 1000, timeZone) === first ? first : Number.NaN;
    if (!zone) offsets.set(timeZone, (zone = new Map<number, number>()));
    if (zone.size >= OFFSETS_KEPT) zone.clear();
    zone.set(quarter, offset);
  }
  return Number.isNaN(offset) ? readOffsetMs(ts, timeZone) : offset;
}

/** `YYYY-MM-DD` and `HH:MM` of `ts` (epoch ms) in `timeZone`. */
export function localDateTime(ts: number, timeZone: string): { date: string; time: string } {
  const local = new Date(ts + zoneOffsetMs(ts, timeZone)).toISOString();
  return { date: local.slice(0, 10), time: local.slice(11, 16) };
}

/** The moment (epoch ms) a local date `YYYY-MM-DD` begins in `timeZone`. */
export function zonedDayStart(date: string, timeZone: string): number {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const guess = Date.UTC(year, month - 1, day);
  const first = guess - zoneOffsetMs(guess, timeZone);
  // Across a daylight-saving change the offset at midnight differs from the one at the guess.
  const second = guess - zoneOffsetMs(first, timeZone);
  return second;
}

/** The dates from `start` to `finish` (`YYYY-MM-DD`, both included). */
export function datesBetween(start: string, finish: string): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${finish}T00:00:00Z`); t += 86_400_000) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}
