import type { AuthUser, ModuleSlug } from '@kontrol/contracts';
import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { clearDenied } from '../lib/auth/access-notice';
import { queryClient } from '../lib/query-client';
import { buildAuthUser, server } from '../test/server';
import { AppProvider } from './provider';
import { routes } from './router';

// The real frame and its lazy pages load here; on a busy machine a second is not always enough.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  queryClient.clear();
  clearDenied();
});

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
    // The reference lists these users read, all empty.
    http.get('/api/devices/types/', () => HttpResponse.json({ data: { data: [] } })),
    http.get('/api/devices/', () => HttpResponse.json({ data: [] })),
    http.get('/api/recipes/', () => HttpResponse.json({ data: [] })),
    http.get('/api/recipes_sets/', () => HttpResponse.json({ data: [] })),
    http.get('/api/addresses/', () => HttpResponse.json({ data: [] })),
    http.get('/api/rooms/', () => HttpResponse.json({ data: [] })),
    http.get('/api/notifications/unread', () => HttpResponse.json({ data: { unread: 0 } })),
    http.get('/api/messages/unread', () => HttpResponse.json({ data: { unread: 0 } })),
  );
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe('/account/notify', { timeout: 30_000 }, () => {
  it('is the notifications page for a holder of telemetry', async () => {
    server.use(http.get('/api/notifications', () => HttpResponse.json(empty)));
    const router = await openAs(['telemetry'], '/account/notify');
    expect(await screen.findByRole('heading', { level: 1, name: 'Уведомления' })).toBeInTheDocument();
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Важность' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/notify');
  });

  it('sends anyone else to their landing page, and says why', async () => {
    const router = await openAs(['recipes'], '/account/notify');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/recipes'));
    expect(
      await screen.findByText(
        'Нет доступа к разделу «Телеметрия»: ваша роль доступа его не включает. Открыта ваша начальная страница.',
      ),
    ).toBeInTheDocument();
  });
});

describe('a page of a module the user does not hold', { timeout: 30_000 }, () => {
  it('lands on the landing page and says why, until the user closes the notice', async () => {
    const router = await openAs(['recipes'], '/account/billing?tab=history');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/recipes'));
    const notice = await screen.findByText(
      'Нет доступа к разделу «Биллинг»: ваша роль доступа его не включает. Открыта ваша начальная страница.',
    );
    const alert = notice.closest('[role="status"]') as HTMLElement;
    await userEvent.click(within(alert).getByRole('button', { name: 'Закрыть' }));
    await waitFor(() => expect(screen.queryByText(/Нет доступа к разделу/)).toBeNull());
  });

  it('says so when a link inside the console leads there, and forgets it on the next page', async () => {
    // The first module's page is the landing page (no dashboard): the addresses.
    const router = await openAs(['addresses', 'recipes'], '/account/recipes');
    expect(await screen.findByRole('heading', { level: 1, name: 'Рецепты' })).toBeInTheDocument();
    await act(() => router.navigate('/account/users/3'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/addresses'));
    expect(
      await screen.findByText(
        'Нет доступа к разделу «Пользователи»: ваша роль доступа его не включает. Открыта ваша начальная страница.',
      ),
    ).toBeInTheDocument();
    await act(() => router.navigate('/account/recipes'));
    await waitFor(() => expect(screen.queryByText(/Нет доступа к разделу/)).toBeNull());
  });

  it('names the page when it belongs to no section', async () => {
    const router = await openAs(['recipes'], '/account/nowhere');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/recipes'));
    expect(
      await screen.findByText('Нет доступа к странице /account/nowhere. Открыта ваша начальная страница.'),
    ).toBeInTheDocument();
  });
});
