import type { BillingDocument } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** The act of a month, and whether this call made it (201) or it had been made before (200). */
export interface ActResult {
  document: BillingDocument;
  created: boolean;
}

/**
 * `POST /api/payment/act/create` (admins) `{period: 'YYYY-MM'}` → 201 new or 200 existing. 422
 * `errors.period` when the month has not ended or had no charges.
 */
export async function createAct(period: string): Promise<ActResult> {
  const response = await apiClient.post<{ data: BillingDocument }>('/payment/act/create', { period });
  return { document: response.data.data, created: response.status === 201 };
}

export function useCreateAct() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createAct,
    onSuccess: () => client.invalidateQueries({ queryKey: billingKeys.documents() }),
  });
}
