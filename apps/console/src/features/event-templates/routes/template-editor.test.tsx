import type { DashboardReport, DeviceEventTemplateBody } from '@kontrol/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { installCanvas } from '../../../test/canvas';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { zonedToday } from '../../../lib/format';
import { buildDevice, buildDeviceEventTemplate, buildDeviceType, renderTemplates } from '../test/fixtures';

afterEach(() => queryClient.clear());

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-22T06:00:00Z');

/** A day of current as GET /devices/reports/dashboard answers it: `values` by the minute from T0. */
function buildReport(device: number, values: (number | null)[], overrides: Partial<DashboardReport> = {}) {
  const report: DashboardReport = {
    device_id: device,
    date: '2026-11-22',
    time_zone: 'Europe/Moscow',
    report: 'current',
    t: values.map((_, i) => T0 + i * MINUTE),
    mean: values,
    min: values.map((value) => (value === null ? null : value - 1)),
    max: values.map((value) => (value === null ? null : value + 1)),
    norms: null,
    events: [],
    washes: [],
    work: { start: null, end: null, worked_minutes: 0 },
    ...overrides,
  };
  return { data: report };
}

const types = [
  buildDeviceType({ id: 1, name: 'Пароконвектомат' }),
  buildDeviceType({ id: 2, slug: 'fryer', name: 'Фритюрница' }),
];
const devices = [
  buildDevice({ id: 1, name: 'Печь 1', type_id: 1 }),
  buildDevice({ id: 2, name: 'Печь 2', type_id: 1 }),
  buildDevice({ id: 3, name: 'Фритюр 1', type_id: 2 }),
];

