import type { DashboardReport } from '@kontrol/contracts';

/** Query keys of the dashboard (docs/dashboard.md). */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  /** Every device statistics answer, whatever its type filter. */
  stats: () => ['dashboard', 'stat'] as const,
  /** `GET /api/devices/stat` (`type` null) or `/api/devices/stat/{type}`. */
  stat: (type: number | null) => ['dashboard', 'stat', type] as const,
  preferGraph: (request: { date: string; tz: string; type: number | null }) =>
    ['dashboard', 'prefer-graph', request] as const,
  reports: () => ['dashboard', 'report'] as const,
  report: (request: DashboardReportRequest) => ['dashboard', 'report', request] as const,
};

export interface DashboardReportRequest {
  date: string;
  device: number;
  report: DashboardReport['report'];
}
