import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import '../../../lib/i18n';
import { apiClient } from '../../../lib/api-client';
import { finishPendingLogout, LOGOUT_PENDING_KEY } from '../../../lib/pending-logout';
import { queryClient } from '../../../lib/query-client';
import { buildAuthUser, server } from '../../../test/server';
import type { GuestPageData } from '../../../lib/auth/loaders';
import { accountLoader } from '../../../lib/auth/loaders';
import { authUserKey, INLINE_USER_ID } from '../../../lib/auth/session';
import { LoginPage } from './login-page';
import { LogoutPage } from './logout-page';

function renderLogout() {
  const router = createMemoryRouter(
    [
      { path: '/auth/logout', Component: LogoutPage },
      { path: '/auth/login', Component: LoginPage, loader: (): GuestPageData => ({ tokenFailed: false }) },
    ],
    { initialEntries: ['/auth/logout'] },
  );
  render(
    <MantineProvider env="test">
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

function signedIn() {
  localStorage.setItem('guest', 'isNotGuest');
  queryClient.setQueryData(authUserKey, buildAuthUser(['dashboard']));
}

describe('logout', { timeout: 30_000 }, () => {
  it('signs out and goes to login when the server cannot be reached; the session ends at the next contact', async () => {
    signedIn();
    const order: string[] = [];
    server.use(
      http.post('/api/logout', () => {
        order.push('logout (offline)');
        return HttpResponse.error();
      }),
    );
    const router = renderLogout();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(
      await screen.findByText(
        'Вы вышли на этом устройстве. Сервер завершит сеанс, когда связь восстановится.',
      ),
    ).toBeInTheDocument();
    expect(queryClient.getQueryData(authUserKey)).toBeUndefined();
    expect(localStorage.getItem('guest')).toBe('isGuest');
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBe('1');

    // Back online: the next request of the console first ends the session the user left.
    server.use(
      http.post('/api/logout', ({ request }) => {
        order.push(`logout ${request.headers.get('x-xsrf-token') ?? 'no token'}`);
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/sanctum/csrf-cookie', () => {
        order.push('csrf-cookie');
        return new HttpResponse(null, { status: 204 });
      }),
    );
    document.cookie = 'XSRF-TOKEN=old%3Dtoken; path=/';
    await apiClient.get('/sanctum/csrf-cookie', { baseURL: '/' });
    expect(order).toEqual(['logout (offline)', 'logout old=token', 'csrf-cookie']);
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBeNull();
    document.cookie = 'XSRF-TOKEN=; path=/; max-age=0';
  });

  it('keeps the logout pending while the server fails, and counts a gone session (401) as done', async () => {
    localStorage.setItem(LOGOUT_PENDING_KEY, '1');
    server.use(http.post('/api/logout', () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    await finishPendingLogout();
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBe('1');
    server.use(http.post('/api/logout', () => HttpResponse.json({ message: 'gone' }, { status: 401 })));
    await finishPendingLogout();
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBeNull();
  });

  it('an account page does not take the user the server inlined for the session being left', async () => {
    localStorage.setItem(LOGOUT_PENDING_KEY, '1');
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = INLINE_USER_ID;
    element.textContent = JSON.stringify(buildAuthUser(['dashboard']));
    document.head.append(element);
    const order: string[] = [];
    server.use(
      http.post('/api/logout', () => {
        order.push('logout');
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/users/auth', () => {
        order.push('users/auth');
        return HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
      }),
    );
    const result = await accountLoader({
      request: new Request('http://localhost:3000/account/dashboard'),
      params: {},
    } as Parameters<typeof accountLoader>[0]);
    expect(result instanceof Response ? result.headers.get('Location') : result).toBe(
      '/auth/login?redirect=%2Faccount%2Fdashboard',
    );
    expect(order).toEqual(['logout', 'users/auth']);
    expect(document.getElementById(INLINE_USER_ID)).toBeNull();
    queryClient.clear();
  });

  it('signs out without a notice when the server answers', async () => {
    signedIn();
    server.use(http.post('/api/logout', () => new HttpResponse(null, { status: 204 })));
    const router = renderLogout();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(await screen.findByRole('button', { name: 'Войти' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    expect(localStorage.getItem(LOGOUT_PENDING_KEY)).toBeNull();
    expect(localStorage.getItem('guest')).toBe('isGuest');
  });
});
