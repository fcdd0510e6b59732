import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { buildAuthUser, server } from '../test/server';
import { AppProvider } from './provider';
import { routes } from './router';

// The profile page's part cannot be fetched (the connection is gone as the user moves to it).
vi.mock('../features/profile/routes/profile-page', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

function serve(healthz: () => Response) {
  localStorage.setItem('guest', 'isNotGuest');
  server.use(
    http.get('/api/users/auth', () => HttpResponse.json({ data: buildAuthUser(['addresses']) })),
    http.get('/healthz', healthz),
    http.get('/api/*', () => HttpResponse.json({ data: [] })),
  );
  const router = createMemoryRouter(routes, { initialEntries: ['/account/addresses/add'] });
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe(
  'a page that cannot open (docs/console-shell.md, "Losing the connection")',
  { timeout: 30_000 },
  () => {
    it('keeps the frame, says «Ошибка подключения» with a retry, and the form typed keeps its draft', async () => {
      const router = serve(() => HttpResponse.error());
      // The first test to open the form waits for its modules to be transformed: seconds on a slow machine.
      const name = await screen.findByRole('textbox', { name: /^Название/ }, { timeout: 15_000 });
      await userEvent.type(name, 'Кафе на Тверской');

      await router.navigate('/account/profile');
      const alert = await screen.findByRole('alert');
      await waitFor(() => expect(alert).toHaveTextContent('Ошибка подключения. Повторите попытку позже'));
      // The frame stays: header, sidebar and the page's title.
      expect(screen.getByRole('banner')).toBeInTheDocument();
      const nav = screen.getByRole('navigation', { name: 'Основное меню' });
      expect(within(nav).getByRole('link', { name: 'Адреса' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Профиль' })).toBeInTheDocument();
      // Retrying while the server still cannot be reached leaves the user here, told the same.
      await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Ошибка подключения. Повторите попытку позже',
      );

      // Back to the form in the same tab: what was typed is there.
      await router.navigate('/account/addresses/add');
      expect(await screen.findByRole('textbox', { name: /^Название/ })).toHaveValue('Кафе на Тверской');
    });

    it('says a part is missing (a new version) when the server answers', async () => {
      const router = serve(() => HttpResponse.json({ status: 'ok' }));
      await screen.findByRole('textbox', { name: /^Название/ }, { timeout: 15_000 });
      await router.navigate('/account/profile');
      await waitFor(() =>
        expect(screen.getByRole('alert')).toHaveTextContent(
          'Не удалось загрузить часть приложения. Обновите страницу, чтобы продолжить.',
        ),
      );
      expect(screen.getByRole('navigation', { name: 'Основное меню' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Обновить страницу' })).toBeInTheDocument();
    });
  },
);
