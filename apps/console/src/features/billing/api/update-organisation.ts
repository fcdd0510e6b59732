import type { OrganisationDetailsBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { OrganisationRecord } from './get-organisation';
import { billingKeys } from './keys';

/** `POST /api/users/update_organization` (admins; 422 with field messages in the request's language). */
export async function updateOrganisation(body: OrganisationDetailsBody): Promise<OrganisationRecord> {
  return (await apiClient.post<{ data: OrganisationRecord }>('/users/update_organization', body)).data.data;
}

/** Saves the requisites and keeps the saved copy as the cached one. */
export function useUpdateOrganisation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateOrganisation,
    onSuccess: (saved) => client.setQueryData(billingKeys.organisation(), saved),
  });
}
