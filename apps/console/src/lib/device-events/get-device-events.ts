import type { DeviceEvent, EventKind, EventSeverity, Filters, PaginationMeta } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { deviceEventKeys } from './keys';

/** What a list of device events may be narrowed by (contracts `deviceEventsQuerySchema`). */
export interface DeviceEventFilters {
  severity?: EventSeverity | null;
  kind?: EventKind | null;
  device?: number | null;
  /** The devices of one type (the dashboard's type filter). */
  deviceType?: number | null;
  template?: number | null;
  /** Only events still open (`ended_at` is null). */
  openOnly?: boolean;
  /** Only events nobody acknowledged yet. */
  unacknowledgedOnly?: boolean;
  /** Started at or after / at or before these moments (epoch ms). */
  from?: number | null;
  to?: number | null;
}

export interface DeviceEventsRequest {
  page: number;
  /** The server's default page size when missing. */
  perPage?: number;
  filters?: DeviceEventFilters;
}

export interface DeviceEventsPage {
  data: DeviceEvent[];
  meta: PaginationMeta;
}

/** The filters as the server takes them: `filters[field] = {operator, value}` (docs/contract.md, "Entities"). */
export function toServerEventFilters(filters: DeviceEventFilters = {}): Filters | undefined {
  const server: Filters = {};
  if (filters.severity) server.severity = { operator: '=', value: filters.severity };
  if (filters.kind) server.kind = { operator: '=', value: filters.kind };
  if (filters.device != null) server.device_id = { operator: '=', value: filters.device };
  if (filters.deviceType != null) server.device_type_id = { operator: '=', value: filters.deviceType };
  if (filters.template != null) server.template_id = { operator: '=', value: filters.template };
  const from = filters.from ?? null;
  const to = filters.to ?? null;
  if (from !== null && to !== null) {
    server.started_at = {
      operator: 'between',
      value: [new Date(from).toISOString(), new Date(to).toISOString()],
    };
  } else if (from !== null) {
    server.started_at = { operator: '>=', value: new Date(from).toISOString() };
  } else if (to !== null) {
    server.started_at = { operator: '<=', value: new Date(to).toISOString() };
  }
  if (filters.openOnly) server.ended_at = { operator: '=', value: null };
  if (filters.unacknowledgedOnly) server.acknowledged_at = { operator: '=', value: null };
  return Object.keys(server).length > 0 ? server : undefined;
}

/** GET /api/devices/events with `page`: a page of events, newest first. */
export async function getDeviceEvents(
  request: DeviceEventsRequest,
  signal?: AbortSignal,
): Promise<DeviceEventsPage> {
  const filters = toServerEventFilters(request.filters);
  const { data } = await apiClient.get<DeviceEventsPage>('/devices/events', {
    params: {
      page: request.page,
      ...(request.perPage ? { per_page: request.perPage } : {}),
      ...(filters ? { filters: JSON.stringify(filters) } : {}),
    },
    signal,
  });
  return { data: data.data, meta: data.meta };
}

export const getDeviceEventsQueryOptions = (request: DeviceEventsRequest) =>
  queryOptions({
    queryKey: deviceEventKeys.list(request),
    queryFn: ({ signal }) => getDeviceEvents(request, signal),
  });

/** A page of device events; the previous page stays on screen while the next one loads. */
export function useDeviceEvents(
  request: DeviceEventsRequest,
  options: { enabled?: boolean; refetchInterval?: number } = {},
) {
  return useQuery({
    ...getDeviceEventsQueryOptions(request),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval,
  });
}
