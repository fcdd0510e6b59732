import type { UserSettings } from '@kontrol/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiClient } from './api-client';

/*
 * A user's notification settings: the user page (an admin editing anyone) and the profile page (the
 * signed-in user's own) show the same form (components/notification-settings-form.tsx) for the
 * same endpoint.
 */

/** GET /api/users/{id}/settings: the saved settings, or the defaults of a user who never saved. */
export async function getUserSettings(userId: number, signal?: AbortSignal): Promise<UserSettings> {
  return (await apiClient.get<{ data: UserSettings }>(`/users/${userId}/settings`, { signal })).data.data;
}

/** POST /api/users/{id}/settings: the whole settings object, answered as saved. */
export async function saveUserSettings(userId: number, body: UserSettings): Promise<UserSettings> {
  return (await apiClient.post<{ data: UserSettings }>(`/users/${userId}/settings`, body)).data.data;
}

export const userSettingsKey = (userId: number) => ['users', userId, 'settings'] as const;

export const getUserSettingsQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: userSettingsKey(userId),
    queryFn: ({ signal }) => getUserSettings(userId, signal),
  });

/** The settings of `userId`, loaded only when `enabled` (a page that may not show them asks nothing). */
export function useUserSettings(userId: number, enabled = true) {
  return useQuery({ ...getUserSettingsQueryOptions(userId), enabled });
}

/** Saves a user's settings and keeps the answer as the loaded ones. */
export function useSaveUserSettings(userId: number) {
  const client = useQueryClient();
  return useCallback(
    async (body: UserSettings) => {
      const answer = await saveUserSettings(userId, body);
      client.setQueryData(userSettingsKey(userId), answer);
      return answer;
    },
    [client, userId],
  );
}
