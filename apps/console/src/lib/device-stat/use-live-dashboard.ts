import type { LiveDevice, StatDevice } from '@kontrol/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveStream } from '../live-stream';
import { deviceEventKeys } from '../device-events/keys';
import type { DeviceStatData } from './get-device-stat';
import { dashboardKeys } from './keys';

function patched(device: StatDevice, live: LiveDevice): StatDevice {
  return {
    ...device,
    last_online: live.last_online,
    work_start: live.work_start,
    state: live.state,
    current: live.current,
    temperature: live.temperature,
  };
}

/**
 * Writes devices' live fields (last online, work start, state, readings) into every statistics
 * answer held, without a request. Devices that did not report keep their objects, so what was
 * worked out for them (the rules, the table's rows) is reused; an answer none of whose devices
 * reported is left as it is.
 */
export function applyLiveDevicesToStat(client: QueryClient, updates: readonly LiveDevice[]): void {
  if (updates.length === 0) return;
  const byId = new Map(updates.map((update) => [update.id, update]));
  client.setQueriesData<DeviceStatData>({ queryKey: dashboardKeys.stats() }, (stat) => {
    if (!stat) return stat;
    let changed = false;
    const devices = stat.devices.map((device) => {
      const live = byId.get(device.id);
      if (!live) return device;
      changed = true;
      return patched(device, live);
    });
    return changed ? { ...stat, devices } : stat;
  });
}

/** Device events opened, closed or changed: what the dashboard shows of them is read again. */
export function refetchAfterDeviceEvents(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: dashboardKeys.stats() });
  void client.invalidateQueries({ queryKey: dashboardKeys.reports() });
  // The event lists and single events, and the events loaded on entry (docs/contract.md, "Product and areas").
  void client.invalidateQueries({ queryKey: deviceEventKeys.all });
  void client.invalidateQueries({ queryKey: ['reference', 'deviceEvents'] });
}

/** A busy fleet opens and closes events every second: the statistics are read again at most this often. */
export const DEVICE_EVENTS_THROTTLE_MS = 5_000;

/**
 * While `enabled`, keeps the held statistics current from the live-updates stream
 * (docs/live-updates.md): a `devices` event patches them in place (the counters are recomputed
 * from it in the browser), a `device_events` event reads the statistics and the events again —
 * at once, then at most once per {@link DEVICE_EVENTS_THROTTLE_MS}.
 */
export function useLiveDashboard(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refetch = () => {
      last = Date.now();
      timer = undefined;
      refetchAfterDeviceEvents(client);
    };
    const unsubscribe = liveStream.subscribe({
      onDevices: (devices) => applyLiveDevicesToStat(client, devices),
      onDeviceEvents: () => {
        if (timer !== undefined) return;
        const wait = last + DEVICE_EVENTS_THROTTLE_MS - Date.now();
        if (wait <= 0) refetch();
        else timer = setTimeout(refetch, wait);
      },
    });
    return () => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [client, enabled]);
}
