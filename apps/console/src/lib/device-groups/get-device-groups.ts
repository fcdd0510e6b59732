import type { DeviceGroup, PaginationMeta } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { deviceGroupKeys } from './keys';

export interface DeviceGroupsPage {
  data: DeviceGroup[];
  meta: PaginationMeta;
}

/**
 * GET /api/devices/client/groups (docs/contract.md, "Entities": page and filters): one page, ordered by name; `search`
 * becomes `filters[name] = {operator: like, value}`.
 */
export async function getDeviceGroups(
  params: { page: number; search: string },
  signal?: AbortSignal,
): Promise<DeviceGroupsPage> {
  const search = params.search.trim();
  const filters = search ? { name: { operator: 'like', value: search } } : undefined;
  const { data } = await apiClient.get<DeviceGroupsPage>('/devices/client/groups', {
    params: { page: params.page, ...(filters ? { filters: JSON.stringify(filters) } : {}) },
    signal,
  });
  return { data: data.data, meta: data.meta };
}

export const getDeviceGroupsQueryOptions = (params: { page: number; search: string }) =>
  queryOptions({
    queryKey: deviceGroupKeys.list(params),
    queryFn: ({ signal }) => getDeviceGroups(params, signal),
  });

/** A page of groups; the previous page stays on screen while the next one loads. */
export function useDeviceGroups(params: { page: number; search: string }) {
  return useQuery({ ...getDeviceGroupsQueryOptions(params), placeholderData: keepPreviousData });
}
