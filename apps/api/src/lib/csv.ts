import type { Locale } from '@kontrol/contracts';

/**
 * CSV as RFC 4180 writes it (CRLF, quotes doubled), safe to open in a spreadsheet: a text cell
 * that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula
 * (OWASP "CSV injection"), so it gets a leading apostrophe. Numbers are written as numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
// A semicolon is quoted too, so one text reads the same in either dialect.
const NEEDS_QUOTES = /[",;\r\n]/;

/**
 * How the reader's Excel opens a CSV by double-click: with Russian regional settings the list
 * separator is `;` and the decimal separator `,` (a comma-separated file lands in one column and
 * `12.5` becomes a date); with English ones, `,` and `.`.
 */
export interface CsvDialect {
  separator: ',' | ';';
  decimal: '.' | ',';
}
const DIALECTS: Record<Locale, CsvDialect> = {
  ru: { separator: ';', decimal: ',' },
  en: { separator: ',', decimal: '.' },
};
export const csvDialect = (locale: Locale): CsvDialect => DIALECTS[locale];

/** Text a spreadsheet would read as a formula if typed in (the XLSX writer marks such cells too). */
export const startsLikeFormula = (text: string) => FORMULA_START.test(text);

export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = startsLikeFormula(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvNumber(value: number | null | undefined, decimal: CsvDialect['decimal'] = '.'): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  const text = String(value);
  return decimal === '.' ? text : text.replace('.', decimal);
}

export function csvRow(cells: readonly string[], separator: CsvDialect['separator'] = ','): string {
  return `${cells.join(separator)}\r\n`;
}

/** Excel reads a UTF-8 CSV (Cyrillic names) correctly only with the byte order mark. */
export const CSV_BOM = '\uFEFF';

/** A `Content-Disposition` for a download: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
