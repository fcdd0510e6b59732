import type { ServiceEntry } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { installCanvas } from '../../../test/canvas';
import { server } from '../../../test/server';
import { buildDashboardDevice, minutesAgo, statAnswer } from '../../../test/entities';
import { pageOf } from '../../../test/server';
import { buildAuthUser } from '../../../test/server';
import {
  buildDevice,
  buildDeviceEvent,
  buildDeviceEventTemplate,
  buildDeviceType,
  renderEquipment,
  withinLimits,
} from '../test/fixtures';

beforeAll(installCanvas);
afterEach(() => queryClient.clear());

const HOUR = 3_600_000;

/** The connection strip of the last 24 hours: offline for the first half, online since; no limit met. */
function serveOnlineIntervals() {
  server.use(
    withinLimits,
    http.get('/api/devices/info/last_online', ({ request }) => {
      const url = new URL(request.url);
      const start = Number(url.searchParams.get('start'));
      const finish = Number(url.searchParams.get('finish'));
      const middle = start + 12 * HOUR;
      const iso = (ms: number) => new Date(ms).toISOString();
      return HttpResponse.json({
        data: {
          id: Number(url.searchParams.get('id')),
          last_utc: iso(finish - 60_000),
          intervals: [
            { start: iso(start), finish: iso(middle), online: false },
            { start: iso(middle), finish: iso(finish), online: true },
          ],
        },
      });
    }),
  );
}
beforeEach(serveOnlineIntervals);

const oven = buildDevice({
  id: 5,
  name: 'Печь 1',
  controller_id: 'oven-1',
  has_credential: true,
  credential_issued_at: '2026-11-01T09:00:00.000Z',
  next_service_date: '2026-12-01',
  service_interval_days: 90,
});

