import type { DeviceGroup } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { pageOf, server } from '../../../test/server';
import { buildDevice, renderEquipment } from '../test/fixtures';

afterEach(() => queryClient.clear());

const devices = Array.from({ length: 10_000 }, (_, i) =>
  buildDevice({ id: i + 1, name: `Устройство ${i + 1}`, serial_number: `SN-${i + 1}` }),
);

function buildGroup(overrides: Partial<DeviceGroup> = {}): DeviceGroup {
  return {
    id: 3,
    name: 'Горячие цеха',
    description: null,
    device_ids: [],
    devices_count: 0,
    created_at: '2026-11-01T09:00:00.000Z',
    updated_at: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

const page = (data: DeviceGroup[], current = 1, last = 1) => pageOf(data, current, last);

describe('device groups', { timeout: 30_000 }, () => {
  it('lists groups in the groups view, searched by name on the server, paged', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/devices/client/groups', ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params);
        return HttpResponse.json(page([buildGroup({ devices_count: 12 })], Number(params.get('page')), 3));
      }),
    );
    const { router } = await renderEquipment('/account/devices?view=groups', { devices });
    expect(await screen.findByRole('tab', { name: 'Группы', selected: true })).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Горячие цеха' });
    expect(link).toHaveAttribute('href', '/account/devices/groups/3');
    expect(link.closest('[role="row"]')).toHaveTextContent('12');

    await userEvent.click(screen.getByRole('button', { name: 'Страница 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=groups&page=2'));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск групп' }), 'цех');
    await waitFor(() => expect(router.state.location.search).toBe('?view=groups&q=%D1%86%D0%B5%D1%85'));
    await waitFor(() =>
      expect(asked.at(-1)?.get('filters')).toBe('{"name":{"operator":"like","value":"цех"}}'),
    );
    expect(asked.at(-1)?.get('page')).toBe('1');

    // Back to the devices tab: a fresh devices list.
    await userEvent.click(screen.getByRole('tab', { name: 'Все устройства' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('creates a group choosing devices among 10 000 with a search', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/devices/client/groups/add', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ data: buildGroup({ id: 9 }) }, { status: 201 });
      }),
      http.get('/api/devices/client/groups/9', () => HttpResponse.json({ data: buildGroup({ id: 9 }) })),
    );
    const { router } = await renderEquipment('/account/devices/groups/add', { devices });
    await userEvent.type(screen.getByRole('textbox', { name: /Название группы/ }), 'Горячие цеха');
    const found = screen.getByRole('group', { name: 'Найденные устройства' });
    // Only the rows in view are in the document.
    expect(within(found).getAllByRole('checkbox').length).toBeLessThan(60);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Найти устройства' }), 'sn-9999');
    await waitFor(() => expect(within(found).getAllByRole('checkbox')).toHaveLength(1));
    await userEvent.click(within(found).getByRole('checkbox', { name: /Устройство 9999/ }));
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Найти устройства' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Найти устройства' }), 'устройство 12');
    await userEvent.click(screen.getByRole('button', { name: /Выбрать все найденные \(111\)/ }));
    expect(screen.getByText('Выбрано: 112')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'Только выбранные' }));
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Найти устройства' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Найти устройства' }), '9999');
    await waitFor(() => expect(within(found).getAllByRole('checkbox')).toHaveLength(1));

    await userEvent.click(screen.getByRole('button', { name: 'Добавить группу' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/devices/groups/9'));
    const body = sent as { name: string; description: null; device_ids: number[] };
    expect(body.name).toBe('Горячие цеха');
    expect(body.description).toBeNull();
    expect(body.device_ids).toHaveLength(112);
    expect(body.device_ids).toContain(9999);
    expect(body.device_ids).toContain(12);
  });

  it('shows a group, saves it, and deletes it only after confirmation', async () => {
    let deletes = 0;
    server.use(
      http.get('/api/devices/client/groups/3', () =>
        HttpResponse.json({ data: buildGroup({ device_ids: [1, 2], devices_count: 2 }) }),
      ),
      http.put('/api/devices/client/groups/3', () =>
        HttpResponse.json(
          { message: 'Проверьте поля.', errors: { name: ['Группа с таким названием уже есть.'] } },
          { status: 422 },
        ),
      ),
      http.delete('/api/devices/client/groups/3', () => {
        deletes += 1;
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/devices/client/groups', () => HttpResponse.json(page([]))),
    );
    const { router } = await renderEquipment('/account/devices/groups/3', { devices });
    expect(await screen.findByRole('heading', { level: 2, name: 'Горячие цеха' })).toBeInTheDocument();
    expect(screen.getByText('Выбрано: 2')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Исправьте следующие ошибки')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Название группы/ })).toHaveAccessibleDescription(
      'Группа с таким названием уже есть.',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Удалить группу' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить группу «Горячие цеха»?' });
    expect(deletes).toBe(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=groups'));
    expect(deletes).toBe(1);
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
  });
});
