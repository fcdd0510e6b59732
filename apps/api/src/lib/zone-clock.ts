import { zoneOffsetMs } from '@kontrol/contracts';

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** `00` … `59`. */
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));

const mod = (value: number, by: number) => ((value % by) + by) % by;

/** `+03:00`, `-03:30`, `+05:45`. */
function offsetText(offset: number): string {
  const minutes = Math.abs(offset) / MINUTE_MS;
  return `${offset < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Wall-clock times of many moments in one IANA zone, without a call to Intl per moment: Intl's
 * `formatToParts` costs microseconds and allocates a dozen objects, which made it the largest cost
 * of a report of 1 000 devices and of a CSV export of a million rows. The zone's offset comes from
 * the contracts' `zoneOffsetMs`, which reads it once per quarter hour of UTC and stays exact across
 * a change; the rest is arithmetic.
 */
export class ZoneClock {
  private localHour = Number.NaN;
  private hourPrefix = '';
  private suffixOffset = Number.NaN;
  private suffix = '';

  constructor(readonly timeZone: string) {}

  /** How far the zone is ahead of UTC at `ts` (epoch ms), in ms. */
  offset(ts: number): number {
    return zoneOffsetMs(ts, this.timeZone);
  }

  /** `HH:MM` of `ts` in the zone. */
  time(ts: number): string {
    const minuteOfDay = Math.floor(mod(ts + this.offset(ts), DAY_MS) / MINUTE_MS);
    return `${TWO_DIGITS[Math.floor(minuteOfDay / 60)]}:${TWO_DIGITS[minuteOfDay % 60]}`;
  }

  /** `YYYY-MM-DDTHH:MM:SS±HH:MM` of `ts` in the zone (milliseconds dropped). */
  iso(ts: number): string {
    const offset = this.offset(ts);
    const local = ts + offset;
    const inHour = mod(local, HOUR_MS);
    const localHour = local - inHour;
    if (localHour !== this.localHour) {
      this.localHour = localHour;
      this.hourPrefix = new Date(localHour).toISOString().slice(0, 14);
    }
    if (offset !== this.suffixOffset) {
      this.suffixOffset = offset;
      this.suffix = offsetText(offset);
    }
    return (
      this.hourPrefix +
      (TWO_DIGITS[Math.floor(inHour / MINUTE_MS)] as string) +
      ':' +
      (TWO_DIGITS[Math.floor(mod(inHour, MINUTE_MS) / SECOND_MS)] as string) +
      this.suffix
    );
  }
}

const clocks = new Map<string, ZoneClock>();

/** The process's clock of `timeZone` (one per zone, so its offsets are read once). */
export function zoneClock(timeZone: string): ZoneClock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new ZoneClock(timeZone);
    clocks.set(timeZone, clock);
  }
  return clock;
}
