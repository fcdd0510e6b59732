import { apiClient } from '../../../lib/api-client';

/** POST /api/logout: the session ends on the server. */
export async function logout(): Promise<void> {
  await apiClient.post('/logout');
}
