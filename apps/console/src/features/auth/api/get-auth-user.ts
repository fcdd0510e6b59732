import type { AuthUser } from '@kontrol/contracts';
import { apiClient } from '../../../lib/api-client';

/** GET /api/users/auth: the signed-in user (in `data.data`); 401 when there is no session. */
export async function getAuthUser(options: { signal?: AbortSignal } = {}): Promise<AuthUser> {
  const response = await apiClient.get<{ data: AuthUser }>('/users/auth', {
    signal: options.signal,
  });
  return response.data.data;
}
