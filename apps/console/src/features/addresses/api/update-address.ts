import type { Address, AddressBody } from '@kontrol/contracts';
import { apiClient } from '../../../lib/api-client';

/** PUT /api/addresses/{id} with the whole address. Call {@link reloadPlaces} afterwards. */
export async function updateAddress(id: number, body: AddressBody): Promise<Address> {
  return (await apiClient.put<{ data: Address }>(`/addresses/${id}`, body)).data.data;
}
