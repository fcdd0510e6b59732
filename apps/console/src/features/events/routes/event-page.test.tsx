import type { DeviceEvent, DeviceEventBody } from '@kontrol/contracts';
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

describe('a device event’s page', { timeout: 60_000 }, () => {
  it('shows the event with links to its device and template, acknowledges it and takes it back', async () => {
    let current: DeviceEvent = buildDeviceEvent({ id: 9, device_id: 2, value: 52.5 });
    const sent: unknown[] = [];
    server.use(
      http.get('/api/devices/events/9', () => HttpResponse.json({ data: current })),
      http.put('/api/devices/events/9', async ({ request }) => {
        const body = (await request.json()) as { acknowledged: boolean; comment?: string | null };
        sent.push(body);
        current = {
          ...current,
          acknowledged: body.acknowledged
            ? {
                by: { id: 1, name: 'Анна Повар' },
                at: '2026-11-01T09:30:00.000Z',
                comment: body.comment ?? null,
              }
            : null,
        };
        return HttpResponse.json({ data: current });
      }),
      http.get('/api/devices/events', () => HttpResponse.json({ data: [current] })),
    );
    await renderEvents('/account/device_event_templates/events/9', { devices, templates });

    expect(
      await screen.findByRole('heading', { level: 2, name: 'Ток выше нормы нагрева' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Открыто')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Печь 2' })).toHaveAttribute('href', '/account/devices/2');
    expect(screen.getByRole('link', { name: 'Печи 10 GN' })).toHaveAttribute(
      'href',
      '/account/device_event_templates/1',
    );
    expect(screen.getByText('52,5 А')).toBeInTheDocument();
    expect(screen.getByText('Kontrol, по правилу')).toBeInTheDocument();
    // A rule's event is closed by its rule: no editing by hand, and no deleting while it is open.
    expect(screen.queryByRole('group', { name: 'Изменить событие' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Удалить событие' })).toBeNull();
    expect(
      screen.getByText('Открытое событие правила можно удалить, когда правило его закроет.'),
    ).toBeInTheDocument();

    const panel = screen.getByRole('group', { name: 'Подтверждение' });
    await userEvent.type(within(panel).getByRole('textbox', { name: /Комментарий/ }), 'Заменили ТЭН');
    await userEvent.click(within(panel).getByRole('button', { name: 'Подтвердить' }));
    expect(await within(panel).findByText(/Подтвердил\(а\) Анна Повар/)).toBeInTheDocument();
    expect(within(panel).getByText('Комментарий: Заменили ТЭН')).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: 'Отменить подтверждение' }));
    expect(await within(panel).findByText('Это событие ещё никто не подтвердил.')).toBeInTheDocument();
    expect(sent).toEqual([{ acknowledged: true, comment: 'Заменили ТЭН' }, { acknowledged: false }]);
  });

  it('edits and closes a manual event, and deletes it after a confirmation', async () => {
    let current: DeviceEvent = buildDeviceEvent({
      id: 4,
      device_id: 1,
      template_id: null,
      rule_key: null,
      kind: 'manual',
      severity: 'info',
      title: 'Визит техника',
      value: null,
      created_by: { id: 1, name: 'Анна Повар' },
    });
    const sent: Record<string, unknown>[] = [];
    let deleted = 0;
    server.use(
      http.get('/api/devices/events/4', () => HttpResponse.json({ data: current })),
      http.put('/api/devices/events/4', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        current = { ...current, ...(body as Partial<DeviceEvent>) };
        return HttpResponse.json({ data: current });
      }),
      http.delete('/api/devices/events/4', () => {
        deleted += 1;
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/devices/events', () => HttpResponse.json({ data: [] })),
    );
    const { router } = await renderEvents('/account/device_event_templates/events/4', { devices, templates });

    expect(await screen.findByText('Нет: записано вручную')).toBeInTheDocument();
    const editor = screen.getByRole('group', { name: 'Изменить событие' });
    const title = within(editor).getByRole('textbox', { name: /Заголовок/ });
    await userEvent.clear(title);
    await userEvent.type(title, 'Визит техника: чистка');
    await userEvent.click(within(editor).getByRole('combobox', { name: 'Важность' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Предупреждение' }));
    await userEvent.click(within(editor).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      title: 'Визит техника: чистка',
      description: null,
      severity: 'warning',
      ended_at: null,
    });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Визит техника: чистка' }),
    ).toBeInTheDocument();

    await userEvent.click(within(editor).getByRole('button', { name: 'Закрыть событие сейчас' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(Object.keys(sent[1] ?? {})).toEqual(['ended_at']);
    expect(Date.now() - Date.parse(String(sent[1]?.ended_at))).toBeLessThan(60_000);
    expect(await screen.findByText('Завершено')).toBeInTheDocument();
    expect(within(editor).getByRole('button', { name: 'Открыть событие снова' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Удалить событие' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить событие «Визит техника: чистка»?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/device_event_templates'));
    expect(router.state.location.search).toBe('?tab=events');
    expect(deleted).toBe(1);
  });

  it('says so when the event does not exist', async () => {
    server.use(
      http.get('/api/devices/events/77', () =>
        HttpResponse.json({ message: 'Не найдено.' }, { status: 404 }),
      ),
    );
    await renderEvents('/account/device_event_templates/events/77', { devices });
    expect(await screen.findByText('Событие не найдено')).toBeInTheDocument();
  });
});

describe('writing an event by hand', { timeout: 60_000 }, () => {
  it('sends the manual event with the device chosen beforehand and opens its page', async () => {
    let sent: unknown;
    const created = buildDeviceEvent({
      id: 12,
      kind: 'manual',
      template_id: null,
      rule_key: null,
      title: 'Течь',
    });
    server.use(
      http.post('/api/devices/events/add', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
      http.get('/api/devices/events', () => HttpResponse.json({ data: [created] })),
      http.get('/api/devices/events/12', () => HttpResponse.json({ data: created })),
    );
    const { router } = await renderEvents('/account/device_event_templates/events/add?device=2', { devices });

    expect(screen.getByRole('combobox', { name: /Устройство/ })).toHaveValue('Печь 2');
    await userEvent.click(screen.getByRole('combobox', { name: /Важность/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Авария' }));
    await userEvent.type(screen.getByRole('textbox', { name: /Заголовок/ }), 'Течь');
    await userEvent.type(screen.getByRole('textbox', { name: /Описание/ }), 'Под печью вода');
    // Typed as Russian writes it, on a 24-hour clock (a Mantine date field, not the browser's own).
    const started = screen.getByRole('textbox', { name: /Начало/ });
    await userEvent.clear(started);
    await userEvent.type(started, '22.11.2026 09:15');
    await userEvent.click(screen.getByRole('button', { name: 'Добавить событие' }));

    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/account/device_event_templates/events/12'),
    );
    expect(sent).toEqual({
      device_id: 2,
      severity: 'critical',
      title: 'Течь',
      description: 'Под печью вода',
      started_at: new Date('2026-11-22T09:15').toISOString(),
      ended_at: null,
    } satisfies DeviceEventBody);
  });
});
