import type { TemperatureReportDay } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { telemetryKeys } from './keys';

/** What the temperature report asks for: devices and local dates (`YYYY-MM-DD`, both included). */
export interface TemperatureReportRequest {
  devices: readonly number[];
  start: string;
  finish: string;
}

/**
 * GET /api/devices/reports/temp with `detail=hours`: per device and local day the lowest, mean
 * and highest temperature, the type's range and the minutes outside it, and the day's hours
 * (docs/telemetry.md, "Temperature report").
 */
export async function getTemperatureReport(
  request: TemperatureReportRequest,
  signal?: AbortSignal,
): Promise<TemperatureReportDay[]> {
  const { data } = await apiClient.get<{ data: TemperatureReportDay[] }>('/devices/reports/temp', {
    params: {
      start: request.start,
      finish: request.finish,
      ids: request.devices.join(','),
      detail: 'hours',
    },
    signal,
  });
  return data.data;
}

export const getTemperatureReportQueryOptions = (request: TemperatureReportRequest) =>
  queryOptions({
    queryKey: telemetryKeys.temperature(request),
    queryFn: ({ signal }) => getTemperatureReport(request, signal),
  });

/** The report of `request` (none while it is null); the last one stays on screen while the next loads. */
export function useTemperatureReport(request: TemperatureReportRequest | null) {
  return useQuery({
    ...getTemperatureReportQueryOptions(request ?? { devices: [], start: '', finish: '' }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}
