import { useTranslation } from 'react-i18next';
import { getLocale } from './i18n';

const INTL_LOCALE = { ru: 'ru-RU', en: 'en-GB' } as const;

/** The `Intl` locale of the interface language, for formatters a screen builds itself. */
export function intlLocale(): string {
  return INTL_LOCALE[getLocale()];
}

/**
 * {@link intlLocale} read in render, the component rendering again when the language changes: the
 * dependency of the formatters a component memoises.
 */
export function useIntlLocale(): string {
  useTranslation();
  return intlLocale();
}

/** A moment: ISO 8601 text, epoch milliseconds or a Date. */
export type Moment = string | number | Date;

/**
 * The console's one date and time format per language (every screen wrote dates its own
 * way): `27.11.2026, 09:00` in Russian, `27/11/2026, 09:00` in English, 24-hour clock in both.
 */
const PARTS = {
  date: { day: '2-digit', month: '2-digit', year: 'numeric' },
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  seconds: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

const formats = new Map<string, Intl.DateTimeFormat>();

/** The formatter of these parts in the interface language (and `timeZone`, else the browser's), kept. */
function dateFormat(parts: Intl.DateTimeFormatOptions, timeZone: string | undefined): Intl.DateTimeFormat {
  const locale = INTL_LOCALE[getLocale()];
  const key = `${locale}|${timeZone ?? ''}|${JSON.stringify(parts)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, timeZone ? { ...parts, timeZone } : parts);
    formats.set(key, format);
  }
  return format;
}

const toDate = (moment: Moment) => (moment instanceof Date ? moment : new Date(moment));

export interface MomentFormat {
  /** An IANA zone (an address's); the browser's own by default. */
  timeZone?: string;
  /** Seconds too (`09:00:15`), for samples. */
  seconds?: boolean;
}

/** A moment's date and time: `27.11.2026, 09:00` (`27/11/2026, 09:00` in English). */
export function formatDateTime(moment: Moment, options: MomentFormat = {}): string {
  const time = options.seconds ? PARTS.seconds : PARTS.time;
  return dateFormat({ ...PARTS.date, ...time }, options.timeZone).format(toDate(moment));
}

/** A moment's date: `27.11.2026` (`27/11/2026`). */
export function formatDate(moment: Moment, options: Pick<MomentFormat, 'timeZone'> = {}): string {
  return dateFormat(PARTS.date, options.timeZone).format(toDate(moment));
}

/** A moment's time of day: `09:00` (with seconds `09:00:15`). */
export function formatTime(moment: Moment, options: MomentFormat = {}): string {
  return dateFormat(options.seconds ? PARTS.seconds : PARTS.time, options.timeZone).format(toDate(moment));
}

/** A calendar date `YYYY-MM-DD` as written, whatever the zone: `27.11.2026` (`27/11/2026`). */
export function formatCalendarDate(date: string): string {
  return formatDate(`${date}T00:00:00Z`, { timeZone: 'UTC' });
}

/** A number with the interface language's digit grouping and decimal sign. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(INTL_LOCALE[getLocale()], options).format(value);
}

/**
 * Today's date (`YYYY-MM-DD`) in an IANA time zone: a device's day is its address's day, which
 * differs from the browser's around midnight (Moscow is three hours ahead of UTC).
 */
export function zonedToday(timeZone: string, now = Date.now()): string {
  try {
    const parts = new Intl.DateTimeFormat('en', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(now);
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((one) => one.type === type)?.value ?? '';
    return `${part('year')}-${part('month')}-${part('day')}`;
  } catch {
    // A zone this browser does not know: the browser's own day.
    const date = new Date(now);
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }
}
