import { API_BASE_PATH, HTTP_TIMEOUT_MS } from '@kontrol/contracts';
import axios from 'axios';
import { endsSession } from './api-errors';
import { getLocale } from './i18n';
import { finishPendingLogout, isLogoutPending } from './pending-logout';

/** Requests that change nothing: the API checks no XSRF token on them (apps/api plugins/auth.ts). */
const SAFE_METHODS = new Set(['get', 'head', 'options']);

/**
 * The one HTTP client of the console (docs/contract.md, "HTTP calls"): `/api`, cookies on every call, no timeout. Axios
 * copies the readable `XSRF-TOKEN` cookie into the `X-XSRF-TOKEN` header, the Sanctum SPA
 * convention the API checks on every state-changing request. Only those carry it: reading
 * `document.cookie` asks the browser's network process each time, and a page's start sends a
 * dozen reads.
 */
export const apiClient = axios.create({
  baseURL: API_BASE_PATH,
  withCredentials: true,
  withXSRFToken: (config) => !SAFE_METHODS.has((config.method ?? 'get').toLowerCase()),
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  timeout: HTTP_TIMEOUT_MS,
  headers: { Accept: 'application/json' },
});

// The server answers messages and validation errors in the interface language.
apiClient.interceptors.request.use((config) => {
  config.headers.set('Accept-Language', getLocale());
  return config;
});

// A logout the server has not heard of (lib/pending-logout.ts) is finished before anything else is
// asked, so no request runs on the session the user left, and a new login's cookies are not
// cleared by that logout's late answer.
apiClient.interceptors.request.use(async (config) => {
  if (isLogoutPending()) await finishPendingLogout();
  return config;
});

type SessionEndedListener = () => void;
const sessionEndedListeners = new Set<SessionEndedListener>();

/**
 * Calls `listener` whenever the API answers 401 or 419 (docs/contract.md, "Error catalogue": the signed-in user is signed out).
 * Returns the function that unsubscribes.
 */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/**
 * Tells the listeners of {@link onSessionEnded} that the session is gone: for calls made without
 * this client (a streamed download through `fetch`) that were answered 401 or 419.
 */
export function reportSessionEnded(): void {
  for (const listener of sessionEndedListeners) listener();
}

apiClient.interceptors.response.use(undefined, (error: unknown) => {
  if (endsSession(error)) reportSessionEnded();
  throw error;
});

/**
 * GET /sanctum/csrf-cookie (at the site root, not under /api): sets the `XSRF-TOKEN` cookie and a
 * session before login, registration and password reset.
 */
export async function getCsrfCookie(): Promise<void> {
  await apiClient.get('/sanctum/csrf-cookie', { baseURL: '/' });
}
