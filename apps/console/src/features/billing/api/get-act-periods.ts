import type { ActPeriods } from '@kontrol/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** `GET /api/payment/act/periods` (admins): ended months with charges, newest first (`YYYY-MM`). */
export async function getActPeriods(signal?: AbortSignal): Promise<string[]> {
  return (await apiClient.get<{ data: ActPeriods }>('/payment/act/periods', { signal })).data.data.periods;
}

/** The months the act dialog offers, read again each time it opens (a new month may have ended). */
export function useActPeriods() {
  return useQuery({
    queryKey: billingKeys.actPeriods(),
    queryFn: ({ signal }) => getActPeriods(signal),
    staleTime: 0,
  });
}
