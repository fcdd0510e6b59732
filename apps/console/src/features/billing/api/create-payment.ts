import type { Payment } from '@kontrol/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/**
 * `POST /api/payment/create` (admins) → 201: a pending payment whose `confirmation_url` is the
 * provider's page, where the payer confirms it.
 */
export async function createPayment(amount: number): Promise<Payment> {
  return (await apiClient.post<{ data: Payment }>('/payment/create', { amount })).data.data;
}

export function useCreatePayment() {
  return useMutation({ mutationFn: createPayment });
}

/** Leaving the console for the provider's page (an object, so tests can watch it). */
export const browserWindow = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
