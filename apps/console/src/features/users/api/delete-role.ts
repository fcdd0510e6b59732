import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadRoles, roleKeys } from './keys';

/** DELETE /api/acl/role/{id}: 409 while a user holds it; the admin role is never deleted. */
export async function deleteRole(id: number): Promise<void> {
  await apiClient.delete(`/acl/role/${id}`);
}

export function useDeleteRole(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => deleteRole(id),
    onSuccess: () => {
      client.removeQueries({ queryKey: roleKeys.detail(id) });
      return reloadRoles(client);
    },
  });
}
