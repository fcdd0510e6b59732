import { API_BASE_PATH, EARLY_FETCH_ATTRIBUTE } from '@kontrol/contracts';

/**
 * An early request's outcome: the parsed body of a 2xx answer, or the status of another answer
 * (absent when the request itself failed).
 */
export type EarlyAnswer = { ok: true; body: unknown } | { ok: false; status?: number };

/** The preload links of the early requests the server wrote into the page (apps/api plugins/console.ts). */
const EARLY_LINKS = `link[rel="preload"][as="fetch"][${EARLY_FETCH_ATTRIBUTE}]`;

/**
 * The answer of a request the server started with the page, once: a signed-in visitor's page
 * preloads the reference lists (and the dashboard's statistics) as `<link rel="preload"
 * as="fetch" data-early>`, so they travel while the browser still evaluates the console, at no cost
 * to its main thread. `url` is the address under `/api`. The `fetch` here is the preload's own
 * request (same address, mode and credentials, no headers of its own), which the browser answers
 * from the preload. Later calls, and addresses the page did not preload, get undefined.
 */
export function takeEarlyResponse(url: string): Promise<EarlyAnswer> | undefined {
  const href = `${API_BASE_PATH}${url}`;
  const link = [...document.querySelectorAll<HTMLLinkElement>(EARLY_LINKS)].find(
    (one) => one.getAttribute('href') === href,
  );
  if (!link) return undefined;
  link.removeAttribute(EARLY_FETCH_ATTRIBUTE); // taken: the preload itself stays as it is
  return fetch(new URL(href, document.baseURI)).then(
    async (response): Promise<EarlyAnswer> => {
      if (!response.ok) return { ok: false, status: response.status };
      try {
        return { ok: true, body: (await response.json()) as unknown };
      } catch {
        return { ok: false }; // cut off or not JSON: the client asks again
      }
    },
    (): EarlyAnswer => ({ ok: false }),
  );
}
