import { MAX_TELEMETRY_DEVICES, type DashboardDevice, type Device } from '@kontrol/contracts';
import { useCallback, useState } from 'react';
import { useDeviceStat } from '../../lib/device-stat/get-device-stat';
import { allProblems, type ProblemKind } from '../../lib/device-stat/dashboard-model';

/** How many devices the telemetry tab charts when it opens without a choice. */
export const DEFAULT_DEVICE_COUNT = Math.min(5, MAX_TELEMETRY_DEVICES);

/**
 * The problems whose devices are worth charting: what happens to them now. An offline device has
 * no recent samples, and a missing template is a setting to make.
 */
const CHARTED_PROBLEMS: ReadonlySet<ProblemKind> = new Set([
  'event',
  'complaint',
  'workStartedSlow',
  'washOutdated',
]);

/**
 * What the telemetry tab charts when it opens without a choice (docs/telemetry.md): the smart
 * devices with problems, the most urgent first (the dashboard's rules at `now`), else the first
 * smart devices of the list, {@link DEFAULT_DEVICE_COUNT} at most.
 */
export function defaultDevices(
  devices: readonly Device[],
  stat: readonly DashboardDevice[] | undefined,
  now: number,
): number[] {
  const smart = devices.filter((device) => device.is_smart).map((device) => device.id);
  const smartIds = new Set(smart);
  const troubled: number[] = [];
  for (const problem of stat ? allProblems(stat, now) : []) {
    const id = problem.device.id;
    if (CHARTED_PROBLEMS.has(problem.kind) && smartIds.has(id) && !troubled.includes(id)) troubled.push(id);
    if (troubled.length === DEFAULT_DEVICE_COUNT) break;
  }
  return troubled.length > 0 ? troubled : smart.slice(0, DEFAULT_DEVICE_COUNT);
}

/**
 * The default choice of a tab opened without one (`wanted`): `pending` while the statistics that
 * tell the devices with problems load, then the ids (the first devices when the statistics cannot
 * be read). `done` says the default was taken, or the user chose first: it is not offered again.
 */
export function useDefaultDevices(
  devices: readonly Device[],
  wanted: boolean,
): { ids: number[] | null; pending: boolean; done: () => void } {
  const [open, setOpen] = useState(wanted);
  const stat = useDeviceStat(null, { enabled: open });
  const settled = stat.data !== undefined || stat.error !== null;
  const ids =
    open && settled
      ? defaultDevices(devices, stat.data?.devices, Date.now() + (stat.data?.clockOffsetMs ?? 0))
      : null;
  const done = useCallback(() => setOpen(false), []);
  return { ids, pending: open && !settled, done };
}
