import type { Filters } from '@kontrol/contracts';

/**
 * Query keys of the billing page: the balance (also read by the account frame's banner), the
 * ledger, the organisation's requisites, payments and documents, and the months acts can be made for.
 */
export const billingKeys = {
  all: ['billing'] as const,
  balance: () => ['billing', 'balance'] as const,
  ledger: () => ['billing', 'ledger'] as const,
  ledgerPage: (page: number, filters: Filters | undefined) =>
    ['billing', 'ledger', page, filters ?? null] as const,
  organisation: () => ['billing', 'organisation'] as const,
  payments: () => ['billing', 'payments'] as const,
  paymentsPage: (page: number) => ['billing', 'payments', 'page', page] as const,
  /** Not under `payments()`: settling a payment reloads the list, not the payment again. */
  payment: (id: number) => ['billing', 'payment', id] as const,
  documents: () => ['billing', 'documents'] as const,
  documentsPage: (page: number) => ['billing', 'documents', page] as const,
  actPeriods: () => ['billing', 'act-periods'] as const,
};
