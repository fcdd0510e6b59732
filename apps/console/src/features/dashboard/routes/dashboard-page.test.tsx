import type { DashboardReport } from '@kontrol/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { apiClient } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { installCanvas } from '../../../test/canvas';
import { buildDeviceType } from '../../../test/entities';
import { server } from '../../../test/server';
import { zonedToday } from '../../../lib/format';
import { browserToday } from '../dashboard-format';
import {
  buildDashboardDevice,
  buildDeviceEvent,
  FakeEventSource,
  fleet,
  listedDevice,
  renderDashboard,
  serveDashboard,
} from '../test/fixtures';

beforeAll(() => {
  installCanvas();
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterAll(() => vi.unstubAllGlobals());
afterEach(() => queryClient.clear());

const HOUR = 3_600_000;

const counterLinks = () => within(screen.getByRole('list', { name: 'Счётчики' })).getAllByRole('link');
const counterText = () => counterLinks().map((link) => link.textContent);

describe('the dashboard', { timeout: 30_000 }, () => {
  it('shows the six counters of the statistics in the contract order, each a link to the devices it counts', async () => {
    const asked = serveDashboard({ devices: fleet() });
    await renderDashboard();
    await waitFor(() =>
      expect(counterText()).toEqual([
        'В сети5',
        'Не в сети2',
        'Мойка просрочена1',
        'Поздний старт1',
        'Проблемы1',
        'Без нормы тока1',
      ]),
    );
    expect(counterLinks().map((link) => link.getAttribute('href'))).toEqual([
      '/account/devices?counter=online',
      '/account/devices?counter=offline',
      '/account/devices?counter=washOutdated',
      '/account/devices?counter=workStartedSlow',
      '/account/devices?counter=issueReports',
      '/account/devices?counter=devicesWithoutTmplNorma',
    ]);
    expect(asked.stat).toEqual(['all']);

    // The status circles (drawn just after the counters and the table) hold the devices the
    // online and offline counters count, and say in words what their colours and shapes show: the
    // devices needing attention among them, and why.
    const circles = screen.getByRole('region', { name: 'Статусы устройств' });
    expect(await within(circles).findByText('В сети: 5')).toBeInTheDocument();
    expect(within(circles).getByText('Не в сети: 2')).toBeInTheDocument();
    expect(within(circles).getByText('из них требуют внимания: 3')).toBeInTheDocument();
    expect(
      within(circles).getByRole('img', {
        name: 'В сети: Посудомойка (Требует внимания), Печь 5 (Требует внимания), Печь 7 (Требует внимания), Печь 1, Печь 6',
      }),
    ).toBeInTheDocument();
    expect(within(circles).getByRole('img', { name: 'Не в сети: Печь 2, Фритюрница' })).toBeInTheDocument();
    expect(within(circles).getByText(/^Требует внимания \(красный ромб\):/)).toBeInTheDocument();

    // The graph of the day: devices per hour of today in the browser's zone.
    expect(await screen.findByRole('figure', { name: 'Устройства по часам, шт.' })).toBeInTheDocument();
    const graph = asked.preferGraph[0];
    expect(graph?.searchParams.get('date')).toBe(browserToday());
    expect(graph?.searchParams.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it("shows the graph's day as Russian writes it, and draws a day typed so", async () => {
    const asked = serveDashboard({ devices: fleet() });
    await renderDashboard();
    const russian = (date: string) => date.split('-').reverse().join('.');
    const today = browserToday();
    // The calendar comes after the page: until then the day stands there as text.
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Дата' })).not.toHaveAttribute('readonly'),
    );
    const field = screen.getByRole('textbox', { name: 'Дата' });
    expect(field).toHaveValue(russian(today));
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 24 * HOUR).toISOString().slice(0, 10);
    await userEvent.clear(field);
    await userEvent.type(field, russian(yesterday));
    await waitFor(() => expect(asked.preferGraph.at(-1)?.searchParams.get('date')).toBe(yesterday));
  });

  it('lists which device has which problem since when, the most urgent first', async () => {
    serveDashboard({ devices: fleet() });
    await renderDashboard();
    const problems = await screen.findByRole('table', { name: 'Проблемы' });
    const rows = within(problems).getAllByRole('row').slice(1);
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(cells.map(([device, problem]) => [device, problem])).toEqual([
      ['Печь 7', 'Открытые события: 2 (Авария)'],
      ['Фритюрница', 'Не в сети'],
      ['Печь 2', 'Не в сети'],
      ['Печь 5', 'Поздний старт'],
      ['Посудомойка', 'Мойка просрочена'],
      ['Печь 6', 'Без нормы тока'],
    ]);
    // Never online has no moment; the others say since when.
    expect(cells[1]?.[2]).toBe('Не было в сети');
    expect(cells[2]?.[2]).toMatch(/\d{2}:\d{2}/);
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'Печь 7' })).toHaveAttribute(
      'href',
      '/account/devices/7?tab=problems',
    );
  });

  it('recomputes the counters from live updates without asking the server again', async () => {
    const asked = serveDashboard({ devices: fleet() });
    await renderDashboard();
    await waitFor(() => expect(counterText().slice(0, 2)).toEqual(['В сети5', 'Не в сети2']));
    const problemsTable = () => screen.getByRole('table', { name: 'Проблемы' });
    await waitFor(() => expect(within(problemsTable()).getByRole('link', { name: 'Печь 2' })).toBeVisible());

    // Печь 2 reports: it is online again.
    act(() =>
      FakeEventSource.current().emit('devices', {
        data: [
          {
            id: 2,
            last_online: { last_utc: new Date().toISOString() },
            work_start: { date: null, start: null },
            state: 'heating',
            current: 20,
            temperature: 150,
          },
        ],
      }),
    );
    await waitFor(() => expect(counterText().slice(0, 2)).toEqual(['В сети6', 'Не в сети1']));
    await waitFor(() => expect(within(problemsTable()).queryByRole('link', { name: 'Печь 2' })).toBeNull());
    const table = screen.getByRole('table', { name: 'Оборудование' });
    const row = within(table).getByRole('button', { name: 'Печь 2' }).closest('[role="row"]') as HTMLElement;
    expect(row).toHaveTextContent('В сети');
    expect(row).toHaveTextContent('Нагрев, 20 А');
    expect(asked.stat).toHaveLength(1);

    // Events opened or closed: the statistics and the events are read again.
    const eventsAsked = asked.events.length;
    act(() =>
      FakeEventSource.current().emit('device_events', {
        data: [
          {
            id: 9,
            device_id: 1,
            kind: 'no_data',
            severity: 'warning',
            started_at: new Date().toISOString(),
            ended_at: null,
          },
        ],
      }),
    );
    await waitFor(() => expect(asked.stat).toHaveLength(2));
    await waitFor(() => expect(asked.events.length).toBeGreaterThan(eventsAsked));
  });

  it("shows a device's day when it is chosen, cancelling the report asked for the device before", async () => {
    const devices = fleet();
    serveDashboard({ devices });
    const reports: { device: string; date: string; signal: AbortSignal }[] = [];
    server.use(
      http.get('/api/devices/reports/dashboard', async ({ request }) => {
        const url = new URL(request.url);
        const device = url.searchParams.get('device') ?? '';
        reports.push({ device, date: url.searchParams.get('date') ?? '', signal: request.signal });
        if (device === '1') {
          // The first device's report is slow: it is still under way when the second is asked for.
          await new Promise((resolve) => {
            request.signal.addEventListener('abort', resolve);
            setTimeout(resolve, 10_000);
          });
        }
        const date = url.searchParams.get('date') ?? '';
        const start = Date.parse(`${date}T00:00:00Z`);
        const answer: DashboardReport = {
          device_id: Number(device),
          date,
          time_zone: 'UTC',
          report: 'current',
          t: [start + 8 * HOUR, start + 8 * HOUR + 60_000],
          mean: [20, 22],
          min: [19, 21],
          max: [21, 23],
          norms: null,
          events: [
            buildDeviceEvent({
              id: 31,
              device_id: Number(device),
              title: 'Ток выше нормы нагрева',
              severity: 'critical',
              started_at: new Date(start + 8 * HOUR).toISOString(),
              ended_at: new Date(start + 9 * HOUR).toISOString(),
            }),
          ],
          washes: [],
          work: { start: '08:00', end: '17:00', worked_minutes: 540 },
        };
        return HttpResponse.json({ data: answer });
      }),
    );
    // Through fetch, whose requests carry the caller's signal to the mock server (msw's stand-in
    // XMLHttpRequest, the browser's path, does not forward an abort to it).
    const { adapter, baseURL } = apiClient.defaults;
    apiClient.defaults.adapter = 'fetch';
    apiClient.defaults.baseURL = `${window.location.origin}${baseURL ?? ''}`;
    onTestFinished(() => {
      apiClient.defaults.adapter = adapter;
      apiClient.defaults.baseURL = baseURL;
    });
    const { router } = await renderDashboard();
    const table = await screen.findByRole('table', { name: 'Оборудование' });

    await userEvent.click(within(table).getByRole('button', { name: 'Печь 1' }));
    await waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0]?.signal.aborted).toBe(false);
    await userEvent.click(within(table).getByRole('button', { name: 'Печь 2' }));

    // docs/contract.md, "States and transitions": the earlier pending report request is cancelled when a new one is made.
    await waitFor(() => expect(reports[0]?.signal.aborted).toBe(true));
    expect(reports.map((report) => report.device)).toEqual(['1', '2']);
    // A device's day is today at its address, whatever the browser's day.
    const second = devices.find((device) => device.id === 2);
    expect(reports[1]?.date).toBe(zonedToday(second?.time_zone ?? ''));
    expect(reports[1]?.signal.aborted).toBe(false);
    expect(router.state.location.search).toBe('?device=2');

    expect(await screen.findByRole('figure', { name: 'Печь 2: ток, А' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'День устройства Печь 2' })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Печь 2' })).toHaveAttribute('aria-pressed', 'true');
    // The events marked on the chart, in words, with a link to each.
    const events = screen.getByRole('list', { name: 'События за день' });
    expect(within(events).getByRole('link', { name: 'Ток выше нормы нагрева' })).toHaveAttribute(
      'href',
      '/account/device_event_templates/events/31',
    );
    expect(events).toHaveTextContent('Авария');

    await userEvent.click(screen.getByRole('button', { name: 'Ко всем устройствам' }));
    expect(await screen.findByRole('figure', { name: 'Устройства по часам, шт.' })).toBeInTheDocument();
  });

  it('feeds the latest events, newest first, and narrows everything to a device type', async () => {
    const asked = serveDashboard({
      devices: fleet(),
      byType: { 2: [fleet()[2]!] },
      events: [
        buildDeviceEvent({
          id: 41,
          device_id: 7,
          device_name: 'Печь 7',
          title: 'Дверь открыта при нагреве',
          severity: 'critical',
          started_at: new Date(Date.now() - 3 * HOUR).toISOString(),
          ended_at: new Date(Date.now() - 2 * HOUR).toISOString(),
          acknowledged: {
            by: { id: 1, name: 'Анна Повар' },
            at: new Date(Date.now() - HOUR).toISOString(),
            comment: null,
          },
        }),
        buildDeviceEvent({
          id: 40,
          device_id: 2,
          device_name: 'Печь 2',
          title: 'Нет данных',
          started_at: new Date(Date.now() - 5 * HOUR).toISOString(),
        }),
      ],
      eventsByType: {
        2: [
          // A fryer the statistics do not list (added since they were read): named all the same.
          buildDeviceEvent({
            id: 42,
            device_id: 16,
            device_name: 'Фритюрница у окна',
            title: 'Масло перегрето',
            started_at: new Date(Date.now() - HOUR).toISOString(),
          }),
        ],
      },
    });
    await renderDashboard('/account/dashboard', {
      types: [buildDeviceType({ id: 1 }), buildDeviceType({ id: 2, slug: 'fryer', name: 'Фритюрница' })],
    });
    const feed = await screen.findByRole('list', { name: 'Активность' });
    await waitFor(() => expect(within(feed).getAllByRole('listitem')).toHaveLength(4));
    const lines = () =>
      within(screen.getByRole('list', { name: 'Активность' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(lines()[0]).toContain('Подтвердил(а) Анна Повар: Дверь открыта при нагреве');
    expect(lines()[1]).toContain('Событие закрыто: Дверь открыта при нагреве');
    expect(lines()[2]).toContain('Событие открыто: Дверь открыта при нагреве');
    expect(lines()[3]).toContain('Событие открыто: Нет данных');
    expect(lines()[3]).toContain('Печь 2');
    expect(asked.events[0]?.searchParams.get('page')).toBe('1');
    expect(asked.events[0]?.searchParams.get('filters')).toBeNull();
    await waitFor(() => expect(asked.preferGraph).toHaveLength(1));
    expect(asked.preferGraph[0]?.searchParams.get('type')).toBeNull();

    await userEvent.click(screen.getByRole('combobox', { name: 'Тип устройства' }));
    await userEvent.click(screen.getByRole('option', { name: 'Фритюрница' }));
    await waitFor(() => expect(asked.stat).toEqual(['all', '2']));
    await waitFor(() =>
      expect(counterText()).toEqual([
        'В сети0',
        'Не в сети1',
        'Мойка просрочена0',
        'Поздний старт0',
        'Проблемы0',
        'Без нормы тока0',
      ]),
    );
    expect(counterLinks()[1]).toHaveAttribute('href', '/account/devices?counter=offline&type=2');

    // The graph and the activity follow the filter too, and the feed names the device by its name.
    await waitFor(() => expect(asked.preferGraph.at(-1)?.searchParams.get('type')).toBe('2'));
    await waitFor(() =>
      expect(JSON.parse(asked.events.at(-1)?.searchParams.get('filters') ?? '{}')).toEqual({
        device_type_id: { operator: '=', value: 2 },
      }),
    );
    await waitFor(() => expect(lines()).toHaveLength(1));
    expect(lines()[0]).toContain('Событие открыто: Масло перегрето');
    expect(lines()[0]).toContain('Фритюрница у окна');
    expect(lines()[0]).not.toContain('Устройство №');
    expect(
      within(screen.getByRole('list', { name: 'Активность' })).getByRole('link', {
        name: 'Фритюрница у окна',
      }),
    ).toHaveAttribute('href', '/account/devices/16?tab=problems');
    const circles = screen.getByRole('region', { name: 'Статусы устройств' });
    await waitFor(() => expect(within(circles).getByText('Не в сети: 1')).toBeInTheDocument());
    const problems = screen.getByRole('table', { name: 'Проблемы' });
    expect(within(problems).getAllByRole('row').slice(1)).toHaveLength(1);
    expect(within(problems).getByRole('link', { name: 'Фритюрница' })).toBeInTheDocument();
  });

  it('says so when the statistics cannot be loaded, and shows empty lists for an empty fleet', async () => {
    server.use(
      http.get('/api/devices/stat', () => HttpResponse.json({ message: 'Сервер устал' }, { status: 500 })),
    );
    serveDashboardWithoutStat();
    await renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Сервер устал');

    server.use(http.get('/api/devices/stat', () => HttpResponse.json(emptyStat())));
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    await waitFor(() => expect(counterText()[0]).toBe('В сети0'));
    expect(await screen.findByText('Сейчас проблем нет.')).toBeInTheDocument();
    expect(screen.getByText('Устройств пока нет.')).toBeInTheDocument();
    expect(screen.getByText('Записей не найдено')).toBeInTheDocument();
    expect(await screen.findByText('Пока ничего не произошло.')).toBeInTheDocument();
  });

  it("draws a chain's status circles on a canvas, saying in words what it shows", async () => {
    const devices = Array.from({ length: 1200 }, (_, index) =>
      buildDashboardDevice({ id: index + 1, name: `Печь ${String(index + 1).padStart(4, '0')}` }),
    );
    serveDashboard({ devices });
    await renderDashboard();
    const circles = await screen.findByRole('region', { name: 'Статусы устройств' });
    const online = await within(circles).findByRole('img', { name: /^В сети: Печь 0001, Печь 0002, / });
    expect(online.tagName).toBe('CANVAS');
    expect(online).toHaveAccessibleName(expect.stringMatching(/и ещё 1180$/) as string);
    expect(online).toHaveAttribute('data-dot-count', '1200');
    // One element for the group, not one per device.
    expect(circles.querySelectorAll('[data-status]').length).toBeLessThan(5);
  });

  it('names and places the devices from the devices list, reading it again for a device added since', async () => {
    const devices = fleet();
    serveDashboard({ devices });
    let listReads = 0;
    server.use(
      http.get('/api/devices/', () => {
        listReads += 1;
        return HttpResponse.json({ data: devices.map(listedDevice) });
      }),
    );
    // The devices list loaded before the last device was added: the stat answer holds it already.
    await renderDashboard('/account/dashboard', { devices: devices.slice(0, -1).map(listedDevice) });
    const table = await screen.findByRole('table', { name: 'Оборудование' });
    const last = devices[devices.length - 1]!;
    await waitFor(() => expect(listReads).toBe(1));
    expect(await within(table).findByRole('button', { name: last.name })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: `#${last.id}` })).not.toBeInTheDocument();
    expect(listReads).toBe(1);
  });
});

function serveDashboardWithoutStat() {
  server.use(
    http.get('/api/devices/info/prefer_graph', () =>
      HttpResponse.json({ data: { date: browserToday(), time_zone: 'UTC', hours: [] } }),
    ),
    http.get('/api/devices/events', () =>
      HttpResponse.json({
        data: [],
        links: { first: '', last: '', prev: null, next: null },
        meta: { current_page: 1, from: null, last_page: 1, path: '', per_page: 20, to: null, total: 0 },
      }),
    ),
  );
}

function emptyStat() {
  return {
    data: {
      devices: [],
      issues_count: 0,
      bad_devices_for_templates: 0,
      counters: {
        online: 0,
        offline: 0,
        washOutdated: 0,
        workStartedSlow: 0,
        issueReports: 0,
        devicesWithoutTmplNorma: 0,
      },
      now: new Date().toISOString(),
    },
  };
}
