import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { integrationKeys } from './keys';

/** DELETE /api/integrations/{id} → 204 (admins; a refusal's message shows in the confirmation). */
export async function deleteIntegration(id: number): Promise<void> {
  await apiClient.delete(`/integrations/${id}`);
}

/** Deletes an integration and forgets it: the list is read again. */
export function useDeleteIntegration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteIntegration,
    onSuccess: async (_, id) => {
      client.removeQueries({ queryKey: integrationKeys.detail(id) });
      await client.invalidateQueries({ queryKey: integrationKeys.list() });
    },
  });
}
