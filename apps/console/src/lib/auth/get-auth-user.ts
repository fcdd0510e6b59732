import type { AuthUser } from '@kontrol/contracts';
import { apiClient } from '../api-client';

/**
 * GET /api/users/auth: the signed-in user (in `data.data`); 401 when there is no session. With a
 * one-time `auth_token` (docs/contract.md, "States and transitions") the token goes as a bearer token and the API answers with a session.
 */
export async function getAuthUser(options: { signal?: AbortSignal; token?: string } = {}): Promise<AuthUser> {
  const response = await apiClient.get<{ data: AuthUser }>('/users/auth', {
    signal: options.signal,
    ...(options.token ? { headers: { Authorization: `Bearer ${options.token}` } } : {}),
  });
  return response.data.data;
}
