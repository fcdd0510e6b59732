import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import {
  ADMIN_ROLE,
  ADMIN_ROW,
  buildAclRole,
  buildUser,
  choose,
  COOKS,
  moduleOf,
  page,
  REGULAR,
  renderUsers,
} from '../test/fixtures';

afterEach(() => queryClient.clear());

const boris = buildUser({ id: 2, name: 'Борис Су-шеф', email: 'boris@example.test' });
const vera = buildUser({
  id: 3,
  name: 'Вера Кондитер',
  email: 'vera@example.test',
  status: 'not_verified',
  invitation_pending: true,
  acl_role_id: null,
  acl_role: null,
});
const gleb = buildUser({ id: 4, name: 'Глеб Мойщик', email: 'gleb@example.test', disabled: true });

const rowOf = (name: string) => screen.getByRole('link', { name }).closest('[role="row"]') as HTMLElement;

describe('the users list', { timeout: 30_000 }, () => {
  it('names the built-in administrator role in the interface language', async () => {
    // Created by an English-speaking admin: stored as "Administrator", read in a Russian console.
    const admins = { ...ADMIN_ROLE, name: 'Administrator' };
    const anna = { ...ADMIN_ROW, acl_role: { id: 10, name: 'Administrator', modules: ADMIN_ROLE.modules } };
    server.use(http.get('/api/users/', () => HttpResponse.json(page([anna]))));
    await renderUsers('/account/users', { users: [anna], roles: [admins, COOKS] });
    expect(await screen.findByRole('link', { name: 'Анна Повар' })).toBeInTheDocument();
    expect(rowOf('Анна Повар')).toHaveTextContent('anna@example.testАдминистраторПодтверждёнАдминистратор');
    expect(rowOf('Анна Повар')).not.toHaveTextContent('Administrator');
  });

  it('shows each user’s role, status and access role, searched and filtered on the server, paged', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/users/', ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params);
        return HttpResponse.json(page([ADMIN_ROW, boris, vera, gleb], Number(params.get('page')), 2));
      }),
    );
    const { router } = await renderUsers('/account/users');
    expect(await screen.findByRole('tab', { name: 'Пользователи', selected: true })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Анна Повар' })).toHaveAttribute(
      'href',
      '/account/users/1',
    );
    expect(rowOf('Анна Повар')).toHaveTextContent('anna@example.testАдминистраторПодтверждёнАдминистраторы');
    expect(rowOf('Борис Су-шеф')).toHaveTextContent('ПользовательПодтверждёнПовара');
    expect(rowOf('Вера Кондитер')).toHaveTextContent('ПользовательПриглашение отправлено—');
    expect(rowOf('Глеб Мойщик')).toHaveTextContent('Отключён');
    expect(asked[0]?.get('page')).toBe('1');
    expect(asked[0]?.has('filters')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Страница 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(asked.at(-1)?.get('page')).toBe('2'));

    // A name; then an e-mail (it holds @); each search starts again at page 1.
    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск пользователей' }), 'бор');
    await waitFor(() =>
      expect(asked.at(-1)?.get('filters')).toBe('{"name":{"operator":"like","value":"бор"}}'),
    );
    expect(asked.at(-1)?.get('page')).toBe('1');
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Поиск пользователей' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск пользователей' }), '@example');
    await waitFor(() =>
      expect(asked.at(-1)?.get('filters')).toBe('{"email":{"operator":"like","value":"@example"}}'),
    );

    await choose(screen.getByRole('combobox', { name: 'Роль' }), 'Администратор');
    await choose(screen.getByRole('combobox', { name: 'Статус' }), 'Не подтверждён');
    await choose(screen.getByRole('combobox', { name: 'Роль доступа' }), 'Повара');
    await waitFor(() =>
      expect(JSON.parse(asked.at(-1)?.get('filters') ?? '{}')).toEqual({
        email: { operator: 'like', value: '@example' },
        role: { operator: '=', value: 'admin' },
        status: { operator: '=', value: 'not_verified' },
        acl_role_id: { operator: '=', value: 1 },
      }),
    );
    // Disabled users are a status of their own.
    await choose(screen.getByRole('combobox', { name: 'Статус' }), 'Отключён');
    await waitFor(() =>
      expect(JSON.parse(asked.at(-1)?.get('filters') ?? '{}')).toMatchObject({
        disabled: { operator: '=', value: true },
      }),
    );
    expect(JSON.parse(asked.at(-1)?.get('filters') ?? '{}')).not.toHaveProperty('status');
    await choose(screen.getByRole('combobox', { name: 'Статус' }), 'Не подтверждён');
    const search = new URLSearchParams(router.state.location.search);
    expect([search.get('role'), search.get('status'), search.get('acl_role')]).toEqual([
      'admin',
      'not_verified',
      '1',
    ]);

    // Admins invite.
    expect(screen.getByRole('link', { name: 'Пригласить пользователя' })).toHaveAttribute(
      'href',
      '/account/users/add',
    );
  });

  it('says when no user matches', async () => {
    server.use(http.get('/api/users/', () => HttpResponse.json(page([]))));
    await renderUsers('/account/users?q=zzz');
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
  });

  it('lists the access roles with their sections and how many users hold each', async () => {
    const empty = buildAclRole({
      id: 2,
      name: 'Бухгалтерия',
      modules: [moduleOf('billing'), moduleOf('dashboard')],
    });
    const { router } = await renderUsers('/account/users?view=roles', {
      roles: [ADMIN_ROLE, COOKS, empty],
      users: [ADMIN_ROW, boris, buildUser({ id: 5, name: 'Дина' }), vera],
    });
    expect(await screen.findByRole('tab', { name: 'Роли доступа', selected: true })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Роли доступа' });
    expect(within(table).getByRole('link', { name: 'Повара' })).toHaveAttribute(
      'href',
      '/account/users/roles/1',
    );
    expect(rowOf('Повара')).toHaveTextContent('ПовараРецепты2');
    expect(rowOf('Бухгалтерия')).toHaveTextContent('БухгалтерияБиллинг, Главная0');
    expect(rowOf('Администраторы')).toHaveTextContent('Встроенная');
    expect(rowOf('Администраторы')).toHaveTextContent('1');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск ролей' }), 'бух');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Повара' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Бухгалтерия' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Добавить роль' })).toHaveAttribute(
      'href',
      '/account/users/roles/add',
    );

    await userEvent.click(screen.getByRole('tab', { name: 'Пользователи' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('offers no invitation and no new role to a user who is not an admin', async () => {
    server.use(http.get('/api/users/', () => HttpResponse.json(page([ADMIN_ROW, boris]))));
    await renderUsers('/account/users', {}, REGULAR);
    expect(await screen.findByRole('link', { name: 'Борис Су-шеф' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Пригласить пользователя' })).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Роли доступа' }));
    expect(await screen.findByRole('link', { name: 'Повара' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Добавить роль' })).toBeNull();
  });
});
