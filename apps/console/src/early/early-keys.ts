/** Where the early requests (early-requests.ts) leave their answers for the console. */
export const EARLY_RESPONSES_KEY = '__kontrolEarlyResponses';
/** The element the server inlines the signed-in user into (apps/api plugins/console.ts). */
export const INLINE_USER_ELEMENT_ID = 'kontrol-user';

/**
 * An early request's outcome: the parsed body of a 2xx answer, or the status of another answer
 * (absent when the request itself failed).
 */
export type EarlyAnswer = { ok: true; body: unknown } | { ok: false; status?: number };

/**
 * The answer of an early request, once: `key` is the address under `/api` of a GET, or
 * `POST <address>`. Later calls, and requests never started early, get undefined.
 */
export function takeEarlyResponse(key: string): Promise<EarlyAnswer> | undefined {
  const started = (window as unknown as Record<string, Map<string, Promise<EarlyAnswer>> | undefined>)[
    EARLY_RESPONSES_KEY
  ];
  const response = started?.get(key);
  started?.delete(key);
  return response;
}
