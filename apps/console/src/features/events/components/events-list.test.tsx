import type { DeviceEvent } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { buildDevice, buildDeviceEvent, buildDeviceEventTemplate, renderEvents } from '../test/fixtures';

afterEach(() => queryClient.clear());

const devices = [buildDevice({ id: 1, name: 'Печь 1' }), buildDevice({ id: 2, name: 'Печь 2' })];
const templates = [buildDeviceEventTemplate({ id: 1, name: 'Печи 10 GN' })];

function page(data: DeviceEvent[], total = data.length) {
  return {
    data,
    links: { first: '?page=1', last: '?page=1', prev: null, next: null },
    meta: {
      current_page: 1,
      from: data.length ? 1 : null,
      last_page: Math.max(1, Math.ceil(total / 25)),
      path: '/api/devices/events',
      per_page: 25,
      to: data.length || null,
      total,
    },
  };
}

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('the device events list', { timeout: 60_000 }, () => {
  it('asks for a page of events and sends the filters chosen as the server takes them', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/devices/events', ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params);
        return HttpResponse.json(
          params.get('filters')
            ? page([])
            : page([
                buildDeviceEvent({
                  id: 1,
                  device_id: 2,
                  title: 'Ток выше нормы нагрева',
                  severity: 'critical',
                }),
                buildDeviceEvent({
                  id: 2,
                  device_id: 1,
                  kind: 'no_data',
                  title: 'Нет данных 30 минут',
                  ended_at: '2026-11-01T10:00:00.000Z',
                  acknowledged: {
                    by: { id: 1, name: 'Анна Повар' },
                    at: '2026-11-01T09:30:00.000Z',
                    comment: null,
                  },
                }),
              ]),
        );
      }),
    );
    const { router } = await renderEvents('/account/device_event_templates?tab=events', {
      devices,
      templates,
    });

    const table = await screen.findByRole('table', { name: 'События' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Ток выше нормы нагрева');
    expect(rows[1]).toHaveTextContent('Печь 2');
    expect(rows[1]).toHaveTextContent('Авария');
    expect(rows[1]).toHaveTextContent('Открыто');
    expect(
      within(rows[1] as HTMLElement).getByRole('link', { name: 'Ток выше нормы нагрева' }),
    ).toHaveAttribute('href', '/account/device_event_templates/events/1');
    expect(rows[2]).toHaveTextContent('Нет данных');
    expect(rows[2]).toHaveTextContent('Анна Повар');
    expect(rows[2]).not.toHaveTextContent('Открыто');
    expect(asked[0]?.get('page')).toBe('1');
    expect(asked[0]?.get('filters')).toBeNull();

    await choose('Важность', 'Авария');
    await choose('Вид', 'Ток выше нормы');
    await choose('Устройство', 'Печь 2');
    await choose('Шаблон', 'Печи 10 GN');
    await userEvent.click(screen.getByRole('switch', { name: 'Только открытые' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Только неподтверждённые' }));

    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    await waitFor(() =>
      expect(JSON.parse(asked.at(-1)?.get('filters') ?? '{}')).toEqual({
        severity: { operator: '=', value: 'critical' },
        kind: { operator: '=', value: 'current_above' },
        device_id: { operator: '=', value: 2 },
        template_id: { operator: '=', value: 1 },
        ended_at: { operator: '=', value: null },
        acknowledged_at: { operator: '=', value: null },
      }),
    );
    expect(asked.at(-1)?.get('page')).toBe('1');
    // The filters live in the query string: a shared link shows the same list.
    expect(router.state.location.search).toContain('severity=critical');
    expect(router.state.location.search).toContain('unack=1');
    // The manual event form gets the device chosen.
    expect(screen.getByRole('link', { name: 'Добавить событие' })).toHaveAttribute(
      'href',
      '/account/device_event_templates/events/add?device=2',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Сбросить фильтры' }));
    // The unfiltered first page is shown again (from the cache: it is fresh).
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'События' })).getAllByRole('row')).toHaveLength(3),
    );
    expect(router.state.location.search).not.toContain('severity');
  });

  it('acknowledges an event from the list with a comment, then reloads the events', async () => {
    let acknowledged = false;
    let sent: unknown;
    const event = buildDeviceEvent({ id: 5, device_id: 1, title: 'Ток выше нормы нагрева' });
    const done: DeviceEvent = {
      ...event,
      acknowledged: {
        by: { id: 1, name: 'Анна Повар' },
        at: '2026-11-01T09:30:00.000Z',
        comment: 'Проверили',
      },
    };
    server.use(
      http.get('/api/devices/events', () => HttpResponse.json(page([acknowledged ? done : event]))),
      http.put('/api/devices/events/5', async ({ request }) => {
        sent = await request.json();
        acknowledged = true;
        return HttpResponse.json({ data: done });
      }),
    );
    await renderEvents('/account/device_event_templates?tab=events', { devices, events: [event] });

    await userEvent.click(
      await screen.findByRole('button', { name: 'Подтвердить «Ток выше нормы нагрева» устройства Печь 1' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Подтвердить событие' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Комментарий/ }), 'Проверили');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Подтвердить' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual({ acknowledged: true, comment: 'Проверили' });
    const table = screen.getByRole('table', { name: 'События' });
    await waitFor(() => expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Анна Повар'));
    expect(within(table).queryByRole('button', { name: /Подтвердить/ })).toBeNull();
    // docs/contract.md, "States and transitions": the events list loaded on entry is marked stale, so the frame watching it reloads it.
    expect(queryClient.getQueryState(['reference', 'deviceEvents'])?.isInvalidated).toBe(true);
  });
});
