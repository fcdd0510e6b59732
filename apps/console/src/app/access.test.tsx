import type { AuthUser, ModuleSlug } from '@kontrol/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../lib/query-client';
import { buildAuthUser, server } from '../test/server';
import { AppProvider } from './provider';
import { routes } from './router';

afterEach(() => queryClient.clear());

const empty = {
  data: [],
  links: {},
  meta: { current_page: 1, from: null, last_page: 1, per_page: 25, to: null, total: 0 },
};

/** The real routes in memory at `path`, for a signed-in user holding `modules`. */
async function openAs(modules: readonly ModuleSlug[], path: string) {
  localStorage.setItem('guest', 'isNotGuest');
  const user: AuthUser = buildAuthUser(modules);
  server.use(
    http.get('/api/users/auth', () => HttpResponse.json({ data: user })),
    // The reference lists these users read (SPEC §1), all empty.
    http.get('/api/devices/types/', () => HttpResponse.json({ data: { data: [] } })),
    http.get('/api/devices/', () => HttpResponse.json({ data: [] })),
    http.get('/api/recipes/', () => HttpResponse.json({ data: [] })),
    http.get('/api/recipes_sets/', () => HttpResponse.json({ data: [] })),
    http.get('/api/addresses/', () => HttpResponse.json({ data: [] })),
    http.get('/api/rooms/', () => HttpResponse.json({ data: [] })),
    http.get('/api/notifications/unread', () => HttpResponse.json({ data: { unread: 0 } })),
  );
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe('/account/notify (issue 25, point 14)', { timeout: 30_000 }, () => {
  it('is the notifications page for a holder of telemetry', async () => {
    server.use(http.get('/api/notifications', () => HttpResponse.json(empty)));
    const router = await openAs(['telemetry'], '/account/notify');
    expect(await screen.findByRole('heading', { level: 1, name: 'Уведомления' })).toBeInTheDocument();
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Важность' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/notify');
  });

  it('sends anyone else to their landing page (SPEC §4)', async () => {
    const router = await openAs(['recipes'], '/account/notify');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/recipes'));
  });
});
