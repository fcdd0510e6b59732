import { getLocale } from './i18n';

const INTL_LOCALE = { ru: 'ru-RU', en: 'en-GB' } as const;

/** The `Intl` locale of the interface language, for formatters a screen builds itself. */
export function intlLocale(): string {
  return INTL_LOCALE[getLocale()];
}

/** A moment shown in the interface language and the browser's time zone. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(INTL_LOCALE[getLocale()], { dateStyle: 'long', timeStyle: 'short' }).format(
    new Date(iso),
  );
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
