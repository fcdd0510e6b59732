import type { Resolution, TelemetryAnswer, TelemetryMetric } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { isoMoment } from '../../../config/paths';
import { apiClient } from '../../../lib/api-client';
import { telemetryKeys } from './keys';

/** What the telemetry tab asks `GET /api/telemetry/` for. */
export interface TelemetryRequest {
  devices: readonly number[];
  start: number;
  finish: number;
  resolution: Resolution;
  /** Raw resolution only: the page of samples (the server's own page size, 10 000). */
  page: number;
  /** IANA zone of the day buckets: the browser's. */
  tz: string;
}

/**
 * Means with their minimum and maximum of current and temperature, and the working share, for
 * rollups; each sample's current, temperature and state for raw pages.
 */
const METRICS: readonly TelemetryMetric[] = ['current', 'temperature', 'working', 'state'];

/** The query string of a request (also the CSV download's, less what the file does not take). */
export function telemetryQueryParams(request: TelemetryRequest): Record<string, string> {
  return {
    devices: request.devices.join(','),
    start: isoMoment(request.start),
    finish: isoMoment(request.finish),
    resolution: request.resolution,
    metrics: METRICS.join(','),
    tz: request.tz,
    ...(request.page > 1 ? { page: String(request.page) } : {}),
  };
}

/** GET /api/telemetry/: the devices' series over the period, columnar (docs/telemetry.md, "Reading"). */
export async function getTelemetry(
  request: TelemetryRequest,
  signal?: AbortSignal,
): Promise<TelemetryAnswer> {
  const { data } = await apiClient.get<TelemetryAnswer>('/telemetry/', {
    params: telemetryQueryParams(request),
    signal,
  });
  return data;
}

export const getTelemetryQueryOptions = (request: TelemetryRequest) =>
  queryOptions({
    queryKey: telemetryKeys.series(request),
    queryFn: ({ signal }) => getTelemetry(request, signal),
  });

/**
 * The series of a request, or nothing while `request` is null (no device chosen, a period that
 * cannot be asked for). The charts of the previous request stay while the next one loads.
 */
export function useTelemetry(request: TelemetryRequest | null) {
  return useQuery({
    ...getTelemetryQueryOptions(
      request ?? { devices: [], start: 0, finish: 0, resolution: 'auto', page: 1, tz: 'UTC' },
    ),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}
