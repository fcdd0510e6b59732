import type { Device, LiveDevice } from '@kontrol/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveStream } from '../../../lib/live-stream';
import { referenceKey } from '../../../lib/reference-data/resources';
import { deviceKeys } from './keys';

function patched(device: Device, live: LiveDevice): Device {
  return { ...device, last_online: live.last_online, work_start: live.work_start };
}

/** Writes devices' live fields into the devices list and the open device pages, without a reload. */
export function applyLiveDevices(client: QueryClient, updates: readonly LiveDevice[]): void {
  const byId = new Map(updates.map((update) => [update.id, update]));
  client.setQueryData<Device[]>(referenceKey('devices'), (devices) => {
    if (!devices) return devices;
    let changed = false;
    const next = devices.map((device) => {
      const live = byId.get(device.id);
      if (!live) return device;
      changed = true;
      return patched(device, live);
    });
    return changed ? next : devices;
  });
  for (const live of updates) {
    client.setQueryData<Device>(deviceKeys.detail(live.id), (device) => device && patched(device, live));
  }
}

/**
 * While signed in, keeps every device's online state (last online, work start) current from the
 * live-updates stream: the list, the device pages and the dashboard see devices come and go.
 */
export function useLiveDevices(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return liveStream.subscribe({ onDevices: (devices) => applyLiveDevices(client, devices) });
  }, [client, enabled]);
}
