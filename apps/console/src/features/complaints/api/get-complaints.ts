import type { Complaint, PaginationMeta } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { toServerFilters, type ComplaintListRequest } from '../complaint-filters';
import { complaintKeys } from './keys';

export interface ComplaintsPage {
  data: Complaint[];
  meta: PaginationMeta;
}

/** GET /api/alerts/ (page, filters): one page of the organisation's complaints, newest first. */
export async function getComplaints(
  request: ComplaintListRequest,
  signal?: AbortSignal,
): Promise<ComplaintsPage> {
  const filters = toServerFilters(request);
  const { data } = await apiClient.get<ComplaintsPage>('/alerts/', {
    params: { page: request.page, ...(filters ? { filters: JSON.stringify(filters) } : {}) },
    signal,
  });
  return { data: data.data, meta: data.meta };
}

export const getComplaintsQueryOptions = (request: ComplaintListRequest) =>
  queryOptions({
    queryKey: complaintKeys.list(request),
    queryFn: ({ signal }) => getComplaints(request, signal),
  });

/** A page of complaints; the previous page stays on screen while the next one loads. */
export function useComplaints(request: ComplaintListRequest) {
  return useQuery({ ...getComplaintsQueryOptions(request), placeholderData: keepPreviousData });
}
