import type { ResetPasswordBody } from '@kontrol/contracts';
import { apiClient, getCsrfCookie } from '../../../lib/api-client';

/** POST /api/send-reset-link: the server's message is the same whether the address exists or not. */
export async function sendResetLink(email: string): Promise<string> {
  await getCsrfCookie();
  const response = await apiClient.post<{ message: string }>('/send-reset-link', { email });
  return response.data.message;
}

/** POST /api/reset-password with the token and e-mail from the link. */
export async function resetPassword(body: ResetPasswordBody): Promise<string> {
  await getCsrfCookie();
  const response = await apiClient.post<{ message: string }>('/reset-password', body);
  return response.data.message;
}
