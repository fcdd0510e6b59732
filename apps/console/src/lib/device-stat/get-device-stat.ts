import {
  DEVICE_STAT_URL,
  fromStatDevice,
  type DashboardDevice,
  type Device,
  type DeviceStat,
  type StatDevice,
} from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { takeEarlyResponse } from '../../early/early-responses';
import { apiClient } from '../api-client';
import { useCurrentUser } from '../auth/use-current-user';
import { reloadReference, useReferenceList } from '../reference-data/use-reference-data';
import { dashboardKeys } from './keys';

/** The organisation's statistics, and how far the server's clock is ahead of this browser's. */
export interface DeviceStatData extends DeviceStat {
  /**
   * `now` of the answer less the browser's clock when it arrived (ms): the rules are recomputed at
   * `Date.now() + clockOffsetMs`, so a browser whose clock is wrong counts as the server does.
   */
  clockOffsetMs: number;
}

/** The path of the statistics: the whole organisation, or one device type. */
export function deviceStatUrl(type: number | null): string {
  return type === null ? DEVICE_STAT_URL : `${DEVICE_STAT_URL}/${type}`;
}

/**
 * GET /api/devices/stat (or `/devices/stat/{type}`): every device with what the dashboard's rules
 * read, and the six counters at the server's `now`. The whole organisation's statistics may have
 * been asked for with the page (src/early): that answer is taken first.
 */
export async function getDeviceStat(type: number | null, signal?: AbortSignal): Promise<DeviceStatData> {
  const url = deviceStatUrl(type);
  const early = type === null ? await takeEarlyResponse(url) : undefined;
  const body = early?.ok
    ? (early.body as { data: DeviceStat })
    : (await apiClient.get<{ data: DeviceStat }>(url, { signal })).data;
  return { ...body.data, clockOffsetMs: Date.parse(body.data.now) - Date.now() };
}

export const getDeviceStatQueryOptions = (type: number | null) =>
  queryOptions({
    queryKey: dashboardKeys.stat(type),
    queryFn: ({ signal }) => getDeviceStat(type, signal),
    // Kept current by the live updates (use-live-dashboard.ts); read again only when events change.
    staleTime: 5 * 60_000,
  });

/** The statistics with each device named and placed from the devices list (reference data). */
export interface DashboardStat extends Omit<DeviceStatData, 'devices'> {
  devices: readonly DashboardDevice[];
}

/**
 * Each stat device joined with the device the list holds, made again only when either object is
 * replaced: a live update that touches one device leaves the others' objects, and what was worked
 * out from them, as they were.
 */
const joined = new WeakMap<StatDevice, { listed: Device | undefined; device: DashboardDevice }>();

function joinDevice(device: StatDevice, listed: Device | undefined): DashboardDevice {
  const known = joined.get(device);
  if (known && known.listed === listed) return known.device;
  const made = fromStatDevice(device, listed);
  joined.set(device, { listed, device: made });
  return made;
}

/**
 * The statistics of the organisation (of one device type) as the dashboard reads them: the stat
 * answer, which sends no names or places (docs/dashboard.md, "The stat answer"), joined with the
 * devices list of the reference data. A device the list does not hold yet has been added since it
 * loaded: the list is read again once.
 */
export function useDeviceStat(type: number | null, options: { enabled?: boolean } = {}) {
  const query = useQuery({ ...getDeviceStatQueryOptions(type), enabled: options.enabled ?? true });
  const listed = useReferenceList<Device>(useCurrentUser(), 'devices');
  const byId = useMemo(() => new Map(listed.map((device) => [device.id, device])), [listed]);
  const stat = query.data;
  const data = useMemo<DashboardStat | undefined>(
    () => stat && { ...stat, devices: stat.devices.map((device) => joinDevice(device, byId.get(device.id))) },
    [stat, byId],
  );
  const unknown = useMemo(
    () => listed.length > 0 && stat !== undefined && stat.devices.some((device) => !byId.has(device.id)),
    [listed, stat, byId],
  );
  const client = useQueryClient();
  useEffect(() => {
    if (unknown) void reloadReference(client, ['devices']);
  }, [unknown, client]);
  return { data, error: query.error, isPending: query.isPending, refetch: query.refetch };
}
