/**
 * Local days of a kitchen (its own clock: "shift start 08:00" in Novosibirsk is 01:00 UTC), on
 * top of the zone arithmetic in @kontrol/contracts.
 */

import { localDateTime, zoneOffsetMs } from '@kontrol/contracts';

export { isTimeZone } from '@kontrol/contracts';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * The epoch ms of a wall-clock moment: `minutes` after local midnight of the calendar day
 * `dayNumber` (days since 1970-01-01). Two passes settle the offset around DST changes.
 */
export function localToEpoch(dayNumber: number, minutes: number, timeZone: string): number {
  const wall = dayNumber * DAY_MS + minutes * MINUTE_MS;
  let ts = wall - zoneOffsetMs(wall, timeZone);
  ts = wall - zoneOffsetMs(ts, timeZone);
  return ts;
}

/** The local calendar day of `ts`, as days since 1970-01-01 (a stable key for a day's plan). */
export function localDayNumber(ts: number, timeZone: string): number {
  return Date.parse(`${localDateTime(ts, timeZone).date}T00:00:00Z`) / DAY_MS;
}

/** Minutes after midnight of "HH:MM", or undefined when it is not a time of day. */
export function parseTimeOfDay(text: string): number | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return undefined;
  return hours * 60 + minutes;
}
