import type { BillingDocument, PaginationMeta } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

export interface DocumentsPage {
  data: BillingDocument[];
  meta: PaginationMeta;
}

/** Documents a page of the balance tab's list holds. */
export const DOCUMENTS_PER_PAGE = 10;

/** `GET /api/payment/documents?page=`: invoices and acts, newest first. */
export async function getDocuments(page: number, signal?: AbortSignal): Promise<DocumentsPage> {
  const { data } = await apiClient.get<DocumentsPage>('/payment/documents', {
    params: { page, per_page: DOCUMENTS_PER_PAGE },
    signal,
  });
  return { data: data.data, meta: data.meta };
}

export const getDocumentsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: billingKeys.documentsPage(page),
    queryFn: ({ signal }) => getDocuments(page, signal),
  });

export function useDocuments(page: number) {
  return useQuery({ ...getDocumentsQueryOptions(page), placeholderData: keepPreviousData });
}
