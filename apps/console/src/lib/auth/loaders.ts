import type { AuthUser } from '@kontrol/contracts';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { loginWithRedirect } from '../../config/paths';
import { endsSession } from '../api-errors';
import { noteDenied } from './access-notice';
import { isLogoutPending } from '../pending-logout';
import {
  cachedUser,
  isRememberedAsSignedIn,
  landingPath,
  loadUser,
  mayOpen,
  rememberGuest,
  setSignedIn,
  takeInlinedUser,
} from './session';

/** What an account page learns from the area's loader: who is signed in. */
export interface AccountData {
  user: AuthUser;
}

/** What a guest page learns from its loader: whether an `auth_token` link failed. */
export interface GuestPageData {
  tokenFailed: boolean;
}

/**
 * Guest-only pages (docs/contract.md, "States and transitions"): an `auth_token` query parameter signs the user in with that token;
 * without one, a browser remembered as signed in tries to load its user. Either way a signed-in user
 * goes to their landing page; everyone else is marked guest and sees the page.
 */
export async function guestLoader({ request }: LoaderFunctionArgs): Promise<GuestPageData | Response> {
  const token = new URL(request.url).searchParams.get('auth_token');
  if (token) {
    try {
      return redirect(landingPath(await loadUser(token)));
    } catch (error) {
      console.error('The login link did not work', error);
      rememberGuest(true);
      return { tokenFailed: true };
    }
  }
  const known = cachedUser();
  if (known) return redirect(landingPath(known));
  if (isRememberedAsSignedIn()) {
    try {
      return redirect(landingPath(await loadUser()));
    } catch {
      // No session any more: this browser is a guest now.
    }
  }
  rememberGuest(true);
  return { tokenFailed: false };
}

/**
 * Account pages (docs/contract.md, "States and transitions"): the user is loaded if missing; without one, to the login page with the
 * intended path in `redirect`. A page whose address holds none of the user's module slugs sends the
 * user to their landing page instead, noting the page refused so that the frame says why.
 */
export async function accountLoader({ request }: LoaderFunctionArgs): Promise<Response | AccountData> {
  const url = new URL(request.url);
  let user = cachedUser();
  if (!user) {
    // The first account page of a visit: what follows (the user taken and remembered, the rest of
    // the router's first navigation) runs in a task of its own, apart from the router's creation,
    // so that the console's start is not one long task in which the page cannot answer input.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // It may come with its user inlined by the server: no request. Not after a logout the server
    // has not heard of yet: that session is the one the user left (loading the user ends it first).
    const inlined = takeInlinedUser();
    if (inlined && !isLogoutPending()) {
      setSignedIn(inlined);
      user = inlined;
    }
  }
  if (!user) {
    try {
      user = await loadUser();
    } catch (error) {
      if (!endsSession(error)) throw error;
      rememberGuest(true);
      return redirect(loginWithRedirect(url.pathname + url.search));
    }
  }
  if (!mayOpen(url.pathname, user)) {
    // On the landing page (docs/console-shell.md), and the frame there says why (app/layout/access-notice.tsx).
    const landing = landingPath(user);
    noteDenied(url.pathname, landing);
    return redirect(landing);
  }
  return { user };
}
