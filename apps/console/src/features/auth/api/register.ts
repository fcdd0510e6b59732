import type { AuthUser, RegisterBody } from '@kontrol/contracts';
import { apiClient, getCsrfCookie } from '../../../lib/api-client';

/** POST /api/register: a new organisation and its admin, signed in; a verification e-mail follows. */
export async function register(body: RegisterBody): Promise<AuthUser> {
  await getCsrfCookie();
  const response = await apiClient.post<{ data: AuthUser }>('/register', body);
  return response.data.data;
}
