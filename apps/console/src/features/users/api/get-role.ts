import type { AclRole } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { referenceKey } from '../../../lib/reference-data/resources';
import { roleKeys } from './keys';

/** POST /api/acl/role with `filters: {id: {operator: '=', value}}` (docs/contract.md, "HTTP calls"): one role, or 404. */
export async function getRole(id: number, signal?: AbortSignal): Promise<AclRole> {
  const body = { filters: { id: { operator: '=', value: id } }, withAdminRole: true };
  return (await apiClient.post<{ data: AclRole }>('/acl/role', body, { signal })).data.data;
}

export const getRoleQueryOptions = (id: number) =>
  queryOptions({ queryKey: roleKeys.detail(id), queryFn: ({ signal }) => getRole(id, signal) });

/** One role, fresh; while it loads, the copy in the roles reference list shows. */
export function useRole(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...getRoleQueryOptions(id),
    enabled: id > 0,
    placeholderData: () =>
      client.getQueryData<AclRole[]>(referenceKey('aclRoles'))?.find((role) => role.id === id),
  });
}
