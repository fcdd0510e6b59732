import type { Filters, Notification, NotificationSeverity, PaginationMeta } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { notificationKeys } from './keys';

/** The notifications tab's filters (docs/telemetry.md, "Downloads and notifications"). */
export interface NotificationFilters {
  severity: NotificationSeverity | null;
  device: number | null;
  /** What they tell of happened at or after / at or before these moments (epoch ms). */
  from: number | null;
  to: number | null;
  unreadOnly: boolean;
}

export interface NotificationsRequest {
  page: number;
  filters: NotificationFilters;
}

export interface NotificationsPage {
  data: Notification[];
  meta: PaginationMeta;
}

/** The filters as the server takes them: `filters[field] = {operator, value}` (docs/contract.md, "Entities"). */
export function toServerFilters(filters: NotificationFilters): Filters | undefined {
  const server: Filters = {};
  if (filters.severity) server.severity = { operator: '=', value: filters.severity };
  if (filters.device !== null) server.device_id = { operator: '=', value: filters.device };
  if (filters.from !== null && filters.to !== null) {
    server.occurred_at = {
      operator: 'between',
      value: [new Date(filters.from).toISOString(), new Date(filters.to).toISOString()],
    };
  } else if (filters.from !== null) {
    server.occurred_at = { operator: '>=', value: new Date(filters.from).toISOString() };
  } else if (filters.to !== null) {
    server.occurred_at = { operator: '<=', value: new Date(filters.to).toISOString() };
  }
  if (filters.unreadOnly) server.read_at = { operator: '=', value: null };
  return Object.keys(server).length > 0 ? server : undefined;
}

/** The query string of the list and of the Excel download: the filters as JSON, as the lists send them. */
export function notificationsQueryParams(filters: NotificationFilters): Record<string, string> {
  const server = toServerFilters(filters);
  return server ? { filters: JSON.stringify(server) } : {};
}

/** GET /api/notifications (docs/notifications.md: page and filters): the user's own, newest first (by `occurred_at`). */
export async function getNotifications(
  request: NotificationsRequest,
  signal?: AbortSignal,
): Promise<NotificationsPage> {
  const { data } = await apiClient.get<NotificationsPage>('/notifications', {
    params: { page: request.page, ...notificationsQueryParams(request.filters) },
    signal,
  });
  return { data: data.data, meta: data.meta };
}

export const getNotificationsQueryOptions = (request: NotificationsRequest) =>
  queryOptions({
    queryKey: notificationKeys.list(request),
    queryFn: ({ signal }) => getNotifications(request, signal),
  });

/** A page of notifications; the previous page stays on screen while the next one loads. */
export function useNotifications(request: NotificationsRequest) {
  return useQuery({ ...getNotificationsQueryOptions(request), placeholderData: keepPreviousData });
}
