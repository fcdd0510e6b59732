import type { DashboardReport } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { dashboardKeys, type DashboardReportRequest } from '../../../lib/device-stat/keys';

/** The report request under way, which a newer one cancels (docs/contract.md, "States and transitions"). */
let pending: AbortController | undefined;

/**
 * GET /api/devices/reports/dashboard: one device's local day (its metric by the minute, events,
 * washes and work). docs/contract.md, "States and transitions": earlier pending dashboard report requests are cancelled when a new
 * one is made — whoever asked for them, so a quick walk through the devices leaves only the last
 * request on the wire. `signal` (TanStack Query's) also cancels it when nobody waits for it.
 */
export async function getDashboardReport(
  request: DashboardReportRequest,
  signal?: AbortSignal,
): Promise<DashboardReport> {
  pending?.abort();
  const controller = new AbortController();
  pending = controller;
  try {
    return (
      await apiClient.get<{ data: DashboardReport }>('/devices/reports/dashboard', {
        params: { date: request.date, device: request.device, report: request.report },
        signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
      })
    ).data.data;
  } finally {
    if (pending === controller) pending = undefined;
  }
}

export const getDashboardReportQueryOptions = (request: DashboardReportRequest) =>
  queryOptions({
    queryKey: dashboardKeys.report(request),
    queryFn: ({ signal }) => getDashboardReport(request, signal),
  });

export function useDashboardReport(request: DashboardReportRequest | null) {
  return useQuery({
    // A placeholder request while none is chosen: the query is disabled then.
    ...getDashboardReportQueryOptions(request ?? { date: '', device: 0, report: 'current' }),
    enabled: request !== null,
  });
}
