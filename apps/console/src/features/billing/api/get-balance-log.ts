import type { Filters, LedgerEntry, LedgerKind, PaginationMeta } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** The history tab's filters: kinds of entries (none: all) and a period (epoch ms, either end open). */
export interface LedgerFilters {
  kinds: readonly LedgerKind[];
  from: number | null;
  to: number | null;
}

export interface LedgerPage {
  data: LedgerEntry[];
  meta: PaginationMeta;
}

/** Entries a page of the history holds. */
export const LEDGER_PER_PAGE = 25;

/**
 * The filters as the server takes them (docs/contract.md, "Entities": field → {operator, value}): `kind` `in` the chosen
 * kinds, `created_at` `between` the two moments (or `>=` / `<=` with one end); undefined for none.
 */
export function toLedgerServerFilters(filters: LedgerFilters): Filters | undefined {
  const server: Filters = {};
  if (filters.kinds.length > 0) server.kind = { operator: 'in', value: [...filters.kinds] };
  const from = filters.from === null ? null : new Date(filters.from).toISOString();
  const to = filters.to === null ? null : new Date(filters.to).toISOString();
  if (from !== null && to !== null) server.created_at = { operator: 'between', value: [from, to] };
  else if (from !== null) server.created_at = { operator: '>=', value: from };
  else if (to !== null) server.created_at = { operator: '<=', value: to };
  return Object.keys(server).length > 0 ? server : undefined;
}

/** `POST /api/users/balance_log` (docs/contract.md, "Entities", "HTTP calls": page and filters): the ledger, newest first. */
export async function getBalanceLog(
  page: number,
  filters: Filters | undefined,
  signal?: AbortSignal,
): Promise<LedgerPage> {
  const body = { page, per_page: LEDGER_PER_PAGE, ...(filters ? { filters } : {}) };
  const { data } = await apiClient.post<LedgerPage>('/users/balance_log', body, { signal });
  return { data: data.data, meta: data.meta };
}

export const getBalanceLogQueryOptions = (page: number, filters: Filters | undefined) =>
  queryOptions({
    queryKey: billingKeys.ledgerPage(page, filters),
    queryFn: ({ signal }) => getBalanceLog(page, filters, signal),
  });

/** A page of the history; the previous page stays on screen while the next one loads. */
export function useBalanceLog(page: number, filters: Filters | undefined) {
  return useQuery({ ...getBalanceLogQueryOptions(page, filters), placeholderData: keepPreviousData });
}
