import type { ComplaintPhoto } from '@kontrol/contracts';
import { apiClient } from '../../../lib/api-client';

/**
 * POST /api/alerts/photo (multipart field `photo`) → 201 `{photo, url}`: the stored photo's name,
 * which a complaint or a comment then names, and where to see it. `onProgress` gets the share sent
 * so far, 0–1.
 */
export async function uploadComplaintPhoto(
  file: File,
  onProgress?: (share: number) => void,
  signal?: AbortSignal,
): Promise<ComplaintPhoto> {
  const body = new FormData();
  body.append('photo', file);
  const response = await apiClient.post<{ data: ComplaintPhoto }>('/alerts/photo', body, {
    signal,
    onUploadProgress: (event) => {
      if (event.total) onProgress?.(event.loaded / event.total);
    },
  });
  return response.data.data;
}
