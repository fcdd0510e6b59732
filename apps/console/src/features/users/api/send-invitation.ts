import type { User } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './keys';

/** POST /api/users/{id}/invitation → the user; a fresh invitation e-mail, the earlier link stops working. */
export async function sendInvitation(id: number): Promise<User> {
  return (await apiClient.post<{ data: User }>(`/users/${id}/invitation`)).data.data;
}

export function useSendInvitation(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => sendInvitation(id),
    onSuccess: (user) => client.setQueryData(userKeys.detail(id), user),
  });
}
