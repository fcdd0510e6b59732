import { INLINE_USER_ELEMENT_ID, type AuthUser } from '@kontrol/contracts';
import { modulePaths, pathModules, paths, pathsWithoutModule } from '../../config/paths';
import { queryClient } from '../query-client';
import { getAuthUser } from './get-auth-user';
import { isRememberedAsSignedIn, rememberGuest } from './guest-flag';

/** The signed-in user lives in the query cache under this key; absent means nobody is signed in. */
export const authUserKey = ['auth-user'] as const;

/**
 * The element in which the server inlines the signed-in user when it answers an account page to a
 * live session (apps/api plugins/console.ts): a JSON data block, never executed.
 */
export const INLINE_USER_ID = INLINE_USER_ELEMENT_ID;

/**
 * The user the server inlined into this page, taken once: the element is removed as it is read,
 * so a later account page (after a logout, say) loads its user as usual. Anything unreadable
 * counts as absent, and the user is then loaded from the API.
 */
export function takeInlinedUser(): AuthUser | undefined {
  const element = document.getElementById(INLINE_USER_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const user = JSON.parse(element.textContent ?? '') as Partial<AuthUser> | null;
    return user && typeof user.id === 'number' && Array.isArray(user.acl_modules) && user.organisation
      ? (user as AuthUser)
      : undefined;
  } catch {
    return undefined;
  }
}

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
  document.getElementById(INLINE_USER_ID)?.remove(); // never resurrected by a later account page
  rememberGuest(true);
  queryClient.removeQueries({ queryKey: authUserKey });
}

/**
 * docs/contract.md, "States and transitions" reset: every cached resource and loading flag goes, and the browser is a guest again.
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
 * Where a signed-in user lands (docs/contract.md, "States and transitions"): the dashboard with its module, else the page of the first
 * module they hold, else no_access.
 */
export function landingPath(user: AuthUser): string {
  const slugs = user.acl_modules.map((m) => m.slug);
  if (slugs.includes('dashboard')) return paths.account.dashboard;
  const first = slugs[0];
  return first ? modulePaths[first] : paths.account.noAccess;
}

/**
 * docs/console-shell.md: an account page shows when its address contains the slug of one of the user's modules;
 * a page whose address names none (`/account/notify`) shows to holders of its own module.
 */
export function mayOpen(pathname: string, user: AuthUser): boolean {
  if (pathsWithoutModule.some((path) => pathname === path || pathname.startsWith(`${path}/`))) return true;
  const own = Object.entries(pathModules).find(
    ([path]) => pathname === path || pathname.startsWith(`${path}/`),
  );
  if (own) return user.acl_modules.some((m) => m.slug === own[1]);
  return user.acl_modules.some((m) => pathname.includes(m.slug));
}

/** A `redirect` query value is followed only when it is a path of this site. */
export function safeRedirect(value: string | null): string | null {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;
}

/** True while a user is signed in and the browser is not marked guest (docs/contract.md, "Error catalogue"'s logout condition). */
export function isSignedInAndNotGuest(): boolean {
  return cachedUser() !== undefined && isRememberedAsSignedIn();
}

export { isRememberedAsSignedIn, rememberGuest };
