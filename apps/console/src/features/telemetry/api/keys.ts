import type { TelemetryRequest } from './get-telemetry';
import type { TemperatureReportRequest } from './get-temperature-report';
import type { NotificationsRequest } from './get-notifications';

/** Query keys of the telemetry page: the series of a request, the temperature report, the notifications' pages. */
export const telemetryKeys = {
  all: ['telemetry'] as const,
  series: (request: TelemetryRequest) => ['telemetry', 'series', request] as const,
  temperature: (request: TemperatureReportRequest) => ['telemetry', 'temperature', request] as const,
};

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (request: NotificationsRequest) => ['notifications', 'list', request] as const,
};
