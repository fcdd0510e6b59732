import type { Complaint } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { complaintKeys } from './keys';

/** GET /api/alerts/{id}. */
export async function getComplaint(id: number, signal?: AbortSignal): Promise<Complaint> {
  return (await apiClient.get<{ data: Complaint }>(`/alerts/${id}`, { signal })).data.data;
}

export const getComplaintQueryOptions = (id: number) =>
  queryOptions({ queryKey: complaintKeys.detail(id), queryFn: ({ signal }) => getComplaint(id, signal) });

/** One complaint; `0` (a malformed address) asks for nothing. */
export function useComplaint(id: number) {
  return useQuery({ ...getComplaintQueryOptions(id), enabled: id > 0 });
}
