import type { DashboardDevice, TelemetryAnswer } from '@kontrol/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { installCanvas } from '../../../test/canvas';
import { server } from '../../../test/server';
import { buildDevice, buildNotification, buildRollupAnswer, pageOf, renderTelemetry } from '../test/fixtures';

const STAMP = '2026-11-22T08:00:00.000Z';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(installCanvas);
afterEach(() => {
  queryClient.clear();
  vi.restoreAllMocks();
});

const oven = buildDevice({ id: 1, name: 'Печь 1', controller_id: 'kc-1' });
const fryer = buildDevice({ id: 2, name: 'Фритюрница', controller_id: 'kc-2' });
const plain = buildDevice({ id: 3, name: 'Стол', controller_id: null });
const devices = [oven, fryer, plain];

/** A blob's text, read as the console reads a download. */
function readText(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!blob) return reject(new Error('no blob'));
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

/** Answers GET /api/telemetry/ with `answer(params)`, keeping every query string it was asked. */
function serveTelemetry(answer: (params: URLSearchParams) => TelemetryAnswer) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get('/api/telemetry/', ({ request }) => {
      const params = new URL(request.url).searchParams;
      asked.push(params);
      return HttpResponse.json(answer(params));
    }),
  );
  return asked;
}

const echoRollups =
  (buckets = 3) =>
  (params: URLSearchParams) =>
    buildRollupAnswer((params.get('devices') ?? '').split(',').map(Number), {
      start: Date.parse(params.get('start') ?? ''),
      finish: Date.parse(params.get('finish') ?? ''),
      buckets,
    });

