import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadUsers, userKeys } from './keys';

/** DELETE /api/users/{id} → 204. Nobody deletes themself, nor the last administrator (422). */
export async function deleteUser(id: number): Promise<void> {
  await apiClient.delete(`/users/${id}`);
}

export function useDeleteUser(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => deleteUser(id),
    onSuccess: () => {
      client.removeQueries({ queryKey: userKeys.detail(id), exact: true });
      return reloadUsers(client);
    },
  });
}
