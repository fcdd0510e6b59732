import { DEVICE_STAT_URL, type DeviceStat } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { takeEarlyResponse } from '../../early/early-responses';
import { apiClient } from '../api-client';
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

export function useDeviceStat(type: number | null, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getDeviceStatQueryOptions(type), enabled: options.enabled ?? true });
}
