import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadPlaces } from './reload-places';

/** DELETE /api/addresses/{id}/image. */
export async function deleteAddressImage(id: number): Promise<void> {
  await apiClient.delete(`/addresses/${id}/image`);
}

/** Removes an address's image; a changed address reloads addresses and rooms (docs/contract.md, "States and transitions"). */
export function useDeleteAddressImage(id: number) {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => deleteAddressImage(id), onSuccess: () => reloadPlaces(client) });
}
