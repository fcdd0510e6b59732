import type { BillingDocument } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

/**
 * `POST /api/payment/invoice/create` (admins) → 201: a numbered PDF invoice. 422 with
 * `errors.organization` while the organisation's requisites are not filled.
 */
export async function createInvoice(amount: number): Promise<BillingDocument> {
  return (await apiClient.post<{ data: BillingDocument }>('/payment/invoice/create', { amount })).data.data;
}

export function useCreateInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: () => client.invalidateQueries({ queryKey: billingKeys.documents() }),
  });
}
