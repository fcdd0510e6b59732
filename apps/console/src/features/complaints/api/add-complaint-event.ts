import type { ComplaintEvent, ComplaintEventBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { complaintKeys } from './keys';

/**
 * POST /api/alerts/{id}/events → 201 with the new timeline entries: a comment, a status change, a
 * new assignee or priority (or several; each becomes its own entry).
 */
export async function addComplaintEvent(id: number, body: ComplaintEventBody): Promise<ComplaintEvent[]> {
  return (await apiClient.post<{ data: ComplaintEvent[] }>(`/alerts/${id}/events`, body)).data.data;
}

/**
 * Adds to a complaint's timeline; the new entries show at once, and the complaint (its status,
 * assignee, priority, comments count) and the lists are read again.
 */
export function useAddComplaintEvent(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ComplaintEventBody) => addComplaintEvent(id, body),
    onSuccess: async (added) => {
      client.setQueryData<ComplaintEvent[]>(complaintKeys.events(id), (events) => [
        ...(events ?? []).filter((event) => !added.some((entry) => entry.id === event.id)),
        ...added,
      ]);
      await client.invalidateQueries({ queryKey: complaintKeys.all });
    },
  });
}
