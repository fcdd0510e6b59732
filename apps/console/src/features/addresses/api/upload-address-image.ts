import type { Address } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadPlaces } from './reload-places';

/**
 * POST /api/addresses/{id}/image, multipart field `image` → the address with its new `image_url`.
 * `onProgress` gets the share sent so far, 0–1.
 */
export async function uploadAddressImage(
  id: number,
  file: File,
  onProgress?: (share: number) => void,
): Promise<Address> {
  const body = new FormData();
  body.append('image', file);
  const response = await apiClient.post<{ data: Address }>(`/addresses/${id}/image`, body, {
    onUploadProgress: (event) => {
      if (event.total) onProgress?.(event.loaded / event.total);
    },
  });
  return response.data.data;
}

/** Uploads an address's image; a changed address reloads addresses and rooms (docs/contract.md, "States and transitions"). */
export function useUploadAddressImage(id: number, onProgress?: (share: number) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadAddressImage(id, file, onProgress),
    onSuccess: () => reloadPlaces(client),
  });
}
