import { DateInput, type DateInputProps } from '@mantine/dates';
// Layered like @mantine/core's (app/provider.tsx), so theme.css wins over them too.
import '@mantine/dates/styles.layer.css';
// The calendar's month and weekday names (dayjs, which @mantine/dates formats with).
import 'dayjs/locale/en-gb';
import 'dayjs/locale/ru';
import type { Locale } from '@kontrol/contracts';
import { useTranslation } from 'react-i18next';
import { getLocale } from '../lib/i18n';

/**
 * Date and time fields in the interface language (Mantine's date components): the browser's own
 * `<input type="date|datetime-local">` writes `11/27/2026` and `09:00 AM` on a Russian page when
 * the browser itself is English. Dates are written as the console writes them (lib/format.ts:
 * `27.11.2026`, `27/11/2026`), times on a 24-hour clock, weeks start on Monday. Values stay the
 * strings the screens already held: `YYYY-MM-DD`, `YYYY-MM-DDTHH:mm`, `''` for none. Typing is
 * parsed here (never by dayjs' loose parser, which reads `01.11.2` as a year 2 date).
 */

const DATE_FORMATS: Record<Locale, string> = { ru: 'DD.MM.YYYY', en: 'DD/MM/YYYY' };
const DAYJS_LOCALES: Record<Locale, string> = { ru: 'ru', en: 'en-gb' };
const DATE_PLACEHOLDERS: Record<Locale, string> = { ru: 'дд.мм.гггг', en: 'dd/mm/yyyy' };
const TIME_PLACEHOLDERS: Record<Locale, string> = { ru: 'чч:мм', en: 'hh:mm' };

const pad = (value: string) => value.padStart(2, '0');

/**
 * A typed date: `27.11.2026` / `27/11/2026` (one-digit day and month too), or ISO `2026-11-27`
 * (pasted); `YYYY-MM-DD`, or null until it reads as a real date.
 */
export function parseTypedDate(text: string): string | null {
  const value = text.trim();
  const local = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [year, month, day] = local
    ? [local[3] ?? '', pad(local[2] ?? ''), pad(local[1] ?? '')]
    : iso
      ? [iso[1] ?? '', iso[2] ?? '', iso[3] ?? '']
      : ['', '', ''];
  if (!year) return null;
  const date = `${year}-${month}-${day}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date ? date : null;
}

function useDateLocale() {
  // Subscribed to the language, so the fields follow a change of it.
  useTranslation();
  const locale = getLocale();
  return {
    dayjsLocale: DAYJS_LOCALES[locale],
    dateFormat: DATE_FORMATS[locale],
    placeholder: DATE_PLACEHOLDERS[locale],
    timePlaceholder: TIME_PLACEHOLDERS[locale],
  };
}

export interface DateFieldProps extends Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser'
> {
  /** `YYYY-MM-DD`, or `''` (or nothing) for none. */
  value?: string;
  onChange: (value: string) => void;
}

/** A date typed as the language writes it, or picked on a calendar. */
export function DateField({ value = '', onChange, ...props }: DateFieldProps) {
  const { dayjsLocale, dateFormat, placeholder } = useDateLocale();
  return (
    <DateInput
      valueFormat={dateFormat}
      locale={dayjsLocale}
      firstDayOfWeek={1}
      placeholder={placeholder}
      {...props}
      dateParser={parseTypedDate}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
    />
  );
}

/**
 * A typed moment: `27.11.2026 09:00` / `27/11/2026 09:00`, or ISO `2026-11-27T09:00` (pasted);
 * `YYYY-MM-DD HH:mm:00`, or null until it reads as a real date and time.
 */
export function parseTypedMoment(text: string): string | null {
  const match = /^(.+?)[ T,]+(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const date = parseTypedDate(match[1] ?? '');
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (!date || hours > 23 || minutes > 59) return null;
  return `${date} ${pad(String(hours))}:${pad(String(minutes))}:00`;
}

export interface DateTimeFieldProps extends Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser'
> {
  /** `YYYY-MM-DDTHH:mm` (as `datetime-local` held it), or `''` (or nothing) for none. */
  value?: string;
  onChange: (value: string) => void;
}

/**
 * A moment typed as the language writes it on a 24-hour clock (`27.11.2026 09:00`), or its day
 * picked on a calendar (keeping the time typed, midnight when there was none).
 */
export function DateTimeField({ value = '', onChange, ...props }: DateTimeFieldProps) {
  const { dayjsLocale, dateFormat, placeholder, timePlaceholder } = useDateLocale();
  const time = value.length >= 16 ? value.slice(11, 16) : '00:00';
  return (
    <DateInput
      withTime
      valueFormat={`${dateFormat} HH:mm`}
      locale={dayjsLocale}
      firstDayOfWeek={1}
      placeholder={`${placeholder} ${timePlaceholder}`}
      {...props}
      dateParser={parseTypedMoment}
      value={value ? `${value.replace('T', ' ')}:00`.slice(0, 19) : null}
      onChange={(next) => {
        if (!next) onChange('');
        // A day picked on the calendar comes without a time.
        else if (next.length === 10) onChange(`${next}T${time}`);
        else onChange(next.slice(0, 16).replace(' ', 'T'));
      }}
    />
  );
}