async function choose(combobox: HTMLElement, option: string) {
  await userEvent.click(combobox);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('the template editor', { timeout: 60_000 }, () => {
  it('creates a template with its bands, rules and devices, and opens its page', async () => {
    let sent: unknown;
    const reports: string[] = [];
    const created = buildDeviceEventTemplate({ id: 7, name: 'Печи 10 GN', device_ids: [2] });
    let devicesReloads = 0;
    server.use(
      http.get('/api/devices/reports/dashboard', ({ request }) => {
        const url = new URL(request.url);
        reports.push(`${url.searchParams.get('device')} ${url.searchParams.get('date')}`);
        return HttpResponse.json(buildReport(Number(url.searchParams.get('device')), [1, 20, 30]));
      }),
      http.post('/api/devices/events/templates/add', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
      http.get('/api/devices/events/templates/all', () => HttpResponse.json({ data: [created] })),
      http.get('/api/devices/events/templates/7', () => HttpResponse.json({ data: created })),
      http.get('/api/devices/', () => {
        devicesReloads += 1;
        return HttpResponse.json({ data: devices });
      }),
    );
    const { router } = await renderTemplates('/account/device_event_templates/add', { devices, types });

    await userEvent.type(screen.getByRole('textbox', { name: /Название шаблона/ }), 'Печи 10 GN');
    await choose(screen.getByRole('combobox', { name: /Тип устройства/ }), 'Пароконвектомат');

    const heating = screen.getByRole('group', { name: 'Нагрев' });
    await userEvent.type(within(heating).getByRole('textbox', { name: 'От, А' }), '15');
    await userEvent.type(within(heating).getByRole('textbox', { name: 'До, А' }), '45');
    const idle = screen.getByRole('group', { name: 'Ожидание' });
    await userEvent.type(within(idle).getByRole('textbox', { name: 'От, А' }), '0.5');
    await userEvent.type(within(idle).getByRole('textbox', { name: 'До, А' }), '2');

    // Rule 1: the default, the current above the heating band, made critical after 10 minutes.
    await userEvent.click(screen.getByRole('button', { name: 'Добавить правило' }));
    const first = screen.getByRole('group', { name: 'Правило 1: Ток выше нормы' });
    const duration = within(first).getByRole('textbox', { name: /Длительность, минут/ });
    await userEvent.clear(duration);
    await userEvent.type(duration, '10');
    await choose(within(first).getByRole('combobox', { name: 'Важность' }), 'Авария');

    // Rule 2: error codes E12 and E31, at once.
    await userEvent.click(screen.getByRole('button', { name: 'Добавить правило' }));
    await choose(
      within(screen.getByRole('group', { name: 'Правило 2: Ток выше нормы' })).getByRole('combobox', {
        name: 'Условие',
      }),
      'Код ошибки',
    );
    const second = screen.getByRole('group', { name: 'Правило 2: Код ошибки' });
    expect(within(second).queryByRole('combobox', { name: 'Состояние' })).toBeNull();
    await userEvent.type(
      within(second).getByRole('combobox', { name: /Коды ошибок/ }),
      'E12{Enter}E31{Enter}',
    );
    const codesDuration = within(second).getByRole('textbox', { name: /Длительность, минут/ });
    await userEvent.clear(codesDuration);
    await userEvent.type(codesDuration, '0');

    // Rule 3, added and removed again.
    await userEvent.click(screen.getByRole('button', { name: 'Добавить правило' }));
    await userEvent.click(screen.getByRole('button', { name: 'Убрать правило 3' }));
    expect(screen.queryByRole('group', { name: /Правило 3/ })).toBeNull();

    // Only devices of the chosen type are offered.
    await userEvent.click(screen.getByRole('combobox', { name: /Устройства с этим шаблоном/ }));
    expect(screen.queryByRole('option', { name: 'Фритюр 1' })).toBeNull();
    await userEvent.click(await screen.findByRole('option', { name: 'Печь 2' }));

    // The preview follows the first device using the template, today at its address (Moscow),
    // whatever the browser's day.
    await waitFor(() => expect(reports.at(-1)).toBe(`2 ${zonedToday('Europe/Moscow')}`));

    await userEvent.click(screen.getByRole('button', { name: 'Добавить шаблон' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/device_event_templates/7'));
    expect(sent).toEqual({
      name: 'Печи 10 GN',
      description: null,
      device_type_id: 1,
      device_id: null,
      norms: { idle: { min: 0.5, max: 2 }, heating: { min: 15, max: 45 }, cooking: null, washing: null },
      rules: [
        { kind: 'current_above', state: 'heating', severity: 'critical', duration_minutes: 10 },
        { kind: 'error_code', codes: ['E12', 'E31'], severity: 'warning', duration_minutes: 0 },
      ],
      device_ids: [2],
    } satisfies DeviceEventTemplateBody);
    // docs/contract.md, "States and transitions": the devices list is reloaded (device 2 has a template now).
    await waitFor(() => expect(devicesReloads).toBe(1));
  });

  it('shows the server’s field errors under their fields and the others under "Please fix the following errors"', async () => {
    const template = buildDeviceEventTemplate({ id: 3, device_ids: [1] });
    let sent: unknown;
    server.use(
      http.get('/api/devices/events/templates/3', () => HttpResponse.json({ data: template })),
      http.get('/api/devices/reports/dashboard', () => HttpResponse.json(buildReport(1, [10]))),
      http.put('/api/devices/events/templates/3', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          {
            message: 'Проверьте поля.',
            errors: {
              'rules.0.duration_minutes': ['Не больше 10080 минут.'],
              'norms.heating.max': ['Верхняя граница не может быть меньше нижней.'],
              device_ids: ['Устройство «Печь 2» уже под другим шаблоном.'],
              'rules.0.key': ['Ключ правила занят.'],
            },
          },
          { status: 422 },
        );
      }),
    );
    await renderTemplates('/account/device_event_templates/3', { devices, types, templates: [template] });

    const heating = await screen.findByRole('group', { name: 'Нагрев' });
    const max = within(heating).getByRole('textbox', { name: 'До, А' });
    await userEvent.clear(max);
    await userEvent.type(max, '10');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Исправьте следующие ошибки');
    expect(max).toHaveAccessibleDescription(/Верхняя граница не может быть меньше нижней\./);
    const rule = screen.getByRole('group', { name: 'Правило 1: Ток выше нормы' });
    expect(within(rule).getByRole('textbox', { name: /Длительность, минут/ })).toHaveAccessibleDescription(
      /Не больше 10080 минут\./,
    );
    expect(screen.getByText('Устройство «Печь 2» уже под другим шаблоном.')).toBeInTheDocument();
    // A message of a field the form does not show is listed under the heading; the others are not.
    expect(alert).toHaveTextContent('Ключ правила занят.');
    expect(alert).not.toHaveTextContent('Не больше 10080 минут.');
    // The saved rule keeps its key; the band is sent as typed.
    expect(sent).toMatchObject({
      norms: { heating: { min: 15, max: 10 } },
      rules: [
        { key: 'r1', kind: 'current_above', state: 'heating', severity: 'warning', duration_minutes: 5 },
      ],
      device_ids: [1],
    });
  });

  it('draws the norm bands of the form as it stands over the device’s real current', async () => {
    const original: unknown = Reflect.get(HTMLCanvasElement.prototype, 'getContext');
    installCanvas();
    // The stand-in canvas draws nothing: record the rectangles filled, with their colour.
    const rects: { fill: string; top: number; height: number }[] = [];
    const standIn = Reflect.get(HTMLCanvasElement.prototype, 'getContext') as (
      this: HTMLCanvasElement,
      ...args: unknown[]
    ) => CanvasRenderingContext2D;
    Reflect.set(
      HTMLCanvasElement.prototype,
      'getContext',
      function getContext(this: HTMLCanvasElement, ...args: unknown[]) {
        const context = standIn.apply(this, args);
        context.fillRect = (_x: number, top: number, _width: number, height: number) => {
          const fill = typeof context.fillStyle === 'string' ? context.fillStyle : '';
          rects.push({ fill, top, height });
        };
        return context;
      },
    );
    try {
      const template = buildDeviceEventTemplate({ id: 3, device_ids: [2] });
      const asked: string[] = [];
      server.use(
        http.get('/api/devices/events/templates/3', () => HttpResponse.json({ data: template })),
        http.get('/api/devices/reports/dashboard', ({ request }) => {
          const url = new URL(request.url);
          asked.push(`${url.searchParams.get('device')} ${url.searchParams.get('report')}`);
          // The saved norm the server sends along is not what the preview draws: the form is.
          return HttpResponse.json(
            buildReport(2, [1, 50, 30, null, 20], { norms: { heating: { min: 1, max: 2 } } }),
          );
        }),
      );
      await renderTemplates('/account/device_event_templates/3', { devices, types, templates: [template] });

      const figure = await screen.findByRole('figure', { name: /^Печь 2, / });
      expect(
        within(figure)
          .getByRole('img', { name: /с полосами нормы/ })
          .querySelector('canvas'),
      ).not.toBeNull();
      // One device, its current (asked again for its own day when that differs from the browser's).
      expect(new Set(asked)).toEqual(new Set(['2 current']));
      const legend = within(figure).getByRole('list', { name: 'Полосы нормы' });
      expect(legend).toHaveTextContent('Нагрев:15–45 А');
      expect(legend).toHaveTextContent('Ожидание:0,5–2 А');
      expect(legend).toHaveTextContent('Мойка:не задана');

      const heatingFill = '#e8590c33';
      const heatingRects = () => rects.filter((rect) => rect.fill === heatingFill);
      await waitFor(() => expect(heatingRects().length).toBeGreaterThan(0));
      const before = heatingRects().at(-1)?.height ?? 0;
      expect(before).toBeGreaterThan(0);

      // Narrowing the heating band in the form narrows its shade at once, unsaved.
      const max = within(screen.getByRole('group', { name: 'Нагрев' })).getByRole('textbox', {
        name: 'До, А',
      });
      await userEvent.clear(max);
      await userEvent.type(max, '30');
      expect(legend).toHaveTextContent('Нагрев:15–30 А');
      // The axis stays at the day's highest reading (51 A), so the shade halves: 15 A of 30 A.
      await waitFor(() => expect((heatingRects().at(-1)?.height ?? 0) / before).toBeCloseTo(0.5, 1));

      // A band left half-empty is not drawn.
      await userEvent.clear(max);
      expect(legend).toHaveTextContent('Нагрев:не задана');
      rects.length = 0;
      await userEvent.type(
        within(screen.getByRole('group', { name: 'Мойка' })).getByRole('textbox', { name: 'От, А' }),
        '3',
      );
      expect(heatingRects()).toEqual([]);
    } finally {
      Reflect.set(HTMLCanvasElement.prototype, 'getContext', original);
    }
  });
});
