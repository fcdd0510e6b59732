import type { AuthUser } from '@kontrol/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { queryClient } from '../lib/query-client';
import { buildAuthUser, server } from '../test/server';
import { AppProvider } from './provider';

/** The real router, created (and so started) at `path` once the test's API answers are in place. */
async function startAt(path: string) {
  window.history.replaceState({}, '', path);
  return (await import('./router')).startRouter();
}

describe('the console in a DOM', () => {
  it('waits for reference data, then signs out by itself on a 401 mid-session (docs/contract.md, "Error catalogue")', async () => {
    localStorage.setItem('guest', 'isNotGuest');
    const user: AuthUser = buildAuthUser(['recipes', 'users']);
    let releaseRecipes: () => void = () => undefined;
    const recipesAnswered = new Promise<void>((resolve) => (releaseRecipes = resolve));
    server.use(
      http.get('/api/users/auth', () => HttpResponse.json({ data: user })),
      // One reference list answers late, one fails: the page waits for the first and shrugs at the second.
      http.get('/api/recipes/', async () => {
        await recipesAnswered;
        return HttpResponse.json({ data: [] });
      }),
      http.get('/api/recipes_sets/', () => HttpResponse.json({ message: 'Не найдено.' }, { status: 404 })),
      http.get('/api/acl/modules', () => HttpResponse.json({ data: [] })),
      http.post('/api/acl/roles', () => HttpResponse.json({ data: [] })),
      http.put('/api/user/profile-information', () =>
        HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 }),
      ),
    );
    const router = await startAt('/account/profile');
    render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );

    // The frame is there, the page is not: reference data is still loading.
    expect(await screen.findByRole('navigation', { name: 'Основное меню' })).toBeInTheDocument();
    // The page's title shows with the frame; the page itself waits for the reference data.
    expect(screen.getByRole('heading', { level: 1, name: 'Профиль' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Загрузка…' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2, name: 'Ваши данные' })).toBeNull();
    releaseRecipes();
    expect(await screen.findByRole('heading', { level: 2, name: 'Ваши данные' })).toBeInTheDocument();

    // Only the user's modules are in the sidebar, in the contract's order, and logout always.
    const nav = screen.getByRole('navigation', { name: 'Основное меню' });
    expect([...nav.querySelectorAll('a, button')].map((e) => e.textContent)).toEqual([
      'Рецепты',
      'Пользователи',
      'Выход',
    ]);

    // The session ends on the server; the next call answers 401.
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?redirect=%2Faccount%2Fprofile');
    expect(localStorage.getItem('guest')).toBe('isGuest');
    // The reset action: nothing cached is left, and nothing loads again behind the user's back.
    await waitFor(() => expect(queryClient.getQueryCache().getAll()).toHaveLength(0));
    expect(await screen.findByRole('heading', { level: 1, name: 'Вход в систему' })).toBeInTheDocument();
  });
});
