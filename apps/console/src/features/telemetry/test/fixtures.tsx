import type {
  Address,
  AuthUser,
  DashboardDevice,
  Device,
  Notification,
  TelemetryAnswer,
} from '@kontrol/contracts';
import { dashboardCounters } from '@kontrol/contracts';
import { http, HttpResponse } from 'msw';
import '../../../lib/i18n';
import { buildAddress } from '../../../test/entities';
import { buildAuthUser, pageOf, server } from '../../../test/server';
import { renderAccountPages } from '../../../test/render';
import { TelemetryPage } from '../routes/telemetry-page';

export { pageOf };

export { buildDevice } from '../../../test/entities';

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
  return renderAccountPages({
    url,
    user,
    references: {
      devices: references.devices ?? [],
      addresses: references.addresses ?? [buildAddress()],
      deviceTypes: [],
      rooms: [],
    },
    routes: [{ path: 'telemetry', Component: TelemetryPage }],
  });
}
