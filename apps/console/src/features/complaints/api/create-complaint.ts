import type { Complaint, ComplaintBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { complaintKeys } from './keys';

/** POST /api/alerts/ → 201 with the complaint. */
export async function createComplaint(body: ComplaintBody): Promise<Complaint> {
  return (await apiClient.post<{ data: Complaint }>('/alerts/', body)).data.data;
}

/** Files a complaint; the complaints lists are read again. */
export function useCreateComplaint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createComplaint,
    onSuccess: (complaint) => {
      client.setQueryData(complaintKeys.detail(complaint.id), complaint);
      void client.invalidateQueries({ queryKey: complaintKeys.all });
    },
  });
}
