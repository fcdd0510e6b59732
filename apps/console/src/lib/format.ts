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
