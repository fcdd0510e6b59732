import type { User, UserUpdateBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadUsers, userKeys } from './keys';

/** PUT /api/users/{id}: any subset of the fields; `disabled: true` ends the user's sessions. */
export async function updateUser(id: number, body: UserUpdateBody): Promise<User> {
  return (await apiClient.put<{ data: User }>(`/users/${id}`, body)).data.data;
}

/** Saves a user (or disables, or enables them): the answer becomes their copy, the lists reload. */
export function useUpdateUser(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserUpdateBody) => updateUser(id, body),
    onSuccess: (user) => {
      client.setQueryData(userKeys.detail(id), user);
      return reloadUsers(client);
    },
  });
}
