import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadPlaces } from './reload-places';

/** DELETE /api/addresses/{id}; refused (422, `errors.address`) while it has rooms or devices. */
export async function deleteAddress(id: number): Promise<void> {
  await apiClient.delete(`/addresses/${id}`);
}

/** Deletes an address, then reloads addresses and rooms without cache (docs/contract.md, "States and transitions"). */
export function useDeleteAddress() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteAddress, onSuccess: () => reloadPlaces(client) });
}
