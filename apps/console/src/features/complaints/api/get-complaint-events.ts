import type { ComplaintEvent } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { complaintKeys } from './keys';

/** GET /api/alerts/{id}/events: the complaint's timeline, oldest first. */
export async function getComplaintEvents(id: number, signal?: AbortSignal): Promise<ComplaintEvent[]> {
  return (await apiClient.get<{ data: ComplaintEvent[] }>(`/alerts/${id}/events`, { signal })).data.data;
}

export const getComplaintEventsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: complaintKeys.events(id),
    queryFn: ({ signal }) => getComplaintEvents(id, signal),
  });

export function useComplaintEvents(id: number) {
  return useQuery({ ...getComplaintEventsQueryOptions(id), enabled: id > 0 });
}
