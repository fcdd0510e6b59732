import type { OrganisationDetails } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** The organisation's requisites as stored (`organisationDetailsResponseSchema`). */
export type OrganisationRecord = OrganisationDetails & { updated_at: string };

/** `GET /api/users/organization`: the requisites, or null until someone fills them. */
export async function getOrganisation(signal?: AbortSignal): Promise<OrganisationRecord | null> {
  return (await apiClient.get<{ data: OrganisationRecord | null }>('/users/organization', { signal })).data
    .data;
}

export const getOrganisationQueryOptions = () =>
  queryOptions({ queryKey: billingKeys.organisation(), queryFn: ({ signal }) => getOrganisation(signal) });

export function useOrganisation() {
  return useQuery(getOrganisationQueryOptions());
}
