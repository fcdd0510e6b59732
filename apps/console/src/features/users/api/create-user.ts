import type { User, UserAddBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadUsers, userKeys } from './keys';

/** POST /api/users/add → 201 with the user; the server e-mails them an invitation. */
export async function createUser(body: UserAddBody): Promise<User> {
  return (await apiClient.post<{ data: User }>('/users/add', body)).data.data;
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: (user) => {
      client.setQueryData(userKeys.detail(user.id), user);
      return reloadUsers(client);
    },
  });
}
