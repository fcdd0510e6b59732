import type {
  Address,
  AuthUser,
  DashboardDevice,
  Device,
  Notification,
  TelemetryAnswer,
} from '@kontrol/contracts';
import { dashboardCounters } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildAddress } from '../../../test/entities';
import { buildAuthUser, server } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../auth/use-current-user';
import { referenceKey } from '../../reference-data/resources';
import { TelemetryPage } from '../routes/telemetry-page';

export { buildDevice } from '../../../test/entities';

// Charts, tables and comboboxes on a busy two-core machine.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks what Mantine's combobox reads (it scrolls its active option into view).
if (typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = () => undefined;
}

export function buildNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 1,
    kind: 'current_template',
    severity: 'warning',
    title: 'Ток выше нормы',
    body: 'Печь 1 потребляет 42 А.',
    device_id: 1,
    event_id: null,
    alert_id: null,
    occurred_at: '2026-11-22T07:30:00.000Z',
    created_at: '2026-11-22T07:30:00.000Z',
    read_at: null,
    ...overrides,
  };
}

/** A paged list as the API answers it. */
export function pageOf<T>(data: T[], current = 1, last = 1) {
  return {
    data,
    links: { first: '', last: '', prev: null, next: null },
    meta: {
      current_page: current,
      from: 1,
      last_page: last,
      path: '',
      per_page: 25,
      to: data.length,
      total: data.length,
    },
  };
}

/**
 * A rollup answer: for each device, `buckets` buckets of `stepMs` from `start`, current and
 * temperature rising with the bucket (device `d` adds `d`).
 */
export function buildRollupAnswer(
  deviceIds: readonly number[],
  options: {
    start: number;
    finish: number;
    buckets: number;
    stepMs?: number;
    resolution?: 'minute' | 'hour' | 'day';
  },
): TelemetryAnswer {
  const step = options.stepMs ?? 60_000;
  return {
    data: {
      resolution: options.resolution ?? 'minute',
      start: options.start,
      finish: options.finish,
      series: deviceIds.map((id) => {
        const t = Array.from({ length: options.buckets }, (_, i) => options.start + i * step);
        const current = t.map((_, i) => 10 + i + id);
        const temperature = t.map((_, i) => 150 + i + id);
        return {
          device_id: id,
          t,
          values: {
            current,
            current_min: current.map((v) => v - 1),
            current_max: current.map((v) => v + 1),
            temperature,
            temperature_min: temperature.map((v) => v - 2),
            temperature_max: temperature.map((v) => v + 2),
            working: t.map(() => 0.5),
            washing: t.map(() => 0),
            fault: t.map(() => 0),
          },
        };
      }),
    },
  };
}

/**
 * The telemetry page inside a memory router whose account route knows `user`, with the devices
 * and addresses reference lists already in the cache as the account frame leaves them,
 * and the dashboard statistics (`stat`, none by default) that tell the devices with problems.
 */
export async function renderTelemetry(
  url: string,
  references: { devices?: Device[]; addresses?: Address[]; stat?: DashboardDevice[] } = {},
  user: AuthUser = buildAuthUser(['telemetry', 'devices', 'addresses']),
) {
  const stat = references.stat ?? [];
  server.use(
    http.get('/api/devices/stat', () =>
      HttpResponse.json({
        data: {
          devices: stat,
          issues_count: 0,
          bad_devices_for_templates: 0,
          counters: dashboardCounters(stat, Date.now()),
          now: new Date().toISOString(),
        },
      }),
    ),
  );
  queryClient.setQueryData(referenceKey('devices'), references.devices ?? []);
  queryClient.setQueryData(referenceKey('addresses'), references.addresses ?? [buildAddress()]);
  queryClient.setQueryData(referenceKey('deviceTypes'), []);
  queryClient.setQueryData(referenceKey('rooms'), []);
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        children: [{ path: 'telemetry', Component: TelemetryPage }],
      },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  await waitFor(
    () => {
      if (!view.container.querySelector(':not(style)')) throw new Error('The page has not rendered yet');
    },
    { timeout: 10_000 },
  );
  return { ...view, router };
}
