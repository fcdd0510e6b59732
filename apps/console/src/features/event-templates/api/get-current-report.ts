import type { DashboardReport } from '@kontrol/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { templateKeys } from './keys';

/**
 * GET /api/devices/reports/dashboard?report=current: one device's current by the minute over a
 * local day at its address (mean, min and max per minute).
 */
export async function getCurrentReport(
  device: number,
  date: string,
  signal?: AbortSignal,
): Promise<DashboardReport> {
  const params = { date, device: String(device), report: 'current' };
  return (await apiClient.get<{ data: DashboardReport }>('/devices/reports/dashboard', { params, signal }))
    .data.data;
}

/** The preview's day of current; the previous day stays on screen while another one loads. */
export function useCurrentReport(device: number | null, date: string) {
  return useQuery({
    queryKey: templateKeys.preview(device ?? 0, date),
    queryFn: ({ signal }) => getCurrentReport(device ?? 0, date, signal),
    enabled: device !== null && /^\d{4}-\d{2}-\d{2}$/.test(date),
    placeholderData: keepPreviousData,
  });
}
