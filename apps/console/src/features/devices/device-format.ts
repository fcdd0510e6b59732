import { formatCalendarDate as sharedCalendarDate, formatDateTime } from '../../lib/format';

/** A moment in a table cell, in the console's one format (lib/format.ts) and local time. */
export function formatMoment(iso: string): string {
  return formatDateTime(iso);
}

/** A calendar date `YYYY-MM-DD`, as written (no time zone shift). */
export function formatCalendarDate(date: string): string {
  return sharedCalendarDate(date);
}
