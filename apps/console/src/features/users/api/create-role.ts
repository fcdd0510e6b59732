import type { AclRole, AclRoleAddBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadRoles, roleKeys } from './keys';

/** POST /api/acl/role/add → 201 with the role. */
export async function createRole(body: AclRoleAddBody): Promise<AclRole> {
  return (await apiClient.post<{ data: AclRole }>('/acl/role/add', body)).data.data;
}

export function useCreateRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: (role) => {
      client.setQueryData(roleKeys.detail(role.id), role);
      return reloadRoles(client);
    },
  });
}
