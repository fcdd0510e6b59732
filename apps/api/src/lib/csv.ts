/**
 * CSV as RFC 4180 writes it (comma, CRLF, quotes doubled), safe to open in a spreadsheet: a text
 * cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula
 * (OWASP "CSV injection"), so it gets a leading apostrophe. Numbers are written as numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Text a spreadsheet would read as a formula if typed in (the XLSX writer marks such cells too). */
export const startsLikeFormula = (text: string) => FORMULA_START.test(text);

export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = startsLikeFormula(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvNumber(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '' : String(value);
}

export function csvRow(cells: readonly string[]): string {
  return `${cells.join(',')}\r\n`;
}

/** Excel reads a UTF-8 CSV (Cyrillic names) correctly only with the byte order mark. */
export const CSV_BOM = '\uFEFF';

/** A `Content-Disposition` for a download: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