describe('the telemetry page (docs/contract.md: its tabs)', { timeout: 30_000 }, () => {
  it('charts the chosen devices and lists the same buckets in a table', async () => {
    const asked = serveTelemetry(echoRollups(3));
    await renderTelemetry('/account/telemetry?devices=1,2', { devices });

    expect(await screen.findByRole('tab', { name: 'Телеметрия', selected: true })).toBeInTheDocument();
    const current = await screen.findByRole('figure', { name: 'Ток, А' });
    const temperature = screen.getByRole('figure', { name: 'Температура, °C' });
    // Each chart: a named image holding uPlot's canvas, and a legend naming every device.
    const plot = within(current).getByRole('img', { name: /^График «Ток, А»: линий — 2/ });
    expect(plot.querySelector('canvas')).not.toBeNull();
    expect(within(temperature).getByRole('img', { name: /^График «Температура, °C»/ })).toBeInTheDocument();
    const legend = within(current).getByRole('list', { name: 'Легенда: Ток' });
    expect(within(legend).getByRole('button', { name: /Печь 1/ })).toHaveAttribute('aria-pressed', 'true');
    expect(within(legend).getByRole('button', { name: /Фритюрница/ })).toBeInTheDocument();
    expect(within(current).getByRole('button', { name: 'Сбросить масштаб' })).toBeDisabled();

    // The table: one row per device and bucket, after the header row.
    const table = screen.getByRole('table', { name: 'Данные телеметрии' });
    expect(table).toHaveAttribute('aria-rowcount', '7');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(7);
    expect(rows[1]).toHaveTextContent('Печь 1');
    expect(rows[1]).toHaveTextContent('11'); // current mean of device 1, first bucket
    expect(rows[1]).toHaveTextContent('50 %'); // working share
    expect(rows[2]).toHaveTextContent('Фритюрница');
    expect(screen.getByText('Детализация: Минуты')).toBeInTheDocument();

    const query = asked.at(-1);
    expect(query?.get('devices')).toBe('1,2');
    expect(query?.get('resolution')).toBe('auto');
    expect(query?.get('metrics')).toBe('current,temperature,working,state');
    expect(query?.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    const span = Date.parse(query?.get('finish') ?? '') - Date.parse(query?.get('start') ?? '');
    expect(span).toBe(DAY);

    // A legend entry hides its line and says so.
    await userEvent.click(within(legend).getByRole('button', { name: /Фритюрница/ }));
    expect(within(legend).getByRole('button', { name: /Фритюрница/ })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('asks again when devices, the period or the resolution change, and keeps them in the URL', async () => {
    const asked = serveTelemetry(echoRollups(2));
    const { router } = await renderTelemetry('/account/telemetry', { devices });
    // Opened without a choice: the first smart devices are charted (docs/telemetry.md).
    await waitFor(() => expect(router.state.location.search).toBe('?devices=1%2C2'));

    // Taken away, the choice stays empty: the default is not offered again.
    const picker = screen.getByRole('combobox', { name: 'Устройства на графиках' });
    await act(() => router.navigate('/account/telemetry'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(
      await screen.findByText('Выберите одно или несколько устройств, чтобы увидеть их ток и температуру.'),
    ).toBeInTheDocument();

    // Only smart devices are offered.
    await userEvent.click(picker);
    expect(await screen.findByRole('option', { name: /Печь 1/ })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Стол/ })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: /Фритюрница/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?devices=2'));
    await waitFor(() => expect(asked.at(-1)?.get('devices')).toBe('2'));
    expect(await screen.findByRole('figure', { name: 'Ток, А' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: '7 дней' }));
    await waitFor(() => expect(router.state.location.search).toBe('?devices=2&period=7d'));
    await waitFor(() => {
      const query = asked.at(-1);
      expect(Date.parse(query?.get('finish') ?? '') - Date.parse(query?.get('start') ?? '')).toBe(7 * DAY);
    });

    // A period of one's own: the URL holds its start and finish, and so does the request.
    const from = screen.getByLabelText('С');
    fireEvent.change(from, { target: { value: '2026-11-20T08:00' } });
    const start = new Date('2026-11-20T08:00').getTime();
    await waitFor(() =>
      expect(asked.at(-1)?.get('start')).toBe(new Date(start).toISOString().replace('.000', '')),
    );
    expect(new URLSearchParams(router.state.location.search).get('start')).toBe(
      new Date(start).toISOString().replace('.000', ''),
    );
    expect(screen.getByRole('radio', { name: 'Свой' })).toBeChecked();

    await userEvent.click(screen.getByRole('combobox', { name: 'Детализация' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Часы' }));
    await waitFor(() => expect(asked.at(-1)?.get('resolution')).toBe('hour'));
    expect(new URLSearchParams(router.state.location.search).get('resolution')).toBe('hour');
  });

  it('says when a period has no data, and pages through raw samples', async () => {
    const start = Date.parse('2026-11-22T08:00:00Z');
    const asked = serveTelemetry((params) => {
      const page = Number(params.get('page') ?? '1');
      return {
        data: {
          resolution: 'raw',
          start,
          finish: start + HOUR,
          series: [
            {
              device_id: 1,
              t: [start + page * 1000, start + page * 1000 + 10_000],
              values: {
                current: [5, 6],
                temperature: [null, null],
                core_temperature: [null, null],
                state: [3, 2],
              },
            },
          ],
        },
        meta: { current_page: page, per_page: 2, has_more: page < 2 },
      };
    });
    await renderTelemetry(
      `/account/telemetry?devices=1&start=2026-11-22T08:00:00Z&finish=2026-11-22T09:00:00Z`,
      { devices },
    );
    expect(await screen.findByRole('figure', { name: 'Ток, А' })).toBeInTheDocument();
    // No temperature at all: the chart says so instead of drawing an empty frame.
    const temperature = screen.getByRole('figure', { name: 'Температура, °C' });
    expect(within(temperature).getByText('Нет данных за этот период')).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Данные телеметрии' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Готовка');
    expect(screen.getByRole('button', { name: 'Предыдущая страница' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Следующая страница' }));
    await waitFor(() => expect(asked.at(-1)?.get('page')).toBe('2'));
    expect(await screen.findByText('Страница 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Следующая страница' })).toBeDisabled();
  });

  it('shows the server refusing a request (422)', async () => {
    server.use(
      http.get('/api/telemetry/', () =>
        HttpResponse.json(
          { message: 'Проверьте поля.', errors: { devices: ['Такого устройства нет.'] } },
          { status: 422 },
        ),
      ),
    );
    await renderTelemetry('/account/telemetry?devices=9', { devices });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Исправьте следующие ошибки');
    expect(alert).toHaveTextContent('Такого устройства нет.');
  });

  it('downloads the CSV as a stream, showing its progress, under the server’s file name', async () => {
    serveTelemetry(echoRollups(1));
    const encoder = new TextEncoder();
    const asked: URLSearchParams[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/telemetry/csv', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        const stream = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(encoder.encode('\uFEFFdevice_id,device,time,current_a\r\n'));
            controller.enqueue(encoder.encode('1,Печь 1,2026-11-22T10:00:00+03:00,12.5\r\n'.repeat(2000)));
            await released;
            controller.enqueue(encoder.encode('1,Печь 1,2026-11-22T10:01:00+03:00,12.6\r\n'));
            controller.close();
          },
        });
        return new HttpResponse(stream, {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="telemetry_2026-11-21_2026-11-22.csv"; filename*=UTF-8''telemetry_2026-11-21_2026-11-22.csv`,
          },
        });
      }),
    );
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:telemetry';
    });

    await renderTelemetry('/account/telemetry?devices=1,2&period=7d', { devices });
    await screen.findByRole('figure', { name: 'Ток, А' });
    await userEvent.click(screen.getByRole('button', { name: 'Скачать CSV' }));

    const progress = await screen.findByRole('group', { name: 'Ход загрузки' });
    await waitFor(() => expect(progress).toHaveTextContent(/Получено \d+([,.]\d)? кБ · Строк: 2\s?000/));
    expect(screen.getByRole('button', { name: 'Скачать CSV' })).toBeDisabled();
    expect(within(progress).getByRole('button', { name: 'Отмена' })).toBeInTheDocument();
    release();

    expect(await screen.findByText('Сохранено как telemetry_2026-11-21_2026-11-22.csv')).toBeInTheDocument();
    expect(saved).toEqual([{ name: 'telemetry_2026-11-21_2026-11-22.csv', href: 'blob:telemetry' }]);
    const text = await readText(blobs[0]);
    expect(text?.split('\r\n')).toHaveLength(2003);
    const query = asked[0];
    expect(query?.get('devices')).toBe('1,2');
    expect(query?.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(Date.parse(query?.get('finish') ?? '') - Date.parse(query?.get('start') ?? '')).toBe(7 * DAY);
  });

  it('downloads what the screen shows (its resolution), or the raw samples when chosen', async () => {
    serveTelemetry(echoRollups(1));
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/telemetry/csv', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return new HttpResponse('\uFEFFheader\r\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="telemetry.csv"',
          },
        });
      }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:telemetry');
    await renderTelemetry('/account/telemetry?devices=1', { devices });
    await screen.findByRole('figure', { name: 'Ток, А' });

    // `auto` asked; the page answered in minutes, and the file holds the same minutes.
    const contents = screen.getByRole('combobox', { name: 'Содержимое CSV' });
    expect(contents).toHaveValue('Как на экране: Минуты');
    await userEvent.click(screen.getByRole('button', { name: 'Скачать CSV' }));
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]?.get('resolution')).toBe('minute');

    await userEvent.click(contents);
    await userEvent.click(await screen.findByRole('option', { name: 'Исходные замеры' }));
    await screen.findByText('Сохранено как telemetry.csv');
    await userEvent.click(screen.getByRole('button', { name: 'Скачать CSV' }));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]?.get('resolution')).toBe('raw');
  });

  it('cancels a download, and shows a refused one as every failed call', async () => {
    serveTelemetry(echoRollups(1));
    let calls = 0;
    server.use(
      http.get('/api/telemetry/csv', () => {
        calls += 1;
        if (calls === 1) {
          // Never finishes: the user cancels it.
          return new HttpResponse(new ReadableStream({ start: () => undefined }), {
            headers: { 'content-type': 'text/csv' },
          });
        }
        return HttpResponse.json(
          { message: 'Проверьте поля.', errors: { finish: ['Период не длиннее 400 дней.'] } },
          { status: 422 },
        );
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await renderTelemetry('/account/telemetry?devices=1', { devices });
    await screen.findByRole('figure', { name: 'Ток, А' });

    await userEvent.click(screen.getByRole('button', { name: 'Скачать CSV' }));
    const progress = await screen.findByRole('group', { name: 'Ход загрузки' });
    await userEvent.click(within(progress).getByRole('button', { name: 'Отмена' }));
    expect(await screen.findByText('Загрузка отменена')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Скачать CSV' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Исправьте следующие ошибки');
    expect(alert).toHaveTextContent('Период не длиннее 400 дней.');
    expect(click).not.toHaveBeenCalled();
  });
});

/** A device as the dashboard statistics list it: online a minute ago, smart, no problem. */
function statDevice(id: number, overrides: Partial<DashboardDevice> = {}): DashboardDevice {
  return {
    id,
    name: `Устройство ${id}`,
    type_id: 1,
    address_id: 1,
    room_id: 1,
    is_smart: true,
    template_id: 1,
    shift_start: null,
    time_zone: 'UTC',
    last_online: { last_utc: new Date(Date.now() - 60_000).toISOString() },
    work_start: { date: null, start: null },
    wash_interval_hours: null,
    last_wash_at: null,
    state: 'idle',
    current: 1,
    temperature: 30,
    open_events: 0,
    open_severity: null,
    problem_since: null,
    ...overrides,
  };
}

describe('the telemetry tab opened without a choice', { timeout: 30_000 }, () => {
  // Eight smart ovens, 11 to 18, after a table that sends nothing.
  const fleet = Array.from({ length: 8 }, (_, i) =>
    buildDevice({ id: i + 11, name: `Печь ${i + 11}`, controller_id: `kc-${i + 11}` }),
  );

  it('charts the devices with problems, the most urgent first', async () => {
    const asked = serveTelemetry(echoRollups(2));
    const { router } = await renderTelemetry('/account/telemetry', {
      devices: [plain, ...fleet],
      stat: [
        statDevice(12),
        // An open critical event, an overdue wash, an open complaint; offline only is not charted.
        statDevice(16, { open_events: 1, open_severity: 'critical', problem_since: STAMP }),
        statDevice(14, { wash_interval_hours: 24, last_wash_at: null }),
        statDevice(17, { open_complaints: 1 }),
        statDevice(15, { last_online: { last_utc: null } }),
      ],
    });
    await waitFor(() => expect(router.state.location.search).toBe('?devices=16%2C17%2C14'));
    await waitFor(() => expect(asked.at(-1)?.get('devices')).toBe('16,17,14'));
    expect(await screen.findByRole('figure', { name: 'Температура, °C' })).toBeInTheDocument();
    expect(
      screen.queryByText('Выберите одно или несколько устройств, чтобы увидеть их ток и температуру.'),
    ).toBeNull();
  });

  it('charts the first five smart devices when none has a problem', async () => {
    const asked = serveTelemetry(echoRollups(2));
    const { router } = await renderTelemetry('/account/telemetry', {
      devices: [plain, ...fleet],
      stat: fleet.map((device) => statDevice(device.id)),
    });
    await waitFor(() => expect(router.state.location.search).toBe('?devices=11%2C12%2C13%2C14%2C15'));
    await waitFor(() => expect(asked.at(-1)?.get('devices')).toBe('11,12,13,14,15'));
    const legend = within(await screen.findByRole('figure', { name: 'Ток, А' })).getByRole('list', {
      name: 'Легенда: Ток',
    });
    expect(within(legend).getAllByRole('button')).toHaveLength(5);
  });
});

describe('the temperature report tab', { timeout: 30_000 }, () => {
  it('reports each day’s temperature, the time outside the type’s range and the hourly means', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/devices/reports/temp', ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params);
        const finish = params.get('finish') ?? '';
        const hour = Date.parse(`${finish}T10:00:00Z`);
        return HttpResponse.json({
          data: [
            {
              device_id: 1,
              date: finish,
              min: -1,
              avg: 4.2,
              max: 8,
              range: { min: 0, max: 5 },
              outside_minutes: 75,
              hours: [
                { start: new Date(hour).toISOString(), min: 3, avg: 5.5, max: 8, outside_minutes: 70 },
                { start: new Date(hour + HOUR).toISOString(), min: -1, avg: -1, max: -1, outside_minutes: 5 },
              ],
            },
          ],
        });
      }),
    );
    const fridge = buildDevice({ id: 1, name: 'Холодильник', controller_id: 'kc-1' });
    await renderTelemetry('/account/telemetry?tab=temperature&devices=1', { devices: [fridge] });
    expect(
      await screen.findByRole('tab', { name: 'Отчёт по температуре', selected: true }),
    ).toBeInTheDocument();

    // The last seven days by default, today included, with the hours.
    await waitFor(() => expect(asked).toHaveLength(1));
    const query = asked[0];
    expect(query?.get('ids')).toBe('1');
    expect(query?.get('detail')).toBe('hours');
    const days = Math.round(
      (Date.parse(query?.get('finish') ?? '') - Date.parse(query?.get('start') ?? '')) / DAY,
    );
    expect(days).toBe(6);

    const device = await screen.findByRole('region', { name: 'Холодильник' });
    expect(device).toHaveTextContent('Диапазон его типа: 0…5 °C.');
    expect(device).toHaveTextContent('Вне диапазона: 1 ч 15 мин.');
    const table = within(device).getByRole('table', { name: 'Холодильник: температура по дням' });
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1)).toEqual(['-1', '4,2', '8', '1 ч 15 мин']);
    const chart = screen.getByRole('figure', { name: 'Средняя температура по часам, °C' });
    expect(within(chart).getByRole('button', { name: /Холодильник/ })).toBeInTheDocument();

    // Another first day: asked again.
    const earlier = new Date(Date.parse(`${query?.get('finish') ?? ''}T00:00:00Z`) - 10 * DAY)
      .toISOString()
      .slice(0, 10);
    // The days read and are typed as Russian writes them; the query keeps YYYY-MM-DD.
    const russian = (date: string) => date.split('-').reverse().join('.');
    const firstDay = screen.getByRole('textbox', { name: 'Первый день' });
    expect(firstDay).toHaveValue(russian(query?.get('start') ?? ''));
    expect(screen.getByRole('textbox', { name: 'Последний день' })).toHaveValue(
      russian(query?.get('finish') ?? ''),
    );
    await userEvent.clear(firstDay);
    await userEvent.type(firstDay, russian(earlier));
    await waitFor(() => expect(asked.at(-1)?.get('start')).toBe(earlier));
  });
});

describe('the notifications tab', { timeout: 30_000 }, () => {
  it('lists the notifications, filters them on the server, and says when none match', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/notifications', ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params);
        if (params.get('filters')) return HttpResponse.json(pageOf([]));
        return HttpResponse.json(
          pageOf([
            buildNotification({ id: 2, severity: 'critical', title: 'Печь не нагревается', device_id: 1 }),
            buildNotification({
              id: 1,
              severity: 'info',
              title: 'Мойка завершена',
              body: '',
              device_id: null,
              read_at: STAMP,
            }),
          ]),
        );
      }),
    );
    const { router } = await renderTelemetry('/account/telemetry?tab=notifications', { devices });
    expect(await screen.findByRole('tab', { name: 'Уведомления', selected: true })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Уведомления' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Авария');
    expect(rows[1]).toHaveTextContent('Печь 1');
    expect(rows[1]).toHaveTextContent('Печь не нагревается');
    expect(rows[1]).toHaveTextContent('Не прочитано');
    expect(rows[2]).toHaveTextContent('Информация');
    expect(rows[2]).toHaveTextContent('Прочитано');
    expect(asked[0]?.get('page')).toBe('1');
    expect(asked[0]?.get('filters')).toBeNull();

    await userEvent.click(screen.getByRole('combobox', { name: 'Важность' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Авария' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Только непрочитанные' }));
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    await waitFor(() =>
      expect(JSON.parse(asked.at(-1)?.get('filters') ?? '{}')).toEqual({
        severity: { operator: '=', value: 'critical' },
        read_at: { operator: '=', value: null },
      }),
    );
    expect(router.state.location.search).toBe('?tab=notifications&severity=critical&unread=1');
    expect(screen.queryByRole('table', { name: 'Уведомления' })).toBeNull();

    // Back to the telemetry tab: nothing chosen there yet, so its default choice is charted.
    serveTelemetry(echoRollups(2));
    await userEvent.click(screen.getByRole('tab', { name: 'Телеметрия' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('tab')).toBeNull());
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('devices')).toBe('1,2'));
    expect(await screen.findByRole('figure', { name: 'Ток, А' })).toBeInTheDocument();
  });

  it('shows when what each tells of happened (the event’s start), not when it was written', async () => {
    server.use(
      http.get('/api/notifications', () =>
        HttpResponse.json(
          pageOf([
            buildNotification({
              id: 5,
              title: 'Ток выше нормы',
              // The event started at 07:30; its rule held for a while before the row was written.
              occurred_at: '2026-11-22T07:30:00.000Z',
              created_at: '2026-11-22T09:45:00.000Z',
            }),
          ]),
        ),
      ),
    );
    await renderTelemetry('/account/telemetry?tab=notifications', { devices });
    const table = await screen.findByRole('table', { name: 'Уведомления' });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    // The local hour and minute, whatever the date's format around them.
    const clock = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' });
    expect(row).toHaveTextContent(clock.format(new Date('2026-11-22T07:30:00.000Z')));
    expect(row).not.toHaveTextContent(clock.format(new Date('2026-11-22T09:45:00.000Z')));
    expect(row.querySelector('time')).toHaveAttribute('datetime', '2026-11-22T07:30:00.000Z');
  });

  it('filters by dates, as local days', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/notifications', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json(pageOf([]));
      }),
    );
    const { router } = await renderTelemetry('/account/telemetry?tab=notifications&page=3', { devices });
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('С'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('По'), { target: { value: '2026-11-30' } });
    await waitFor(() =>
      expect(JSON.parse(asked.at(-1)?.get('filters') ?? '{}')).toEqual({
        occurred_at: {
          operator: 'between',
          value: [new Date(2026, 10, 1).toISOString(), new Date(2026, 10, 30, 23, 59, 59, 999).toISOString()],
        },
      }),
    );
    expect(asked.at(-1)?.get('page')).toBe('1');
    expect(router.state.location.search).toBe('?tab=notifications&from=2026-11-01&to=2026-11-30');
  });

  it('downloads the filtered notifications as Excel with the same filters', async () => {
    server.use(
      http.get('/api/notifications', () => HttpResponse.json(pageOf([buildNotification()]))),
      http.get('/api/notifications/excel', ({ request }) => {
        const params = new URL(request.url).searchParams;
        expect(JSON.parse(params.get('filters') ?? '{}')).toEqual({ device_id: { operator: '=', value: 1 } });
        expect(params.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
        return new HttpResponse(new Uint8Array([0x50, 0x4b, 3, 4]), {
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': `attachment; filename="notifications_2026-11-22.xlsx"; filename*=UTF-8''notifications_2026-11-22.xlsx`,
          },
        });
      }),
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:excel');
    await renderTelemetry('/account/telemetry?tab=notifications&device=1', { devices });
    await screen.findByRole('table', { name: 'Уведомления' });
    await userEvent.click(screen.getByRole('button', { name: 'Скачать Excel' }));
    expect(await screen.findByText('Сохранено как notifications_2026-11-22.xlsx')).toBeInTheDocument();
    expect(saved).toEqual(['notifications_2026-11-22.xlsx']);
  });
});
