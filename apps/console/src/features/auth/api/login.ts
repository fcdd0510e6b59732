import type { AuthUser, LoginBody } from '@kontrol/contracts';
import { apiClient, getCsrfCookie } from '../../../lib/api-client';

/** Fetches the CSRF cookie, then POST /api/login; the answer carries the user. */
export async function login(body: LoginBody): Promise<AuthUser> {
  await getCsrfCookie();
  const response = await apiClient.post<{ data: AuthUser }>('/login', body);
  return response.data.data;
}
