import { toStatDevice, type DashboardDevice } from '@kontrol/contracts';
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../test/server';
import { buildDashboardDevice, statAnswer } from '../test/fixtures';
import { getDashboardReport } from './get-dashboard-report';
import type { DeviceStatData } from '../../../lib/device-stat/get-device-stat';
import { dashboardKeys } from '../../../lib/device-stat/keys';
import { applyLiveDevicesToStat } from '../../../lib/device-stat/use-live-dashboard';
import { apiClient } from '../../../lib/api-client';

describe('dashboard report requests', () => {
  it('cancel the pending one when another is made, whoever made it (docs/contract.md, "States and transitions")', async () => {
    const signals: AbortSignal[] = [];
    server.use(
      http.get('/api/devices/reports/dashboard', async ({ request }) => {
        signals.push(request.signal);
        if (signals.length === 1) {
          await new Promise((resolve) => {
            request.signal.addEventListener('abort', resolve);
            setTimeout(resolve, 5_000);
          });
        }
        return HttpResponse.json({ data: { device_id: 2 } });
      }),
    );
    // Through fetch, which hands the request's signal to the mock server.
    const { adapter, baseURL } = apiClient.defaults;
    apiClient.defaults.adapter = 'fetch';
    apiClient.defaults.baseURL = `${window.location.origin}${baseURL ?? ''}`;
    try {
      const first = getDashboardReport({ date: '2026-11-23', device: 1, report: 'current' });
      const firstOutcome = first.then(
        () => 'answered',
        (error: unknown) => (error instanceof Error ? error.name : 'failed'),
      );
      await expect.poll(() => signals.length).toBe(1);
      const second = await getDashboardReport({ date: '2026-11-23', device: 2, report: 'current' });
      expect(second).toEqual({ device_id: 2 });
      expect(signals[0]?.aborted).toBe(true);
      expect(signals[1]?.aborted).toBe(false);
      expect(await firstOutcome).toBe('CanceledError');
    } finally {
      apiClient.defaults.adapter = adapter;
      apiClient.defaults.baseURL = baseURL;
    }
  });
});

describe('applyLiveDevicesToStat', () => {
  it('patches the devices that reported in every statistics held, keeping the others as they are', () => {
    const client = new QueryClient();
    const one = buildDashboardDevice({ id: 1, last_online: { last_utc: null } });
    const two = buildDashboardDevice({ id: 2 });
    const stat = (devices: DashboardDevice[]): DeviceStatData => ({
      ...statAnswer(devices).data,
      clockOffsetMs: 0,
    });
    const held = stat([one, two]);
    client.setQueryData(dashboardKeys.stat(null), held);
    const ofAnotherType = stat([two]);
    client.setQueryData(dashboardKeys.stat(3), ofAnotherType);

    applyLiveDevicesToStat(client, [
      {
        id: 1,
        last_online: { last_utc: '2026-11-23T09:59:00.000Z' },
        work_start: { date: '2026-11-23', start: '08:02' },
        state: 'cooking',
        current: 30,
        temperature: 180,
      },
    ]);
    const all = client.getQueryData<DeviceStatData>(dashboardKeys.stat(null));
    expect(all?.devices[0]).toEqual({
      ...toStatDevice(one),
      last_online: { last_utc: '2026-11-23T09:59:00.000Z' },
      work_start: { date: '2026-11-23', start: '08:02' },
      state: 'cooking',
      current: 30,
      temperature: 180,
    });
    expect(all?.devices[1]).toBe(held.devices[1]);
    // None of its devices reported: the same answer.
    expect(client.getQueryData(dashboardKeys.stat(3))).toBe(ofAnotherType);
  });
});
