import { formatDateTime, formatTime as sharedTime, intlLocale } from '../../lib/format';

/** A moment in a list: the console's one format (lib/format.ts), in the browser's zone. */
export function formatMoment(moment: number | string): string {
  return formatDateTime(moment);
}

/** A time of day (`HH:MM`) in the browser's zone. */
export function formatTime(moment: number | string): string {
  return sharedTime(moment);
}

/** Today's date (`YYYY-MM-DD`) in the browser's zone. */
export function browserToday(now = Date.now()): string {
  const date = new Date(now);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The browser's IANA time zone. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const numbers = new Map<string, Intl.NumberFormat>();

/** A reading (amperes) with one decimal at most, in the interface language; the format is kept. */
export function formatReading(value: number): string {
  const locale = intlLocale();
  let format = numbers.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    numbers.set(locale, format);
  }
  return format.format(value);
}
