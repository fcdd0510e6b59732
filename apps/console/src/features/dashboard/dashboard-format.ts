import { intlLocale } from '../../lib/format';

const formats = new Map<string, Intl.DateTimeFormat>();

function format(kind: 'moment' | 'time'): Intl.DateTimeFormat {
  const locale = intlLocale();
  const key = `${locale}:${kind}`;
  let cached = formats.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(
      locale,
      kind === 'moment'
        ? { dateStyle: 'medium', timeStyle: 'short' }
        : { hour: '2-digit', minute: '2-digit' },
    );
    formats.set(key, cached);
  }
  return cached;
}

/** A moment in a list: date and time in the interface language and the browser's zone. */
export function formatMoment(moment: number | string): string {
  return format('moment').format(typeof moment === 'string' ? Date.parse(moment) : moment);
}

/** A time of day (`HH:MM`) in the browser's zone. */
export function formatTime(moment: number | string): string {
  return format('time').format(typeof moment === 'string' ? Date.parse(moment) : moment);
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
