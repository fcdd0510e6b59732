import type {
  AuthUser,
  DashboardDevice,
  Device,
  DeviceEvent,
  DeviceType,
  PreferGraph,
} from '@kontrol/contracts';
import { dashboardCounters } from '@kontrol/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { buildAddress, buildDeviceType, buildRoom } from '../../../test/entities';
import { buildAuthUser, server } from '../../../test/server';
import { ACCOUNT_ROUTE_ID } from '../../auth/use-current-user';
import { DevicePage } from '../../devices/routes/device-page';
import { DevicesPage } from '../../devices/routes/devices-page';
import { referenceKey } from '../../reference-data/resources';
import { DashboardPage } from '../routes/dashboard-page';
export { FakeEventSource } from '../../../test/fake-event-source';

export { buildDeviceEvent } from '../../../test/entities';

// Charts, tables and lists on a busy two-core machine.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks what Mantine's combobox reads (it scrolls its active option into view).
if (typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = () => undefined;
}

export const MINUTE = 60_000;
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();

/** A device as `GET /api/devices/stat` lists it: a smart combi oven online a minute ago, no problem. */
export function buildDashboardDevice(overrides: Partial<DashboardDevice> = {}): DashboardDevice {
  return {
    id: 1,
    name: 'Печь 1',
    type_id: 1,
    address_id: 1,
    room_id: 1,
    is_smart: true,
    template_id: 1,
    shift_start: null,
    time_zone: 'Europe/Moscow',
    last_online: { last_utc: minutesAgo(1) },
    work_start: { date: null, start: null },
    wash_interval_hours: null,
    last_wash_at: null,
    state: 'idle',
    current: 1.2,
    temperature: 30,
    open_events: 0,
    open_severity: null,
    problem_since: null,
    ...overrides,
  };
}

/** The statistics answer of these devices, counted by the shared rules at the server's now. */
export function statAnswer(devices: DashboardDevice[], now = Date.now()) {
  return {
    data: {
      devices,
      issues_count: devices.filter((device) => device.open_events > 0).length,
      bad_devices_for_templates: devices.filter((device) => device.is_smart && device.template_id === null)
        .length,
      counters: dashboardCounters(devices, now),
      now: new Date(now).toISOString(),
    },
  };
}

/** A paged list as the API answers it. */
export function pageOf<T>(data: T[]) {
  return {
    data,
    links: { first: '', last: '', prev: null, next: null },
    meta: {
      current_page: 1,
      from: 1,
      last_page: 1,
      path: '',
      per_page: 20,
      to: data.length,
      total: data.length,
    },
  };
}

/** A prefer graph of `date` in UTC: 24 hours, `online` devices every hour, two working from 08:00. */
export function preferGraphAnswer(date: string, online = 3): { data: PreferGraph } {
  return {
    data: {
      date,
      time_zone: 'UTC',
      hours: Array.from({ length: 24 }, (_, hour) => ({
        start: new Date(Date.parse(`${date}T00:00:00Z`) + hour * 3_600_000).toISOString(),
        label: `${String(hour).padStart(2, '0')}:00`,
        online,
        working: hour >= 8 ? 2 : 0,
        washing: hour === 22 ? 1 : 0,
      })),
    },
  };
}

/**
 * The dashboard's API: the statistics (all, and per type), the prefer graph, the events page of
 * the activity feed. Returns what was asked, for assertions.
 */
export function serveDashboard(
  options: {
    devices?: DashboardDevice[];
    events?: DeviceEvent[];
    byType?: Record<number, DashboardDevice[]>;
    /** The events of the devices of a type (`filters[device_type_id]`); none when missing. */
    eventsByType?: Record<number, DeviceEvent[]>;
  } = {},
) {
  const asked = { stat: [] as string[], preferGraph: [] as URL[], events: [] as URL[] };
  server.use(
    http.get('/api/devices/stat', () => {
      asked.stat.push('all');
      return HttpResponse.json(statAnswer(options.devices ?? []));
    }),
    http.get('/api/devices/stat/:type', ({ params }) => {
      asked.stat.push(String(params.type));
      return HttpResponse.json(statAnswer(options.byType?.[Number(params.type)] ?? []));
    }),
    http.get('/api/devices/info/prefer_graph', ({ request }) => {
      const url = new URL(request.url);
      asked.preferGraph.push(url);
      return HttpResponse.json(preferGraphAnswer(url.searchParams.get('date') ?? '2026-11-23'));
    }),
    http.get('/api/devices/events', ({ request }) => {
      const url = new URL(request.url);
      asked.events.push(url);
      const filters = JSON.parse(url.searchParams.get('filters') ?? '{}') as {
        device_type_id?: { value: number };
      };
      const type = filters.device_type_id?.value;
      return HttpResponse.json(
        pageOf(type === undefined ? (options.events ?? []) : (options.eventsByType?.[type] ?? [])),
      );
    }),
  );
  return asked;
}

export interface DashboardReferences {
  devices?: Device[];
  types?: DeviceType[];
}

/**
 * The dashboard and the equipment pages inside a memory router whose account route knows `user`,
 * with the reference lists in the cache as the account frame leaves them (docs/contract.md, "Product and areas").
 */
export async function renderDashboard(
  url = '/account/dashboard',
  references: DashboardReferences = {},
  user: AuthUser = buildAuthUser(['dashboard', 'devices', 'addresses', 'device_event_template']),
) {
  queryClient.setQueryData(referenceKey('devices'), references.devices ?? []);
  queryClient.setQueryData(referenceKey('deviceTypes'), references.types ?? [buildDeviceType()]);
  queryClient.setQueryData(referenceKey('addresses'), [buildAddress()]);
  queryClient.setQueryData(referenceKey('rooms'), [buildRoom()]);
  const router = createMemoryRouter(
    [
      {
        id: ACCOUNT_ROUTE_ID,
        path: '/account',
        loader: () => ({ user }),
        HydrateFallback: () => null,
        children: [
          { path: 'dashboard', Component: DashboardPage },
          { path: 'devices', Component: DevicesPage },
          { path: 'devices/:id', Component: DevicePage },
        ],
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
