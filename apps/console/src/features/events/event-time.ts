/** A moment as a `datetime-local` box holds it: local time, to the minute. */
export function toLocalInput(moment: string | number | Date): string {
  const date = new Date(moment);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A `datetime-local` box's text as ISO 8601 in UTC (the browser's time zone), or null when it is
 * empty; text that is no moment is sent as it is, for the server to name (docs/contract.md, "Validation and errors shown").
 */
export function fromLocalInput(text: string): string | null {
  if (!text) return null;
  const ms = new Date(text).getTime();
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}
