import type { DashboardCounter } from '@kontrol/contracts';
import { useMemo } from 'react';
import { devicesCountingIn } from './dashboard-model';
import { useServerNow } from './use-server-now';
import { useDeviceStat } from './get-device-stat';
import { useLiveDashboard } from './use-live-dashboard';

/**
 * The ids of the devices a dashboard counter counts now (the devices list's `counter` filter):
 * the statistics of the device type shown (or the whole organisation's), kept current by the
 * live updates, with the counter's rule applied in the browser as the dashboard applies it.
 * `ids` is null while `counter` is null or the statistics load.
 */
export function useCounterDevices(counter: DashboardCounter | null, type: number | null) {
  const stat = useDeviceStat(type, { enabled: counter !== null });
  useLiveDashboard(counter !== null);
  const now = useServerNow(stat.data?.clockOffsetMs ?? 0);
  const devices = stat.data?.devices;
  const ids = useMemo(
    () => (counter !== null && devices ? devicesCountingIn(counter, devices, now) : null),
    [counter, devices, now],
  );
  return { ids, isPending: counter !== null && stat.isPending, error: stat.error, refetch: stat.refetch };
}
