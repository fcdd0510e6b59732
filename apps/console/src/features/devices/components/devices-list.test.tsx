import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { buildDashboardDevice, statAnswer } from '../../../test/entities';
import { buildAddress, buildDevice, buildDeviceType, buildRoom, renderEquipment } from '../test/fixtures';

afterEach(() => queryClient.clear());

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const references = {
  types: [
    buildDeviceType({ id: 1, name: 'Пароконвектомат' }),
    buildDeviceType({ id: 2, slug: 'fryer', name: 'Фритюрница' }),
  ],
  addresses: [buildAddress({ id: 1, name: 'Тверская, 1' }), buildAddress({ id: 2, name: 'Арбат, 5' })],
  rooms: [
    buildRoom({ id: 1, address_id: 1, name: 'Горячий цех' }),
    buildRoom({ id: 2, address_id: 2, name: 'Кухня' }),
  ],
  devices: [
    buildDevice({
      id: 1,
      name: 'Печь 10',
      controller_id: 'oven-10',
      last_online: { last_utc: minutesAgo(5) },
      next_service_date: '2026-12-01',
    }),
    buildDevice({
      id: 2,
      name: 'печь 2',
      serial_number: 'SN-777',
      last_online: { last_utc: minutesAgo(1441) },
    }),
    buildDevice({ id: 3, name: 'Фритюрница', type_id: 2, room_id: 2, address_id: 2, template_id: 4 }),
  ],
};

