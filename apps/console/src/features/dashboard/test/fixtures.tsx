import type {
  AuthUser,
  DashboardDevice,
  Device,
  DeviceEvent,
  DeviceType,
  PreferGraph,
} from '@kontrol/contracts';
import { http, HttpResponse } from 'msw';
import { type RouteObject } from 'react-router';
import '../../../lib/i18n';
import {
  buildAddress,
  buildDashboardDevice,
  buildDevice,
  buildDeviceType,
  buildRoom,
  listedDevice,
  minutesAgo,
  statAnswer,
} from '../../../test/entities';
import { buildAuthUser, pageOf, server } from '../../../test/server';
import { DashboardPage } from '../routes/dashboard-page';
import { renderAccountPages } from '../../../test/render';
export { FakeEventSource } from '../../../test/fake-event-source';

export { buildDeviceEvent } from '../../../test/entities';
export { buildDashboardDevice, listedDevice, MINUTE, minutesAgo, statAnswer } from '../../../test/entities';
export { pageOf } from '../../../test/server';

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

/** The devices the last {@link serveDashboard} answers with: the devices list renderDashboard gives by default. */
let servedDevices: DashboardDevice[] = [];

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
  const byId = new Map(
    [...(options.devices ?? []), ...Object.values(options.byType ?? {}).flat()].map((device) => [
      device.id,
      device,
    ]),
  );
  servedDevices = [...byId.values()];
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
  /** More account pages beside the dashboard, for the app's tests of links between features. */
  routes: RouteObject[] = [],
) {
  return renderAccountPages({
    url,
    user,
    references: {
      // The stat answer names no device: the devices list does, as on the server.
      devices: references.devices ?? servedDevices.map(listedDevice),
      deviceTypes: references.types ?? [buildDeviceType()],
      addresses: [buildAddress()],
      rooms: [buildRoom()],
    },
    routes: [{ path: 'dashboard', Component: DashboardPage }, ...routes],
  });
}

const HOUR = 3_600_000;
const todayUtc = () => new Date().toISOString().slice(0, 10);

/** One device per rule of docs/contract.md, "States and transitions", and one without any problem. */
export function fleet() {
  return [
    buildDashboardDevice({ id: 1, name: 'Печь 1' }),
    // Last seen 1441 minutes ago: offline.
    buildDashboardDevice({ id: 2, name: 'Печь 2', last_online: { last_utc: minutesAgo(1441) } }),
    // Never online, and not smart: offline only.
    buildDashboardDevice({
      id: 3,
      name: 'Фритюрница',
      type_id: 2,
      is_smart: false,
      template_id: null,
      last_online: { last_utc: null },
      state: null,
      current: null,
    }),
    // Its last wash ended 30 hours ago, its interval is 24 hours.
    buildDashboardDevice({
      id: 4,
      name: 'Посудомойка',
      wash_interval_hours: 24,
      last_wash_at: minutesAgo(30 * 60),
    }),
    // The shift started at midnight UTC and work has not started.
    buildDashboardDevice({ id: 5, name: 'Печь 5', shift_start: '00:00', time_zone: 'UTC' }),
    // Smart (a controller) but no current template.
    buildDashboardDevice({ id: 6, name: 'Печь 6', template_id: null }),
    // Two open events, the worst critical, the oldest two hours old.
    buildDashboardDevice({
      id: 7,
      name: 'Печь 7',
      open_events: 2,
      open_severity: 'critical',
      problem_since: new Date(Date.now() - 2 * HOUR).toISOString(),
      state: 'heating',
      current: 32.5,
      // Work started at midnight UTC with the shift: on time.
      shift_start: '00:00',
      time_zone: 'UTC',
      work_start: { date: todayUtc(), start: '00:00' },
    }),
  ];
}

/** The references the equipment pages read: the same devices as plain devices. */
export function referenceDevices() {
  return fleet().map((device) =>
    buildDevice({
      id: device.id,
      name: device.name,
      type_id: device.type_id,
      controller_id: device.is_smart ? `ctl-${device.id}` : null,
      template_id: device.template_id,
      last_online: device.last_online,
    }),
  );
}
