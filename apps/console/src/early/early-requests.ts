/**
 * Runs before the console's own scripts on a page the server answered to a live session (it
 * inlines the user there, apps/api plugins/console.ts): starts the requests of the reference
 * lists the user's modules allow (the roles list is a POST, sent with the session's XSRF token as
 * the API client sends it), so they travel while the browser is still evaluating the console
 * (about half a second on a slow machine). The reference data takes each answer once
 * ({@link takeEarlyResponse}); anything else (no user inlined, a list not started, a failed or
 * non-2xx answer) goes through the API client as usual, with its error handling.
 *
 * Imports nothing but the list of addresses: this file must stay tiny and evaluate at once.
 */
import { EARLY_RESPONSES_KEY, INLINE_USER_ELEMENT_ID, type EarlyAnswer } from './early-keys';
import { REFERENCE_LISTS, REFERENCE_ROLES, REFERENCE_ROLES_KEY } from '../features/reference-data/lists';

function inlinedModules(): Set<string> {
  try {
    const text = document.getElementById(INLINE_USER_ELEMENT_ID)?.textContent;
    const user = text ? (JSON.parse(text) as { acl_modules?: { slug?: unknown }[] } | null) : null;
    return new Set((user?.acl_modules ?? []).map((m) => String(m.slug)));
  } catch {
    return new Set();
  }
}

/** The XSRF-TOKEN cookie's value, as the API client echoes it in X-XSRF-TOKEN (Sanctum). */
function xsrfToken(): string | undefined {
  const cookie = document.cookie.split('; ').find((part) => part.startsWith('XSRF-TOKEN='));
  return cookie ? decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) : undefined;
}

/**
 * The answer's body is read at once: a large one (10 000 devices are 5 MB of JSON) would otherwise
 * wait in the browser, unread, until the console asks for it.
 */
function request(url: string, init: RequestInit = {}): Promise<EarlyAnswer> {
  return fetch(`/api${url}`, {
    ...init,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...init.headers },
  }).then(
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

const held = inlinedModules();
const started = new Map<string, Promise<EarlyAnswer>>();
for (const { url, modules } of Object.values(REFERENCE_LISTS)) {
  if (modules.some((slug) => held.has(slug)) && !started.has(url)) started.set(url, request(url));
}
const token = xsrfToken();
if (held.has(REFERENCE_ROLES.module) && token) {
  started.set(
    REFERENCE_ROLES_KEY,
    request(REFERENCE_ROLES.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': token },
      body: JSON.stringify(REFERENCE_ROLES.body),
    }),
  );
}
// The dashboard's statistics (every device with what its rules read) when the dashboard itself is
// asked for without a type filter: the page takes the answer (features/dashboard get-device-stat.ts)
// instead of asking only once the reference data has loaded.
if (
  held.has('dashboard') &&
  location.pathname === '/account/dashboard' &&
  !location.search.includes('type=')
) {
  started.set('/devices/stat', request('/devices/stat'));
}
(window as unknown as Record<string, unknown>)[EARLY_RESPONSES_KEY] = started;
