import type { Filters, Locale, Payment } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, paginate, type FilterWhitelist } from '../../lib/pagination.js';
import {
  findPaymentByExternalId,
  insertPayment,
  paymentsQuery,
  setPaymentExternal,
  settlePayment,
} from './billing.repository.js';
import { inLedgerTransaction, postInTransaction } from './ledger.service.js';
import { toPayment } from './billing.presenter.js';
import type { PaymentProvider } from './payment-providers.js';

/** Top-ups through a payment provider (docs/billing.md "Payments"). */

const PAYMENT_FILTERS: FilterWhitelist = {
  status: { column: 'status', type: 'string', operators: ['=', 'in'] },
};

/** One page of the organisation's online payments, newest first, filtered. */
export async function listPayments(
  db: Kysely<Database>,
  request: FastifyRequest,
  organisationId: number,
  { page, per_page: perPage, filters }: { page: number; per_page: number; filters?: Filters | undefined },
) {
  const query = applyFilters(paymentsQuery(db, organisationId), filters, PAYMENT_FILTERS);
  const paged = await paginate(request, query, { page, per_page: perPage });
  return { ...paged, data: paged.data.map(toPayment) };
}

/** A payment of the sandbox provider by the id it gave the payment, or 404. */
export async function sandboxPayment(db: Kysely<Database>, providerName: string, externalId: string) {
  const payment = await findPaymentByExternalId(db, providerName, externalId);
  if (!payment) throw notFound();
  return payment;
}

export async function findPayment(
  db: Kysely<Database>,
  organisationId: number,
  id: number,
): Promise<Payment> {
  const row = await paymentsQuery(db, organisationId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return toPayment(row);
}

/** `POST /api/payment/create`: a pending payment and the provider's page to confirm it on. */
export async function createPayment(
  db: Kysely<Database>,
  provider: PaymentProvider,
  user: { id: number; organisationId: number },
  amount: number,
  locale: Locale,
): Promise<Payment> {
  const id = await insertPayment(db, {
    organisation_id: user.organisationId,
    provider: provider.name,
    external_id: null,
    amount,
    status: 'pending',
    confirmation_url: null,
    created_by: user.id,
    created_at: nowIso(),
  });
  const registered = await provider.create({
    id,
    amount,
    description: `Пополнение баланса Kontrol, платёж № ${id}`,
    locale,
  });
  await setPaymentExternal(db, id, registered.externalId, registered.confirmationUrl);
  return findPayment(db, user.organisationId, id);
}

export type CallbackOutcome =
  'credited' | 'failed' | 'already_settled' | 'unknown_payment' | 'amount_mismatch';

/**
 * A verified callback: settles the payment once. A success credits the ledger (reference
 * `payment:<id>`, marked test money when the provider's credits are) in the same transaction; a
 * repeated or late callback changes nothing.
 */
export async function settleFromCallback(
  db: Kysely<Database>,
  provider: Pick<PaymentProvider, 'name' | 'testMoney'>,
  callback: { externalId: string; status: 'succeeded' | 'failed'; amount: number },
): Promise<CallbackOutcome> {
  const payment = await findPaymentByExternalId(db, provider.name, callback.externalId);
  if (!payment) return 'unknown_payment';
  if (payment.status !== 'pending') return 'already_settled';
  if (callback.status === 'succeeded' && callback.amount !== Number(payment.amount)) return 'amount_mismatch';
  const outcome = await inLedgerTransaction(db, async (trx) => {
    if (!(await settlePayment(trx, payment.id, callback.status, nowIso()))) return 'already_settled' as const;
    if (callback.status === 'failed') return 'failed' as const;
    await postInTransaction(trx, {
      organisationId: payment.organisation_id,
      kind: 'payment',
      amount: Number(payment.amount),
      description: `Оплата онлайн, платёж № ${payment.id}`,
      reference: `payment:${payment.id}`,
      testMoney: provider.testMoney,
    });
    return 'credited' as const;
  });
  return outcome ?? 'already_settled';
}