/** The device names in the table, top to bottom. */
const names = () =>
  within(screen.getByRole('table', { name: 'Оборудование' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('devices list', { timeout: 30_000 }, () => {
  it('shows every device of the reference data with its type, place, status in words and dates', async () => {
    await renderEquipment('/account/devices', references);
    expect(names()).toEqual(['печь 2', 'Печь 10', 'Фритюрница']);
    const oven = screen.getByRole('link', { name: 'Печь 10' });
    expect(oven).toHaveAttribute('href', '/account/devices/1');
    const row = oven.closest('[role="row"]') as HTMLElement;
    expect(row).toHaveTextContent('Пароконвектомат');
    expect(row).toHaveTextContent('Тверская, 1 › Горячий цех');
    expect(row).toHaveTextContent('В сети');
    expect(row).toHaveTextContent('01.12.2026');
    // Last seen 1441 minutes ago: offline (docs/contract.md, "States and transitions"), as is a device never seen.
    expect(screen.getByRole('link', { name: 'печь 2' }).closest('[role="row"]')).toHaveTextContent(
      'Не в сети',
    );
    expect(screen.getByRole('link', { name: 'Фритюрница' }).closest('[role="row"]')).toHaveTextContent(
      'Никогда',
    );
    expect(screen.getByText('Показано 3 из 3')).toBeInTheDocument();
  });

  it('names types in the interface language when the list came in another', async () => {
    // A list preloaded by an English browser for a console in Russian.
    await renderEquipment('/account/devices', {
      ...references,
      types: [
        buildDeviceType({ id: 1, name: 'Combi oven' }),
        buildDeviceType({ id: 2, slug: 'fryer', name: 'Fryer' }),
      ],
    });
    const row = screen.getByRole('link', { name: 'Печь 10' }).closest('[role="row"]') as HTMLElement;
    expect(row).toHaveTextContent('Пароконвектомат');
    expect(screen.queryByText('Combi oven')).toBeNull();
    await userEvent.click(screen.getByRole('combobox', { name: 'Тип' }));
    expect(screen.getByRole('option', { name: 'Фритюрница' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Fryer' })).toBeNull();
  });

  it('searches name, serial number and controller id; keeps search, filters and sort in the URL', async () => {
    const { router } = await renderEquipment('/account/devices', references);
    const search = screen.getByRole('searchbox', { name: 'Поиск' });

    await userEvent.type(search, 'sn-7');
    await waitFor(() => expect(names()).toEqual(['печь 2']));
    // The URL follows after a pause in typing.
    await waitFor(() => expect(router.state.location.search).toBe('?q=sn-7'));
    await userEvent.clear(search);
    await userEvent.type(search, 'OVEN');
    await waitFor(() => expect(names()).toEqual(['Печь 10']));
    await userEvent.clear(search);
    await waitFor(() => expect(names()).toHaveLength(3));
    await waitFor(() => expect(router.state.location.search).toBe(''));

    await userEvent.click(screen.getByRole('combobox', { name: 'Статус' }));
    await userEvent.click(screen.getByRole('option', { name: 'Не в сети' }));
    await waitFor(() => expect(names()).toEqual(['печь 2', 'Фритюрница']));
    await userEvent.click(screen.getByRole('combobox', { name: 'Умное' }));
    await userEvent.click(screen.getByRole('option', { name: 'Умное' }));
    await waitFor(() => expect(names()).toEqual(['Фритюрница']));
    expect(router.state.location.search).toBe('?status=offline&smart=yes');

    // Back undoes the last filter; forward brings it back.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(names()).toEqual(['печь 2', 'Фритюрница']));
    await act(() => router.navigate(1));
    await waitFor(() => expect(names()).toEqual(['Фритюрница']));

    await userEvent.click(screen.getByRole('button', { name: 'Сбросить фильтры' }));
    await waitFor(() => expect(names()).toHaveLength(3));
    expect(router.state.location.search).toBe('');
  });

  it('opens with the filters and sort of its URL, and sorts by a header', async () => {
    const { router } = await renderEquipment('/account/devices?address=1&sort=-name', references);
    expect(names()).toEqual(['Печь 10', 'печь 2']);
    expect(screen.getByRole('combobox', { name: 'Адрес' })).toHaveValue('Тверская, 1');
    const header = screen.getByRole('columnheader', { name: /Название/ });
    expect(header).toHaveAttribute('aria-sort', 'descending');

    await userEvent.click(screen.getByRole('button', { name: /Последний раз в сети/ }));
    expect(router.state.location.search).toBe('?address=1&sort=last_online');
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /Последний раз в сети/ })).toHaveAttribute(
        'aria-sort',
        'ascending',
      ),
    );
    expect(names()).toEqual(['печь 2', 'Печь 10']);

    // Choosing another address drops the room filter, whose rooms belong to the first.
    await act(() => router.navigate('/account/devices?address=1&room=1'));
    await userEvent.click(screen.getByRole('combobox', { name: 'Адрес' }));
    await userEvent.click(screen.getByRole('option', { name: 'Арбат, 5' }));
    expect(router.state.location.search).toBe('?address=2');
    await waitFor(() => expect(names()).toEqual(['Фритюрница']));
  });

  it("filters by a dashboard counter (the dashboard's links), by the statistics of the type shown", async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/devices/stat/:type', ({ params }) => {
        asked.push(String(params.type));
        // Of the ovens, only «печь 2» washed too long ago.
        return HttpResponse.json(
          statAnswer([
            buildDashboardDevice({
              id: 1,
              name: 'Печь 10',
              wash_interval_hours: 24,
              last_wash_at: minutesAgo(60),
            }),
            buildDashboardDevice({
              id: 2,
              name: 'печь 2',
              wash_interval_hours: 24,
              last_wash_at: minutesAgo(25 * 60),
            }),
          ]),
        );
      }),
    );
    const { router } = await renderEquipment('/account/devices?counter=washOutdated&type=1', references);
    await waitFor(() => expect(names()).toEqual(['печь 2']));
    expect(asked).toEqual(['1']);
    expect(screen.getByText('Счётчик: Мойка просрочена')).toBeInTheDocument();
    expect(screen.getByText('Показано 1 из 3')).toBeInTheDocument();

    // The other filters still apply on top of it.
    await userEvent.click(screen.getByRole('combobox', { name: 'Тип' }));
    await userEvent.click(screen.getByRole('option', { name: 'Фритюрница' }));
    await waitFor(() => expect(screen.getByText('Записей не найдено')).toBeInTheDocument());

    await act(() => router.navigate('/account/devices?counter=washOutdated&type=1'));
    await waitFor(() => expect(names()).toEqual(['печь 2']));
    await userEvent.click(screen.getByRole('button', { name: 'Убрать фильтр «Мойка просрочена»' }));
    await waitFor(() => expect(names()).toEqual(['печь 2', 'Печь 10']));
    expect(router.state.location.search).toBe('?type=1');
  });

  it('says "No records found" when nothing matches', async () => {
    await renderEquipment('/account/devices?q=нет-такого', references);
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists 10 000 devices rendering only the rows in view', async () => {
    const devices = Array.from({ length: 10_000 }, (_, i) =>
      buildDevice({ id: i + 1, name: `Устройство ${i + 1}`, room_id: 1 + (i % 2), address_id: 1 + (i % 2) }),
    );
    await renderEquipment('/account/devices', { ...references, devices });
    const table = screen.getByRole('table', { name: 'Оборудование' });
    expect(table).toHaveAttribute('aria-rowcount', '10001');
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
    expect(names()[0]).toBe('Устройство 1');
  });
});
