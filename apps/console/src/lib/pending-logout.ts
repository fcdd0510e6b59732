import { API_BASE_PATH } from '@kontrol/contracts';

/**
 * A logout the server has not heard of yet (docs/console-shell.md, when it cannot be reached): the console signs
 * the user out at once and remembers, in local storage, to end the server session at its next
 * contact. The session cookie is HttpOnly, so only the server can end it.
 */
export const LOGOUT_PENDING_KEY = 'logoutPending';

export function markLogoutPending(): void {
  try {
    localStorage.setItem(LOGOUT_PENDING_KEY, '1');
  } catch {
    // Storage unavailable: the session then lives until it expires on the server.
  }
}

export function isLogoutPending(): boolean {
  try {
    return localStorage.getItem(LOGOUT_PENDING_KEY) === '1';
  } catch {
    return false;
  }
}

function clearLogoutPending(): void {
  try {
    localStorage.removeItem(LOGOUT_PENDING_KEY);
  } catch {
    // Nothing to clear.
  }
}

function xsrfCookie(): string | undefined {
  const found = document.cookie.split('; ').find((pair) => pair.startsWith('XSRF-TOKEN='));
  return found ? decodeURIComponent(found.slice('XSRF-TOKEN='.length)) : undefined;
}

let inFlight: Promise<void> | undefined;

/**
 * Ends the server session of a pending logout: `POST /api/logout`. Sent with `fetch`, not the API
 * client, so it neither waits for itself (the client waits for it) nor reports a 401 as a session
 * ending under a user who signed in since. Done when the server answers 2xx, or 401/419 (no session
 * any more); still pending when it cannot be reached or fails, to be tried at the next contact.
 * One request at a time, however many callers wait for it.
 */
export function finishPendingLogout(): Promise<void> {
  if (!isLogoutPending()) return Promise.resolve();
  inFlight ??= (async () => {
    try {
      const xsrf = xsrfCookie();
      const response = await fetch(new URL(`${API_BASE_PATH}/logout`, document.baseURI), {
        method: 'POST',
        credentials: 'include',
        headers: { Accept: 'application/json', ...(xsrf ? { 'X-XSRF-TOKEN': xsrf } : {}) },
      });
      if (response.ok || response.status === 401 || response.status === 419) clearLogoutPending();
    } catch {
      // Still unreachable: the next contact tries again.
    } finally {
      inFlight = undefined;
    }
  })();
  return inFlight;
}
