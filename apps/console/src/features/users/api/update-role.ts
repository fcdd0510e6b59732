import type { AclRole, AclRoleUpdateBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadRoles, roleKeys } from './keys';

/** POST /api/acl/role/{id}: the name and the whole module list. The admin role is refused. */
export async function updateRole(id: number, body: AclRoleUpdateBody): Promise<AclRole> {
  return (await apiClient.post<{ data: AclRole }>(`/acl/role/${id}`, body)).data.data;
}

export function useUpdateRole(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AclRoleUpdateBody) => updateRole(id, body),
    onSuccess: (role) => {
      client.setQueryData(roleKeys.detail(id), role);
      return reloadRoles(client);
    },
  });
}
