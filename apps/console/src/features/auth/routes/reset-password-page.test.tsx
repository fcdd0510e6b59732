import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildAuthUser, server } from '../../../test/server';
import type { GuestPageData } from '../../../lib/auth/loaders';
import { authUserKey } from '../../../lib/auth/session';
import { LoginPage } from './login-page';
import { ResetPasswordPage } from './reset-password-page';

function Landed() {
  return <p>landed on {useLocation().pathname}</p>;
}

function renderPage(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/auth/reset-password', Component: ResetPasswordPage },
      { path: '/auth/login', Component: LoginPage, loader: (): GuestPageData => ({ tokenFailed: false }) },
      { path: '/account/*', Component: Landed },
    ],
    { initialEntries: [url] },
  );
  render(
    <MantineProvider env="test">
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

/** The reset endpoint: records the bodies; `answer` decides the response. */
function resetApi(answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.get('/sanctum/csrf-cookie', () => new HttpResponse(null, { status: 204 })),
    http.post('/api/reset-password', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

async function choosePassword() {
  await userEvent.type(screen.getByLabelText(/^Пароль/), 'correct horse 1');
  await userEvent.type(screen.getByLabelText(/^Подтверждение пароля/), 'correct horse 1');
}

describe('the reset-password page', { timeout: 30_000 }, () => {
  it('words an invitation link as choosing a first password, and signs the new user in once accepted', async () => {
    const bodies = resetApi(() => HttpResponse.json({ message: 'Пароль сохранён.' }));
    const logins: unknown[] = [];
    server.use(
      http.post('/api/login', async ({ request }) => {
        logins.push(await request.json());
        return HttpResponse.json({ data: buildAuthUser(['requests']) });
      }),
    );
    const router = renderPage('/auth/reset-password?token=abc&email=vera%40example.test&invitation=1');
    expect(await screen.findByRole('heading', { name: 'Выберите пароль' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Новый пароль' })).toBeNull();
    expect(document.title).toBe('Выберите пароль · Kontrol');
    await choosePassword();
    await userEvent.click(screen.getByRole('button', { name: 'Принять приглашение' }));
    expect(await screen.findByText('landed on /account/requests')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/requests');
    expect(bodies).toEqual([
      {
        token: 'abc',
        email: 'vera@example.test',
        password: 'correct horse 1',
        password_confirmation: 'correct horse 1',
      },
    ]);
    expect(logins).toEqual([{ email: 'vera@example.test', password: 'correct horse 1' }]);
    expect(queryClient.getQueryData(authUserKey)).toMatchObject({ acl_modules: [{ slug: 'requests' }] });
    expect(localStorage.getItem('guest')).toBe('isNotGuest');
    queryClient.clear();
  });

  it('after a reset (or a sign-in that fails) offers the login page with the e-mail filled in', async () => {
    resetApi(() => HttpResponse.json({ message: 'Пароль сохранён.' }));
    renderPage('/auth/reset-password?token=abc&email=vera%40example.test');
    await choosePassword();
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByText('Пароль сохранён.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Войти' }));
    expect(await screen.findByRole('textbox', { name: 'E-mail' })).toHaveValue('vera@example.test');
  });

  it('sends an invitee whose link has expired to their administrator, not to the reset form', async () => {
    resetApi(() =>
      HttpResponse.json(
        { message: 'Проверьте поля.', errors: { email: ['Ссылка устарела.'] } },
        { status: 422 },
      ),
    );
    renderPage('/auth/reset-password?token=old&email=vera%40example.test&invitation=1');
    await choosePassword();
    await userEvent.click(screen.getByRole('button', { name: 'Принять приглашение' }));
    expect(
      await screen.findByText('Попросите администратора отправить новое приглашение.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Запросить новую ссылку' })).toBeNull();
  });

  it('keeps the reset wording without the invitation mark', async () => {
    renderPage('/auth/reset-password?token=abc&email=anna%40example.test');
    expect(await screen.findByRole('heading', { name: 'Новый пароль' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сохранить пароль' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Принять приглашение' })).toBeNull();
  });
});
