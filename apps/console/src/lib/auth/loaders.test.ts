import { http, HttpResponse } from 'msw';
import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../query-client';
import { buildAuthUser, server } from '../../test/server';
import { accountLoader, guestLoader } from './loaders';
import { cachedUser, forgetUser, INLINE_USER_ID } from './session';

const args = (url: string) =>
  ({ request: new Request(`http://localhost:3000${url}`), params: {} }) as LoaderFunctionArgs;
const location = (result: unknown) =>
  result instanceof Response ? result.headers.get('Location') : `not a redirect: ${JSON.stringify(result)}`;
const guestFlag = () => localStorage.getItem('guest');

afterEach(() => {
  queryClient.clear();
  document.getElementById(INLINE_USER_ID)?.remove();
});

/** The data block the server adds to an account page requested with a live session. */
function inlineUser(text: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = INLINE_USER_ID;
  element.textContent = text;
  document.head.append(element);
}

describe('guest pages', () => {
  it('sign in with an auth_token sent as a bearer token, then go to the landing page', async () => {
    let authorization: string | null = null;
    server.use(
      http.get('/api/users/auth', ({ request }) => {
        authorization = request.headers.get('authorization');
        return HttpResponse.json({ data: buildAuthUser(['recipes']) });
      }),
    );
    const result = await guestLoader(args('/auth/login?auth_token=7%7Csecret'));
    expect(authorization).toBe('Bearer 7|secret');
    expect(location(result)).toBe('/account/recipes');
    expect(guestFlag()).toBe('isNotGuest');
    expect(cachedUser()?.email).toBe('anna@example.test');
  });

  it('show the page, marked guest, when the auth_token does not work', async () => {
    server.use(
      http.get('/api/users/auth', () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })),
    );
    expect(await guestLoader(args('/auth/login?auth_token=bad'))).toEqual({ tokenFailed: true });
    expect(guestFlag()).toBe('isGuest');
  });

  it('load the user when the browser is remembered as signed in, and go to the landing page', async () => {
    localStorage.setItem('guest', 'isNotGuest');
    server.use(http.get('/api/users/auth', () => HttpResponse.json({ data: buildAuthUser(['dashboard']) })));
    expect(location(await guestLoader(args('/auth/login')))).toBe('/account/dashboard');
  });

  it('mark the browser guest when the remembered session is gone', async () => {
    localStorage.setItem('guest', 'isNotGuest');
    server.use(
      http.get('/api/users/auth', () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })),
    );
    expect(await guestLoader(args('/auth/login'))).toEqual({ tokenFailed: false });
    expect(guestFlag()).toBe('isGuest');
  });

  it('ask nothing of the server for a browser without the flag (msw fails any request)', async () => {
    expect(await guestLoader(args('/auth/register'))).toEqual({ tokenFailed: false });
    expect(guestFlag()).toBe('isGuest');
  });
});

describe('account pages', () => {
  it('send a visitor without a session to login, keeping the intended path', async () => {
    server.use(
      http.get('/api/users/auth', () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })),
    );
    const result = await accountLoader(args('/account/recipes/sets/3?tab=2'));
    expect(location(result)).toBe('/auth/login?redirect=%2Faccount%2Frecipes%2Fsets%2F3%3Ftab%3D2');
    expect(guestFlag()).toBe('isGuest');
  });

  it('let a user in where the address holds one of their module slugs', async () => {
    server.use(http.get('/api/users/auth', () => HttpResponse.json({ data: buildAuthUser(['recipes']) })));
    expect(await accountLoader(args('/account/recipes'))).toEqual({ user: buildAuthUser(['recipes']) });
    // The user is cached now: the next page asks the server nothing (msw would fail the request).
    server.resetHandlers();
    expect(location(await accountLoader(args('/account/dashboard')))).toBe('/account/recipes');
    expect(await accountLoader(args('/account/profile'))).toEqual({ user: buildAuthUser(['recipes']) });
  });

  it('send a user without modules to no_access', async () => {
    server.use(http.get('/api/users/auth', () => HttpResponse.json({ data: buildAuthUser([]) })));
    expect(location(await accountLoader(args('/account/dashboard')))).toBe('/account/no_access');
  });

  it('fail with the error when the server cannot be reached (the error page shows the connection text)', async () => {
    server.use(http.get('/api/users/auth', () => HttpResponse.error()));
    await expect(accountLoader(args('/account/dashboard'))).rejects.toThrow();
  });
});

describe('account pages with the user inlined by the server', () => {
  it('take the user from the page, once, without asking the server (msw fails any request)', async () => {
    inlineUser(JSON.stringify(buildAuthUser(['dashboard'])).replace(/</g, '\\u003c'));
    expect(await accountLoader(args('/account/dashboard'))).toEqual({ user: buildAuthUser(['dashboard']) });
    expect(document.getElementById(INLINE_USER_ID)).toBeNull();
    expect(cachedUser()?.email).toBe('anna@example.test');
    expect(guestFlag()).toBe('isNotGuest');
  });

  it('load the user after a logout, never the inlined one again', async () => {
    inlineUser(JSON.stringify(buildAuthUser(['dashboard'])));
    forgetUser();
    expect(document.getElementById(INLINE_USER_ID)).toBeNull();
    server.use(
      http.get('/api/users/auth', () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })),
    );
    expect(location(await accountLoader(args('/account/dashboard')))).toBe(
      '/auth/login?redirect=%2Faccount%2Fdashboard',
    );
  });

  it('ignore a block that is not a user, and load the user', async () => {
    inlineUser('{"id":"1"');
    server.use(http.get('/api/users/auth', () => HttpResponse.json({ data: buildAuthUser(['recipes']) })));
    expect(await accountLoader(args('/account/recipes'))).toEqual({ user: buildAuthUser(['recipes']) });
    expect(document.getElementById(INLINE_USER_ID)).toBeNull();
  });

  it('leave guest pages alone: they never read it', async () => {
    inlineUser(JSON.stringify(buildAuthUser(['dashboard'])));
    expect(await guestLoader(args('/auth/login'))).toEqual({ tokenFailed: false });
    expect(cachedUser()).toBeUndefined();
  });
});
