import type { AclRoleAddBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { ADMIN_ROLE, buildAclRole, COOKS, moduleOf, REGULAR, renderUsers } from '../test/fixtures';

afterEach(() => queryClient.clear());

/** POST /api/acl/role answers the role whose id the filters name, as the API does; others 404. */
function findRoleApi(...roles: (typeof COOKS)[]) {
  const asked: unknown[] = [];
  server.use(
    http.post('/api/acl/role', async ({ request }) => {
      const body = (await request.json()) as { filters: { id: { operator: string; value: number } } };
      asked.push(body);
      const role = roles.find((r) => r.id === body.filters.id.value);
      return role
        ? HttpResponse.json({ data: role })
        : HttpResponse.json({ message: 'Не найдено.' }, { status: 404 });
    }),
  );
  return asked;
}

describe('access roles', { timeout: 30_000 }, () => {
  it('adds a role with the sections ticked, labelled as the sidebar names them', async () => {
    const sent: AclRoleAddBody[] = [];
    const added = buildAclRole({
      id: 4,
      name: 'Склад',
      modules: [moduleOf('devices'), moduleOf('telemetry')],
    });
    findRoleApi(added);
    server.use(
      http.post('/api/acl/role/add', async ({ request }) => {
        sent.push((await request.json()) as AclRoleAddBody);
        if (sent.length === 1) {
          return HttpResponse.json(
            { message: 'Проверьте поля.', errors: { name: ['Роль с таким названием уже есть.'] } },
            { status: 422 },
          );
        }
        return HttpResponse.json({ data: added }, { status: 201 });
      }),
    );
    const { router } = await renderUsers('/account/users/roles/add');
    await userEvent.type(screen.getByRole('textbox', { name: /Название роли/ }), 'Повара');
    const sections = screen.getByRole('group', { name: /Разделы/ });
    const labels = within(sections)
      .getAllByRole('checkbox')
      .map((box) => (box as HTMLInputElement).labels?.[0]?.textContent);
    expect(labels).toEqual([
      'Главная',
      'Телеметрия',
      'Жалобы',
      'Шаблоны тока',
      'Рецепты',
      'Адреса',
      'Оборудование',
      'Пользователи',
      'Настройки',
      'Биллинг',
    ]);
    await userEvent.click(within(sections).getByRole('checkbox', { name: 'Оборудование' }));
    await userEvent.click(within(sections).getByRole('checkbox', { name: 'Телеметрия' }));
    await userEvent.click(screen.getByRole('button', { name: 'Добавить роль' }));
    expect(await screen.findByText('Исправьте следующие ошибки')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Название роли/ })).toHaveAccessibleDescription(
      'Роль с таким названием уже есть.',
    );

    await userEvent.clear(screen.getByRole('textbox', { name: /Название роли/ }));
    await userEvent.type(screen.getByRole('textbox', { name: /Название роли/ }), 'Склад');
    await userEvent.click(screen.getByRole('button', { name: 'Добавить роль' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/users/roles/4'));
    // In the modules list's order, whatever order they were ticked in.
    expect(sent[1]).toEqual({
      name: 'Склад',
      module_ids: [moduleOf('telemetry').id, moduleOf('devices').id],
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Склад' })).toBeInTheDocument();
  });

  it('edits a role’s name and sections', async () => {
    const asked = findRoleApi(COOKS);
    let sent: unknown;
    server.use(
      http.post('/api/acl/role/1', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ data: { ...COOKS, name: 'Повара и кондитеры' } });
      }),
    );
    await renderUsers('/account/users/roles/1');
    expect(await screen.findByRole('heading', { level: 2, name: 'Повара' })).toBeInTheDocument();
    await waitFor(() =>
      expect(asked).toEqual([{ filters: { id: { operator: '=', value: 1 } }, withAdminRole: true }]),
    );
    expect(screen.getByRole('checkbox', { name: 'Рецепты' })).toBeChecked();
    await userEvent.type(screen.getByRole('textbox', { name: /Название роли/ }), ' и кондитеры');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Жалобы' }));
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Сохранено.')).toBeInTheDocument();
    expect(sent).toEqual({
      name: 'Повара и кондитеры',
      module_ids: [moduleOf('requests').id, moduleOf('recipes').id],
    });
  });

  it('refuses to delete a role while users hold it, saying how many; deletes it once free', async () => {
    findRoleApi(COOKS);
    let holders = 3;
    let deletes = 0;
    server.use(
      http.get('/api/acl/role/1/is_used', () =>
        HttpResponse.json({ data: { is_used: holders > 0, users_count: holders } }),
      ),
      http.delete('/api/acl/role/1', () => {
        deletes += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { router } = await renderUsers('/account/users/roles/1');
    await userEvent.click(await screen.findByRole('button', { name: 'Удалить роль' }));
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('Роль используется');
    expect(refusal).toHaveTextContent(
      'Пользователей с этой ролью: 3. Сначала назначьте им другую роль доступа, затем удалите её.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes).toBe(0);

    holders = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Удалить роль' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить роль «Повара»?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=roles'));
    expect(deletes).toBe(1);
  });

  it('shows the server’s refusal when the role was given to someone in between', async () => {
    findRoleApi(COOKS);
    server.use(
      http.get('/api/acl/role/1/is_used', () =>
        HttpResponse.json({ data: { is_used: false, users_count: 0 } }),
      ),
      http.delete('/api/acl/role/1', () =>
        HttpResponse.json({ message: 'Роль назначена пользователям.' }, { status: 409 }),
      ),
    );
    await renderUsers('/account/users/roles/1');
    await userEvent.click(await screen.findByRole('button', { name: 'Удалить роль' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить роль «Повара»?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await within(dialog).findByText('Роль назначена пользователям.')).toBeInTheDocument();
  });

  it('shows the administrators’ role read-only', async () => {
    findRoleApi(ADMIN_ROLE);
    await renderUsers('/account/users/roles/10');
    expect(await screen.findByRole('heading', { level: 2, name: 'Администраторы' })).toBeInTheDocument();
    expect(
      screen.getByText('Роль администраторов встроенная: её нельзя изменить или удалить.'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows a user who is not an admin a role read-only', async () => {
    findRoleApi(COOKS);
    await renderUsers('/account/users/roles/1', {}, REGULAR);
    expect(await screen.findByRole('heading', { level: 2, name: 'Повара' })).toBeInTheDocument();
    expect(within(screen.getByRole('list')).getByText('Рецепты')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says a role of another organisation is not found', async () => {
    findRoleApi(COOKS);
    await renderUsers('/account/users/roles/77', { roles: [COOKS] });
    expect(await screen.findByText('Роль доступа не найдена')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
