import type { Address } from '@kontrol/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { useAddresses } from './get-addresses';
import { placeKeys } from './reload-places';

/** GET /api/addresses/{id}. */
export async function getAddress(id: number, signal?: AbortSignal): Promise<Address> {
  return (await apiClient.get<{ data: Address }>(`/addresses/${id}`, { signal })).data.data;
}

export const getAddressQueryOptions = (id: number) =>
  queryOptions({ queryKey: placeKeys.address(id), queryFn: ({ signal }) => getAddress(id, signal) });

/**
 * One address: from the cached list when it is there (no request), otherwise asked for by id (one
 * added elsewhere since the list was cached). `missing` once the server says it does not exist.
 * `fetch: false` stops asking (the page is deleting it).
 */
export function useAddress(
  id: number | null,
  { fetch = true }: { fetch?: boolean } = {},
): { address?: Address; missing: boolean } {
  const listed = useAddresses().find((address) => address.id === id);
  const query = useQuery({
    ...getAddressQueryOptions(id ?? 0),
    enabled: fetch && id !== null && listed === undefined,
  });
  if (listed) return { address: listed, missing: false };
  return { address: query.data, missing: id === null || query.isError };
}
