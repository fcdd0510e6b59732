import type { UserUpdateBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { ADMIN_ROW, buildUser, choose, COOKS, page, REGULAR, renderUsers, SETTINGS } from '../test/fixtures';

afterEach(() => queryClient.clear());

const boris = buildUser({
  id: 2,
  name: 'Борис Су-шеф',
  email: 'boris@example.test',
  acl_role_id: null,
  acl_role: null,
});

/** The API of one user: GET, PUT (recorded; `answer` decides), DELETE (counted), settings. */
function userApi(
  user = boris,
  answer: (body: UserUpdateBody) => Response | null = () => null,
): { puts: UserUpdateBody[]; deletes: number; invitations: number } {
  const calls = { puts: [] as UserUpdateBody[], deletes: 0, invitations: 0 };
  let current = user;
  server.use(
    http.get(`/api/users/${user.id}`, () => HttpResponse.json({ data: current })),
    http.put(`/api/users/${user.id}`, async ({ request }) => {
      const body = (await request.json()) as UserUpdateBody;
      calls.puts.push(body);
      const refused = answer(body);
      if (refused) return refused;
      current = {
        ...current,
        ...body,
        acl_role:
          body.acl_role_id === undefined ? current.acl_role : body.acl_role_id === 1 ? { ...COOKS } : null,
      };
      return HttpResponse.json({ data: current });
    }),
    http.delete(`/api/users/${user.id}`, () => {
      calls.deletes += 1;
      return new HttpResponse(null, { status: 204 });
    }),
    http.post(`/api/users/${user.id}/invitation`, () => {
      calls.invitations += 1;
      return HttpResponse.json({ data: current });
    }),
    http.get(`/api/users/${user.id}/settings`, () => HttpResponse.json({ data: SETTINGS })),
    http.get('/api/users/', () => HttpResponse.json(page([ADMIN_ROW]))),
  );
  return calls;
}

describe('a user’s page', { timeout: 30_000 }, () => {
  it('lets an admin change another user’s details, with the server’s refusal on the field', async () => {
    const calls = userApi(boris, (body) =>
      body.role === 'regular' && calls.puts.length === 1
        ? HttpResponse.json(
            { message: 'Проверьте поля.', errors: { name: ['Слишком длинное имя.'] } },
            { status: 422 },
          )
        : null,
    );
    await renderUsers('/account/users/2');
    expect(await screen.findByRole('heading', { level: 2, name: 'Борис Су-шеф' })).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: /Имя/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Борис Петрович');
    await choose(screen.getByRole('combobox', { name: /^Роль доступа/ }), 'Повара');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Исправьте следующие ошибки')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Имя/ })).toHaveAccessibleDescription('Слишком длинное имя.');

    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Сохранено.')).toBeInTheDocument();
    expect(calls.puts[1]).toEqual({
      name: 'Борис Петрович',
      email: 'boris@example.test',
      role: 'regular',
      acl_role_id: 1,
      locale: 'ru',
    });
    expect(screen.getByRole('heading', { level: 2, name: 'Борис Петрович' })).toBeInTheDocument();
  });

  it('does not offer an admin, on their own page, what the server refuses for oneself', async () => {
    const calls = userApi(ADMIN_ROW);
    await renderUsers('/account/users/1');
    expect(await screen.findByRole('heading', { level: 2, name: 'Анна Повар' })).toBeInTheDocument();
    expect(screen.getByText('Вы')).toBeInTheDocument();
    // Role and access role are shown, not offered; no disabling, no deleting.
    expect(screen.queryByRole('combobox', { name: /^Роль$/ })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /^Роль доступа/ })).toBeNull();
    expect(screen.getByText('Роль: Администратор')).toBeInTheDocument();
    expect(screen.getByText('Роль доступа: Администраторы')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Отключить пользователя' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Удалить пользователя' })).toBeNull();

    await userEvent.type(screen.getByRole('textbox', { name: /Имя/ }), 'на');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls.puts).toHaveLength(1));
    // Only what one may change about oneself is sent.
    expect(calls.puts[0]).toEqual({ name: 'Анна Поварна', email: 'anna@example.test', locale: 'ru' });
    // Their own notification settings are on the page too.
    expect(
      await screen.findByRole('button', { name: 'Сохранить настройки уведомлений' }),
    ).toBeInTheDocument();
  });

  it('disables another user after a confirmation, shows the server’s refusal, and enables them again', async () => {
    let refuse = true;
    const calls = userApi(boris, (body) => {
      if (body.disabled === true && refuse) {
        refuse = false;
        return HttpResponse.json(
          {
            message: 'Нельзя отключить последнего администратора.',
            errors: { disabled: ['Нельзя отключить последнего администратора.'] },
          },
          { status: 422 },
        );
      }
      return null;
    });
    await renderUsers('/account/users/2');
    await userEvent.click(await screen.findByRole('button', { name: 'Отключить пользователя' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отключить пользователя «Борис Су-шеф»?' });
    expect(calls.puts).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отключить' }));
    expect(
      await within(dialog).findByText('Нельзя отключить последнего администратора.'),
    ).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Отключить' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.puts).toEqual([{ disabled: true }, { disabled: true }]);
    expect(await screen.findByText('Пользователь отключён и не может войти.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Включить пользователя' }));
    await waitFor(() => expect(calls.puts.at(-1)).toEqual({ disabled: false }));
    expect(await screen.findByRole('button', { name: 'Отключить пользователя' })).toBeInTheDocument();
  });

  it('sends a new invitation while one is pending', async () => {
    const vera = buildUser({
      id: 3,
      name: 'Вера',
      email: 'vera@example.test',
      invitation_pending: true,
      status: 'not_verified',
    });
    const calls = userApi(vera);
    await renderUsers('/account/users/3');
    expect(await screen.findByText('Пользователь ещё не принял приглашение.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Отправить приглашение ещё раз' }));
    expect(await screen.findByText('Новое приглашение отправлено на vera@example.test.')).toBeInTheDocument();
    expect(calls.invitations).toBe(1);
  });

  it('deletes another user only after a confirmation', async () => {
    const calls = userApi(boris);
    const { router } = await renderUsers('/account/users/2');
    await userEvent.click(await screen.findByRole('button', { name: 'Удалить пользователя' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить пользователя «Борис Су-шеф»?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(calls.deletes).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'Удалить пользователя' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Удалить пользователя «Борис Су-шеф»?' })).getByRole(
        'button',
        {
          name: 'Удалить',
        },
      ),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/users'));
    expect(calls.deletes).toBe(1);
  });

  it('shows a user who is not an admin the details read-only, with no action and no one else’s settings', async () => {
    userApi(ADMIN_ROW);
    await renderUsers('/account/users/1', {}, REGULAR);
    expect(await screen.findByRole('heading', { level: 2, name: 'Анна Повар' })).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: 'Роль' }).closest('tr')).toHaveTextContent('Администратор');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Уведомления' })).toBeNull();
  });

  it('lets a user who is not an admin change their own notification settings, not their details', async () => {
    userApi(buildUser({ id: 2, name: 'Борис Су-шеф' }));
    await renderUsers('/account/users/2', {}, REGULAR);
    expect(await screen.findByRole('heading', { level: 3, name: 'Уведомления' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Сохранить' })).toBeNull();
    expect(
      await screen.findByRole('button', { name: 'Сохранить настройки уведомлений' }),
    ).toBeInTheDocument();
  });

  it('says a user of another organisation is not found', async () => {
    server.use(
      http.get('/api/users/99', () => HttpResponse.json({ message: 'Не найдено.' }, { status: 404 })),
    );
    await renderUsers('/account/users/99');
    expect(await screen.findByText('Пользователь не найден')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
