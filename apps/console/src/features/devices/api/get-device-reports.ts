import type { OnlineIntervals, TelemetryAnswer, WashReport, WorktimeDay } from '@kontrol/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceKeys } from './keys';

/** Reports of the dashboard view are refreshed this often while it is open. */
const REFRESH_MS = 60_000;

/** GET /api/telemetry/: one device's current and temperature by the minute over `range`. */
export async function getDeviceTelemetry(
  id: number,
  range: { start: number; finish: number },
  signal?: AbortSignal,
): Promise<TelemetryAnswer['data']> {
  const params = {
    devices: String(id),
    start: String(range.start),
    finish: String(range.finish),
    metrics: 'current,temperature',
    resolution: 'minute',
  };
  return (await apiClient.get<TelemetryAnswer>('/telemetry/', { params, signal })).data.data;
}

export function useDeviceTelemetry(id: number, range: { start: number; finish: number }) {
  return useQuery({
    queryKey: deviceKeys.telemetry(id, range),
    queryFn: ({ signal }) => getDeviceTelemetry(id, range, signal),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/devices/reports/worktime for one device: per local day at its address. */
export async function getWorktime(
  id: number,
  dates: { start: string; finish: string },
  signal?: AbortSignal,
): Promise<WorktimeDay[]> {
  const params = { start: dates.start, finish: dates.finish, ids: String(id) };
  return (await apiClient.get<{ data: WorktimeDay[] }>('/devices/reports/worktime', { params, signal })).data
    .data;
}

export function useWorktime(id: number, dates: { start: string; finish: string }) {
  return useQuery({
    queryKey: deviceKeys.worktime(id, dates),
    queryFn: ({ signal }) => getWorktime(id, dates, signal),
    refetchInterval: REFRESH_MS,
  });
}

/** GET /api/devices/reports/wash: the device's wash cycles over `range` and whether washing is due. */
export async function getWashReport(
  id: number,
  range: { start: number; finish: number },
  signal?: AbortSignal,
): Promise<WashReport> {
  const params = { id: String(id), start: String(range.start), finish: String(range.finish) };
  return (await apiClient.get<{ data: WashReport }>('/devices/reports/wash', { params, signal })).data.data;
}

export function useWashReport(id: number, range: { start: number; finish: number }, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.wash(id, range),
    queryFn: ({ signal }) => getWashReport(id, range, signal),
    refetchInterval: REFRESH_MS,
    enabled,
  });
}

/** GET /api/devices/info/last_online: the device's online and offline intervals over `range`. */
export async function getOnlineIntervals(
  id: number,
  range: { start: number; finish: number },
  signal?: AbortSignal,
): Promise<OnlineIntervals> {
  const params = { id: String(id), start: String(range.start), finish: String(range.finish) };
  return (await apiClient.get<{ data: OnlineIntervals }>('/devices/info/last_online', { params, signal }))
    .data.data;
}

export function useOnlineIntervals(id: number, range: { start: number; finish: number }, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.online(id, range),
    queryFn: ({ signal }) => getOnlineIntervals(id, range, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}