describe('the device page', { timeout: 30_000 }, () => {
  it('deletes the device only after confirmation, then reloads the list and goes back to it', async () => {
    const deleted: string[] = [];
    let listReloads = 0;
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.delete('/api/devices/5', ({ request }) => {
        deleted.push(request.url);
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/devices/', () => {
        listReloads += 1;
        return HttpResponse.json({ data: [] });
      }),
    );
    const { router } = await renderEquipment('/account/devices/5?tab=settings', { devices: [oven] });
    expect(await screen.findByRole('tab', { name: 'Настройки', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Название/ })).toHaveValue('Печь 1');

    await userEvent.click(screen.getByRole('button', { name: 'Удалить устройство' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить устройство «Печь 1»?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Удалить устройство' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/devices'));
    expect(deleted).toHaveLength(1);
    expect(listReloads).toBe(1);
  });

  it('chooses the current template by name, and reloads the templates (their device counts) after saving', async () => {
    const withTemplate = { ...oven, template_id: 11 };
    const sent: unknown[] = [];
    let templateReloads = 0;
    const templates = [
      buildDeviceEventTemplate({ id: 11, name: 'Норма печи', device_ids: [5] }),
      buildDeviceEventTemplate({ id: 12, name: 'Печь, ночной режим' }),
      // Another type's, and one tuned for another device: not offered.
      buildDeviceEventTemplate({ id: 13, name: 'Фритюр', device_type_id: 2 }),
      buildDeviceEventTemplate({ id: 14, name: 'Печь 2, своя', device_id: 6 }),
    ];
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: withTemplate })),
      http.put('/api/devices/5', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ data: { ...withTemplate, template_id: 12, credential: null } });
      }),
      http.get('/api/devices/', () => HttpResponse.json({ data: [{ ...withTemplate, template_id: 12 }] })),
      http.get('/api/devices/events/templates/all', () => {
        templateReloads += 1;
        return HttpResponse.json({ data: templates });
      }),
    );
    await renderEquipment(
      '/account/devices/5?tab=settings',
      {
        devices: [withTemplate],
        types: [buildDeviceType(), buildDeviceType({ id: 2, slug: 'fryer', name: 'Фритюрница' })],
        templates,
      },
      buildAuthUser(['devices', 'addresses', 'device_event_template']),
    );
    const select = await screen.findByRole('combobox', { name: /Шаблон тока/ });
    expect(select).toHaveValue('Норма печи');

    await userEvent.clear(select);
    await userEvent.type(select, 'печ');
    const offered = screen.getAllByRole('option').map((option) => option.textContent);
    expect(offered).toEqual(['Норма печи', 'Печь, ночной режим']);
    await userEvent.click(screen.getByRole('option', { name: 'Печь, ночной режим' }));
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ template_id: 12 });
    // The templates list counts each template's devices: it is read again after the change.
    await waitFor(() => expect(templateReloads).toBe(1));
  });

  it('names the current template by its number when the user reads no templates', async () => {
    server.use(http.get('/api/devices/5', () => HttpResponse.json({ data: { ...oven, template_id: 11 } })));
    await renderEquipment('/account/devices/5?tab=settings', { devices: [{ ...oven, template_id: 11 }] });
    expect(await screen.findByRole('combobox', { name: /Шаблон тока/ })).toHaveValue('Шаблон № 11');
  });

  it("shows today's work, current, worktime, washes and events in the overview", async () => {
    const asked: URL[] = [];
    const askedEvents: URL[] = [];
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.get('/api/devices/events', ({ request }) => {
        const url = new URL(request.url);
        askedEvents.push(url);
        const filters = JSON.parse(url.searchParams.get('filters') ?? '{}') as {
          started_at?: { value: string };
        };
        const from = Date.parse(filters.started_at?.value ?? '');
        return HttpResponse.json(
          pageOf([
            buildDeviceEvent({
              id: 77,
              device_id: 5,
              title: 'Дверь открыта при нагреве',
              severity: 'critical',
              started_at: new Date(from + 7 * HOUR).toISOString(),
              ended_at: null,
            }),
          ]),
        );
      }),
      http.get('/api/telemetry/', ({ request }) => {
        const url = new URL(request.url);
        asked.push(url);
        const start = Number(url.searchParams.get('start'));
        return HttpResponse.json({
          data: {
            resolution: 'minute',
            start,
            finish: Number(url.searchParams.get('finish')),
            series: [
              {
                device_id: 5,
                t: [start + 7 * HOUR, start + 7 * HOUR + 60_000],
                values: { current: [12, 14], current_min: [11, 13], current_max: [13, 15] },
              },
            ],
          },
        });
      }),
      http.get('/api/devices/reports/worktime', ({ request }) => {
        const url = new URL(request.url);
        const finish = url.searchParams.get('finish') ?? '';
        return HttpResponse.json({
          data: [
            { device_id: 5, date: url.searchParams.get('start'), start: null, end: null, worked_minutes: 0 },
            { device_id: 5, date: finish, start: '07:02', end: '09:17', worked_minutes: 135 },
          ],
        });
      }),
      http.get('/api/devices/reports/wash', () =>
        HttpResponse.json({
          data: {
            id: 5,
            wash_interval_hours: 24,
            last_completed: '2026-11-20T22:00:00.000Z',
            outdated: true,
            running_since: null,
            cycles: [
              {
                start: '2026-11-20T21:20:00.000Z',
                finish: '2026-11-20T22:00:00.000Z',
                minutes: 40,
                outcome: 'completed',
              },
              {
                start: '2026-11-19T21:20:00.000Z',
                finish: '2026-11-19T21:25:00.000Z',
                minutes: 5,
                outcome: 'aborted',
              },
            ],
          },
        }),
      ),
    );
    await renderEquipment('/account/devices/5?tab=dashboard', { devices: [oven] });
    expect(await screen.findByRole('tab', { name: 'Сводка', selected: true })).toBeInTheDocument();

    // Today at the device's address (Moscow): its own day, by the minute.
    const worked = await screen.findByText('Отработано сегодня', { selector: 'dt' });
    await waitFor(() => expect(worked.nextElementSibling).toHaveTextContent('2 ч 15 мин'));
    const telemetry = asked[0];
    expect(telemetry?.searchParams.get('devices')).toBe('5');
    expect(telemetry?.searchParams.get('resolution')).toBe('minute');
    const start = Number(telemetry?.searchParams.get('start'));
    expect(new Date(start + 3 * HOUR).toISOString().slice(11, 19)).toBe('00:00:00');

    const chart = await screen.findByRole('figure', { name: 'Ток сегодня, А' });
    expect(within(chart).getByRole('img', { name: /^График «Ток сегодня, А»/ })).toBeInTheDocument();
    // The device type reports no temperature: no temperature chart.
    expect(screen.queryByRole('figure', { name: /Температура сегодня/ })).toBeNull();

    const worktime = screen.getByRole('region', { name: 'Время работы за 7 дней' });
    expect(within(worktime).getAllByRole('row')).toHaveLength(3);
    expect(within(worktime).getByRole('row', { name: /07:02 09:17 2 ч 15 мин/ })).toBeInTheDocument();

    const washes = screen.getByRole('region', { name: 'Мойки за 7 дней' });
    expect(within(washes).getByText('Прервана')).toBeInTheDocument();
    expect(within(washes).getByText('40')).toBeInTheDocument();
    expect(screen.getByText('Мойка просрочена')).toBeInTheDocument();

    // The day's events, marked on the charts and listed in words: those of this device since the
    // start of its day.
    const events = await screen.findByRole('region', { name: 'События сегодня' });
    expect(within(events).getByRole('link', { name: 'Дверь открыта при нагреве' })).toHaveAttribute(
      'href',
      '/account/device_event_templates/events/77',
    );
    expect(events).toHaveTextContent('Авария');
    const filters = JSON.parse(askedEvents[0]?.searchParams.get('filters') ?? '{}') as Record<
      string,
      { operator: string; value: unknown }
    >;
    expect(filters.device_id).toEqual({ operator: '=', value: 5 });
    expect(filters.started_at).toEqual({ operator: '>=', value: new Date(start).toISOString() });
  });

  it('lists what the dashboard rules say of the device and its open and latest events in the problems view', async () => {
    const askedStat: string[] = [];
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.get('/api/devices/stat/:type', ({ params }) => {
        askedStat.push(String(params.type));
        return HttpResponse.json(
          statAnswer([
            buildDashboardDevice({ id: 4, name: 'Другая печь' }),
            buildDashboardDevice({
              id: 5,
              name: 'Печь 1',
              template_id: null,
              // Offline, its shift started at midnight UTC without work, never washed.
              last_online: { last_utc: minutesAgo(1441) },
              shift_start: '00:00',
              time_zone: 'UTC',
              wash_interval_hours: 24,
              last_wash_at: null,
              open_events: 1,
              open_severity: 'critical',
              problem_since: minutesAgo(90),
            }),
          ]),
        );
      }),
      http.get('/api/devices/events', () =>
        HttpResponse.json(
          pageOf([
            buildDeviceEvent({
              id: 81,
              device_id: 5,
              title: 'Нет данных',
              severity: 'warning',
              started_at: minutesAgo(600),
              ended_at: minutesAgo(500),
              acknowledged: { by: { id: 1, name: 'Анна Повар' }, at: minutesAgo(550), comment: null },
            }),
            buildDeviceEvent({
              id: 82,
              device_id: 5,
              title: 'Ток выше нормы нагрева',
              severity: 'critical',
              started_at: minutesAgo(90),
              ended_at: null,
            }),
          ]),
        ),
      ),
    );
    await renderEquipment('/account/devices/5?tab=problems', { devices: [oven] });
    expect(await screen.findByRole('tab', { name: 'Проблемы', selected: true })).toBeInTheDocument();

    const now = await screen.findByRole('region', { name: 'Проблемы сейчас' });
    await waitFor(() => expect(within(now).getAllByRole('listitem')).toHaveLength(4));
    const items = within(now)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items[0]).toMatch(/^Не в сети \(с .+\) — Последний раз в сети .+\.$/);
    expect(items[1]).toMatch(/^Поздний старт \(с .+\) — Смена начинается в 00:00; работа ещё не начата\.$/);
    expect(items[2]).toBe('Мойка просрочена — Ни разу не завершило мойку.');
    expect(items[3]).toBe('Без нормы тока — У него нет шаблона тока: ток не проверяется. Шаблоны тока');
    expect(askedStat).toEqual(['1']);

    // Open events first, each with its severity, since when, and who acknowledged it.
    const events = screen.getByRole('region', { name: 'События' });
    const rows = within(events).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(/^Авария\s*Ток выше нормы нагрева.+Открыто\s*Не подтверждено$/);
    expect(rows[1]).toHaveTextContent(/^Предупреждение\s*Нет данных.+Анна Повар, .+$/);
    expect(
      within(rows[0] as HTMLElement).getByRole('link', { name: 'Ток выше нормы нагрева' }),
    ).toHaveAttribute('href', '/account/device_event_templates/events/82');
    expect(within(events).getByRole('link', { name: 'Все события устройства' })).toHaveAttribute(
      'href',
      '/account/device_event_templates?tab=events&device=5',
    );
  });

  it('shows the last 24 hours of connection beside the device facts', async () => {
    server.use(http.get('/api/devices/5', () => HttpResponse.json({ data: oven })));
    await renderEquipment('/account/devices/5', { devices: [oven] });
    const history = await screen.findByRole('region', { name: 'Связь за последние 24 часа' });
    expect(await within(history).findByRole('img', { name: 'В сети 50% времени' })).toBeInTheDocument();
  });

  it('issues a new connection key after confirmation and shows it once', async () => {
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.post('/api/devices/5/credential', () =>
        HttpResponse.json({
          data: { ...oven, credential_issued_at: '2026-11-10T12:00:00.000Z', credential: 'kdc_n3w' },
        }),
      ),
      http.get('/api/devices/', () => HttpResponse.json({ data: [oven] })),
    );
    await renderEquipment('/account/devices/5', { devices: [oven] });
    expect(await screen.findByRole('tab', { name: 'Подключение', selected: true })).toBeInTheDocument();
    expect(screen.getByText('oven-1', { selector: 'dd code' })).toBeInTheDocument();
    // The recipes view belongs to a later issue.
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Подключение',
      'Сводка',
      'Проблемы',
      'Сервисное обслуживание',
      'Настройки',
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Выпустить новый ключ подключения' }));
    const confirm = await screen.findByRole('dialog', { name: 'Выпустить новый ключ подключения?' });
    expect(confirm).toHaveTextContent('Текущий ключ сразу перестанет действовать');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Выпустить новый ключ' }));

    const shown = await screen.findByRole('dialog', { name: 'Ключ подключения устройства' });
    expect(within(shown).getByRole('textbox', { name: 'Ключ подключения' })).toHaveValue('kdc_n3w');
    await userEvent.click(within(shown).getByRole('button', { name: 'Ключ сохранён' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body).not.toHaveTextContent('kdc_n3w');
  });

  it('issues the first key of a smart device without a confirmation: nothing stops working', async () => {
    const fresh = buildDevice({ id: 6, name: 'Печь 2', controller_id: 'oven-2' });
    server.use(
      http.get('/api/devices/6', () => HttpResponse.json({ data: fresh })),
      http.post('/api/devices/6/credential', () =>
        HttpResponse.json({ data: { ...fresh, has_credential: true, credential: 'kdc_f1rst' } }),
      ),
      http.get('/api/devices/', () => HttpResponse.json({ data: [fresh] })),
    );
    await renderEquipment('/account/devices/6', { devices: [fresh] });
    expect(await screen.findByText('Ключ не выдан')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Выпустить ключ подключения' }));
    const shown = await screen.findByRole('dialog', { name: 'Ключ подключения устройства' });
    expect(within(shown).getByRole('textbox', { name: 'Ключ подключения' })).toHaveValue('kdc_f1rst');
  });

  it('lists the service log, adds an entry and deletes one after confirmation', async () => {
    const entry: ServiceEntry = {
      id: 31,
      device_id: 5,
      date: '2026-10-01',
      kind: 'repair',
      performed_by: 'ООО «Сервис»',
      part: null,
      note: 'Заменили тэн',
      created_by: { id: 1, name: 'Анна Повар' },
      created_at: '2026-10-01T10:00:00.000Z',
    };
    let log = [entry];
    let posted: unknown;
    server.use(
      http.get('/api/devices/5', () => HttpResponse.json({ data: oven })),
      http.get('/api/devices/', () => HttpResponse.json({ data: [oven] })),
      http.get('/api/devices/5/service_log', () => HttpResponse.json({ data: log })),
      http.post('/api/devices/5/service_log', async ({ request }) => {
        posted = await request.json();
        const added: ServiceEntry = { ...entry, id: 32, date: '2026-11-05', kind: 'maintenance', note: null };
        log = [added, ...log];
        return HttpResponse.json({ data: added }, { status: 201 });
      }),
      http.delete('/api/devices/5/service_log/31', () => {
        log = log.filter((e) => e.id !== 31);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await renderEquipment('/account/devices/5?tab=service', { devices: [oven] });
    const table = await screen.findByRole('table', { name: 'Журнал обслуживания' });
    expect(within(table).getByText('Заменили тэн')).toBeInTheDocument();
    expect(within(table).getByText('Ремонт')).toBeInTheDocument();
    expect(screen.getByText('01.12.2026')).toBeInTheDocument();

    // A date typed as Russian writes it (a Mantine date field, not the browser's own).
    const date = screen.getByRole('textbox', { name: /^Дата/ });
    await userEvent.clear(date);
    await userEvent.type(date, '05.11.2026');
    await userEvent.type(screen.getByRole('textbox', { name: /Исполнитель/ }), 'Иван Мастер');
    await userEvent.click(screen.getByRole('button', { name: 'Добавить запись' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(posted).toEqual({
      date: '2026-11-05',
      kind: 'maintenance',
      performed_by: 'Иван Мастер',
      part: null,
      note: null,
    });

    await userEvent.click(screen.getByRole('button', { name: /Удалить запись от 01\.10\.2026/ }));
    const dialog = await screen.findByRole('dialog', {
      name: /Удалить запись об обслуживании от 01\.10\.2026/,
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(within(table).queryByText('Заменили тэн')).toBeNull());
  });

  it('says so when the device does not exist', async () => {
    server.use(
      http.get('/api/devices/404', () => HttpResponse.json({ message: 'Не найдено.' }, { status: 404 })),
    );
    await renderEquipment('/account/devices/404');
    expect(await screen.findByText('Устройство не найдено')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Всё оборудование/ })).toHaveAttribute(
      'href',
      '/account/devices',
    );
  });
});
