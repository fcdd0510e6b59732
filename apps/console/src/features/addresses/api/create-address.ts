import type { Address, AddressBody } from '@kontrol/contracts';
import { apiClient } from '../../../lib/api-client';

/** POST /api/addresses/ → 201 with the new address. Call {@link reloadPlaces} afterwards. */
export async function createAddress(body: AddressBody): Promise<Address> {
  return (await apiClient.post<{ data: Address }>('/addresses/', body)).data.data;
}
