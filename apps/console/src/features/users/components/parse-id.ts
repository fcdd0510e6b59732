/** A record id from a route parameter, or null when the segment is not one (`/users/abc`). */
export function parseId(segment: string | null | undefined): number | null {
  if (!segment || !/^[1-9]\d{0,9}$/.test(segment)) return null;
  return Number(segment);
}
