import { translate } from '@kontrol/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { referenceKey } from '../../../lib/reference-data/resources';
import { ADMIN_ROW, buildUser, choose, page, REGULAR, renderUsers, SETTINGS } from '../test/fixtures';

afterEach(() => queryClient.clear());

describe('inviting a user', { timeout: 30_000 }, () => {
  it('shows the server’s e-mail error on the field, then invites and opens the user’s page with a notice', async () => {
    const sent: unknown[] = [];
    const vera = buildUser({
      id: 7,
      name: 'Вера Кондитер',
      email: 'vera@example.test',
      role: 'admin',
      status: 'not_verified',
      invitation_pending: true,
      locale: 'en',
    });
    server.use(
      http.post('/api/users/add', async ({ request }) => {
        sent.push(await request.json());
        if (sent.length === 1) {
          return HttpResponse.json(
            { message: 'Проверьте поля.', errors: { email: ['Этот e-mail уже занят.'] } },
            { status: 422 },
          );
        }
        return HttpResponse.json({ data: vera }, { status: 201 });
      }),
      http.get('/api/users/7', () => HttpResponse.json({ data: vera })),
      http.get('/api/users/7/settings', () => HttpResponse.json({ data: SETTINGS })),
      http.get('/api/users/', () => HttpResponse.json(page([ADMIN_ROW, vera]))),
    );
    const { router } = await renderUsers('/account/users/add');
    await userEvent.type(screen.getByRole('textbox', { name: /Имя/ }), 'Вера Кондитер');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'anna@example.test');
    await choose(screen.getByRole('combobox', { name: /^Роль$/ }), 'Администратор');
    await choose(screen.getByRole('combobox', { name: /^Роль доступа/ }), 'Повара');
    await choose(screen.getByRole('combobox', { name: /^Язык/ }), 'English');
    await userEvent.click(screen.getByRole('button', { name: 'Отправить приглашение' }));

    expect(await screen.findByText('Исправьте следующие ошибки')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveAccessibleDescription(
      expect.stringContaining('Этот e-mail уже занят.') as string,
    );
    expect(router.state.location.pathname).toBe('/account/users/add');

    await userEvent.clear(screen.getByRole('textbox', { name: /E-mail/ }));
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'vera@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Отправить приглашение' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/users/7'));
    expect(await screen.findByText('Приглашение отправлено на vera@example.test.')).toBeInTheDocument();
    expect(sent[1]).toEqual({
      name: 'Вера Кондитер',
      email: 'vera@example.test',
      role: 'admin',
      acl_role_id: 1,
      locale: 'en',
    });
    // The users reference list (the complaints' assignees) is to be read again: the account frame,
    // which watches it, does so at once.
    expect(queryClient.getQueryState(referenceKey('users'))?.isInvalidated).toBe(true);
  });

  it('refused because the admin’s own e-mail is unconfirmed, offers the confirmation e-mail again', async () => {
    let resent = 0;
    server.use(
      http.post('/api/users/add', () =>
        HttpResponse.json({ message: translate('ru', 'users.verify_first') }, { status: 403 }),
      ),
      http.post('/api/email/verification-notification', () => {
        resent += 1;
        return HttpResponse.json(
          { message: 'Мы отправили новое письмо со ссылкой для подтверждения e-mail.' },
          { status: 202 },
        );
      }),
    );
    const { router } = await renderUsers('/account/users/add');
    expect(screen.queryByRole('button', { name: 'Отправить письмо ещё раз' })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: /Имя/ }), 'Ольга');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'olga@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Отправить приглашение' }));

    expect(await screen.findByText(translate('ru', 'users.verify_first'))).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Отправить письмо ещё раз' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Мы отправили новое письмо со ссылкой для подтверждения e-mail.',
    );
    expect(resent).toBe(1);
    expect(router.state.location.pathname).toBe('/account/users/add');
  });

  it('offers nothing of the kind for another refusal', async () => {
    server.use(
      http.post('/api/users/add', () =>
        HttpResponse.json({ message: 'Недостаточно прав для этого действия.' }, { status: 403 }),
      ),
    );
    await renderUsers('/account/users/add');
    await userEvent.type(screen.getByRole('textbox', { name: /Имя/ }), 'Ольга');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'olga@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Отправить приглашение' }));
    expect(await screen.findByText('Недостаточно прав для этого действия.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Отправить письмо ещё раз' })).toBeNull();
  });

  it('is not offered to a user who is not an admin', async () => {
    await renderUsers('/account/users/add', {}, REGULAR);
    expect(
      await screen.findByText('Приглашать пользователей и менять роли доступа могут только администраторы.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Отправить приглашение' })).toBeNull();
  });
});
