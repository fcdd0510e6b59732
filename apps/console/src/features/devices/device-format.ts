import { getLocale } from '../../lib/i18n';

const INTL_LOCALE = { ru: 'ru-RU', en: 'en-GB' } as const;
const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(kind: 'moment' | 'date'): Intl.DateTimeFormat {
  const locale = getLocale();
  const key = `${locale}:${kind}`;
  let format = cache.get(key);
  if (!format) {
    format =
      kind === 'moment'
        ? new Intl.DateTimeFormat(INTL_LOCALE[locale], { dateStyle: 'medium', timeStyle: 'short' })
        : new Intl.DateTimeFormat(INTL_LOCALE[locale], { dateStyle: 'medium', timeZone: 'UTC' });
    cache.set(key, format);
  }
  return format;
}

/** A moment in a table cell: short enough for a column, in the interface language and local time. */
export function formatMoment(iso: string): string {
  return formatter('moment').format(new Date(iso));
}

/** A calendar date `YYYY-MM-DD`, as written (no time zone shift). */
export function formatCalendarDate(date: string): string {
  return formatter('date').format(new Date(`${date}T00:00:00Z`));
}
