import type { Payment } from '@kontrol/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** How often a pending payment is asked for again, and for how long at most. */
export const PAYMENT_POLL_MS = 2_000;
export const PAYMENT_POLL_LIMIT_MS = 60_000;

/** `GET /api/payment/payments/{id}`: one payment and its status. */
export async function getPayment(id: number, signal?: AbortSignal): Promise<Payment> {
  return (await apiClient.get<{ data: Payment }>(`/payment/payments/${id}`, { signal })).data.data;
}

/**
 * The payment the provider's page returned from (`?payment=<id>`): asked every
 * {@link PAYMENT_POLL_MS} while it is pending, for {@link PAYMENT_POLL_LIMIT_MS} at most. Once it
 * is settled, the balance, the history, the payments and the documents are read again.
 * `timedOut`: it was still pending when the asking stopped.
 */
export function usePaymentOutcome(id: number | null) {
  const client = useQueryClient();
  const [expired, setExpired] = useState(false);
  const expiredRef = useRef(false);
  useEffect(() => {
    expiredRef.current = false;
    setExpired(false);
    if (id === null) return;
    const timer = setTimeout(() => {
      expiredRef.current = true;
      setExpired(true);
    }, PAYMENT_POLL_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [id]);

  const query = useQuery({
    queryKey: billingKeys.payment(id ?? 0),
    queryFn: async ({ signal }) => {
      const payment = await getPayment(id ?? 0, signal);
      if (payment.status !== 'pending') {
        void client.invalidateQueries({ queryKey: billingKeys.balance() });
        void client.invalidateQueries({ queryKey: billingKeys.ledger() });
        void client.invalidateQueries({ queryKey: billingKeys.payments() });
        void client.invalidateQueries({ queryKey: billingKeys.documents() });
      }
      return payment;
    },
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (q) =>
      q.state.data?.status === 'pending' && !expiredRef.current ? PAYMENT_POLL_MS : false,
  });
  return { ...query, timedOut: expired && query.data?.status === 'pending' };
}
