import type { PaginationMeta, Payment } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

export interface PaymentsPage {
  data: Payment[];
  meta: PaginationMeta;
}

/** Payments a page of the balance tab's list holds. */
export const PAYMENTS_PER_PAGE = 5;

/** `GET /api/payment/payments?page=`: the organisation's online payments, newest first. */
export async function getPayments(page: number, signal?: AbortSignal): Promise<PaymentsPage> {
  const { data } = await apiClient.get<PaymentsPage>('/payment/payments', {
    params: { page, per_page: PAYMENTS_PER_PAGE },
    signal,
  });
  return { data: data.data, meta: data.meta };
}

export const getPaymentsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: billingKeys.paymentsPage(page),
    queryFn: ({ signal }) => getPayments(page, signal),
  });

export function usePayments(page: number) {
  return useQuery({ ...getPaymentsQueryOptions(page), placeholderData: keepPreviousData });
}
