import type { Balance } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

/**
 * `GET /api/users/balance`: the organisation's balance and tariff (kopecks). Types only from the
 * contracts: the account frame's banner imports this file, and zod must stay out of its chunk.
 */
export async function getBalance(signal?: AbortSignal): Promise<Balance> {
  return (await apiClient.get<{ data: Balance }>('/users/balance', { signal })).data.data;
}

export const getBalanceQueryOptions = () =>
  queryOptions({ queryKey: billingKeys.balance(), queryFn: ({ signal }) => getBalance(signal) });

/** How long the frame's banner trusts a balance it has read: a few minutes, one call per visit. */
export const BANNER_BALANCE_STALE_MS = 5 * 60_000;

/**
 * The balance. The billing page asks the server whenever it opens (`staleTime` 0, the cached copy
 * shows meanwhile); the frame's banner is content with a copy a few minutes old. Nobody without
 * the `billing` module asks (`enabled`).
 */
export function useBalance({
  enabled = true,
  staleTime = 0,
}: { enabled?: boolean; staleTime?: number } = {}) {
  return useQuery({ ...getBalanceQueryOptions(), enabled, staleTime });
}
