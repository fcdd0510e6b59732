/**
 * Why a database (or file) operation failed, when the reason is the storage rather than the
 * request: the API answers these with 503 and a message saying which (docs/operations.md,
 * "Faults"), the ingest refuses without acknowledging, and nothing else has to change — they pass
 * once the database answers again, the disk has room again or is writable again.
 *
 * - `unavailable`: PostgreSQL cannot be reached or is restarting (connection refused, reset or
 *   ended, SQLSTATE classes 08 and 57P0x, too many connections), or SQLite is locked beyond its
 *   busy timeout, cannot open its file or fails to read or write it (`SQLITE_IOERR_*`).
 * - `full`: no space left (`SQLITE_FULL`, `ENOSPC`, `EDQUOT`, SQLSTATE 53100 disk_full).
 * - `read_only`: the database or its folder cannot be written (`SQLITE_READONLY_*`, `EROFS`,
 *   SQLSTATE 25006 on a read-only PostgreSQL standby).
 */
export type StorageFailure = 'unavailable' | 'full' | 'read_only';

/** Node's network error codes that mean the database server cannot be reached now. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
]);

/** SQLSTATEs (PostgreSQL) beyond class 08 that mean "not now", not "wrong request". */
const PG_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown: the server is stopping (or a backend was terminated)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections
  '53000', // insufficient_resources
  '53200', // out_of_memory
  '58000', // system_error
  '58030', // io_error
]);

/**
 * The pg driver's own errors carry no code: a connection lost mid-query, a pool that could not
 * connect in time, a client that had failed before.
 */
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/,
  /^Query read timeout$/,
];

function classify(error: { code?: unknown; message?: unknown }): StorageFailure | undefined {
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code) {
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') return 'full';
    if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === '25006') return 'read_only';
    if (
      code.startsWith('SQLITE_BUSY') ||
      code.startsWith('SQLITE_CANTOPEN') ||
      code.startsWith('SQLITE_IOERR') ||
      code === 'SQLITE_PROTOCOL'
    ) {
      return 'unavailable';
    }
    if (UNREACHABLE.has(code) || PG_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code))
      return 'unavailable';
  }
  const message = typeof error.message === 'string' ? error.message : '';
  if (PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return 'unavailable';
  return undefined;
}

/**
 * The storage failure behind `error` (looked for in it, its `cause`s and an AggregateError's
 * errors), or undefined when it is some other error.
 */
export function storageFailure(error: unknown): StorageFailure | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 8) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const found = classify(next);
    if (found) return found;
    const { cause, errors } = next as { cause?: unknown; errors?: unknown };
    if (cause !== undefined) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as readonly unknown[]));
  }
  return undefined;
}
