/**
 * A record id from a route or query parameter, or null when it is not one (`/requests/abc`,
 * `0`, an id beyond the database's integers): the page then says "not found" without asking.
 */
export function parseId(segment: string | null | undefined): number | null {
  if (!segment || !/^[1-9]\d{0,9}$/.test(segment)) return null;
  const id = Number(segment);
  return id <= 2_147_483_647 ? id : null;
}
