import type { AuthUser, UpdatePasswordBody, UpdateProfileBody } from '@kontrol/contracts';
import { apiClient } from '../api-client';

/** PUT /api/user/profile-information → the updated user. */
export async function updateProfile(body: UpdateProfileBody): Promise<AuthUser> {
  return (await apiClient.put<{ data: AuthUser }>('/user/profile-information', body)).data.data;
}

/** PUT /api/user/password; the user's other sessions end. */
export async function updatePassword(body: UpdatePasswordBody): Promise<string> {
  return (await apiClient.put<{ message: string }>('/user/password', body)).data.message;
}

/** POST /api/email/verification-notification. */
export async function sendVerificationEmail(): Promise<string> {
  return (await apiClient.post<{ message: string }>('/email/verification-notification')).data.message;
}
