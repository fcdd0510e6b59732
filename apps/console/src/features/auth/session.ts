import type { AuthUser } from '@kontrol/contracts';
import { modulePaths, paths, pathsWithoutModule } from '../../config/paths';
import { queryClient } from '../../lib/query-client';
import { getAuthUser } from './api/get-auth-user';
import { isRememberedAsSignedIn, rememberGuest } from './guest-flag';

/** The signed-in user lives in the query cache under this key; absent means nobody is signed in. */
export const authUserKey = ['auth-user'] as const;

export function cachedUser(): AuthUser | undefined {
  return queryClient.getQueryData<AuthUser>(authUserKey);
}

export function setSignedIn(user: AuthUser): void {
  queryClient.setQueryData(authUserKey, user);
  rememberGuest(false);
}

/**
 * The first half of signing out: the user is forgotten and the browser marked guest, so the
 * account frame stops (its queries with it) and guest pages see nobody signed in.
 */
export function forgetUser(): void {
  rememberGuest(true);
  queryClient.removeQueries({ queryKey: authUserKey });
}

/**
 * SPEC §4 reset: every cached resource and loading flag goes, and the browser is a guest again.
 * Call it once the account frame is gone (after navigating away from it), or its mounted queries
 * would load again at once.
 */
export function resetSession(): void {
  forgetUser();
  queryClient.cancelQueries().catch(() => undefined);
  queryClient.clear();
}

/** Loads the user (with a one-time `auth_token` when given) and remembers them as signed in. */
export async function loadUser(token?: string): Promise<AuthUser> {
  const user = await getAuthUser(token ? { token } : {});
  setSignedIn(user);
  return user;
}

/**
 * Where a signed-in user lands (SPEC §4): the dashboard with its module, else the page of the first
 * module they hold, else no_access.
 */
export function landingPath(user: AuthUser): string {
  const slugs = user.acl_modules.map((m) => m.slug);
  if (slugs.includes('dashboard')) return paths.account.dashboard;
  const first = slugs[0];
  return first ? modulePaths[first] : paths.account.noAccess;
}

/** SPEC §4: an account page shows when its address contains the slug of one of the user's modules. */
export function mayOpen(pathname: string, user: AuthUser): boolean {
  if (pathsWithoutModule.some((path) => pathname === path || pathname.startsWith(`${path}/`))) return true;
  return user.acl_modules.some((m) => pathname.includes(m.slug));
}

/** A `redirect` query value is followed only when it is a path of this site. */
export function safeRedirect(value: string | null): string | null {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;
}

/** True while a user is signed in and the browser is not marked guest (SPEC §8's logout condition). */
export function isSignedInAndNotGuest(): boolean {
  return cachedUser() !== undefined && isRememberedAsSignedIn();
}

export { isRememberedAsSignedIn, rememberGuest };
