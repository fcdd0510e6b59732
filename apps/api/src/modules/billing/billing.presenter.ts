import {
  formatKopecksRu,
  translate,
  type BillingDocument,
  type LedgerEntry,
  type Locale,
  type Payment,
} from '@kontrol/contracts';
import type { DetailsRow, DocumentRow, LedgerRow, PaymentRow } from './billing.repository.js';

/** Billing rows as the API answers them, and the wording documents share (docs/billing.md). */

/** `DD.MM.YYYY` of a `YYYY-MM-DD`, as Russian documents write dates. */
export function dottedDate(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}.${month}.${year}`;
}

/** An invoice's or act's number: its year and its sequence within the year. */
export function documentNumber(row: { year: number; sequence: number }): string {
  return `${row.year}-${row.sequence}`;
}

/**
 * An entry's description in the reader's language: the ledger keeps the Russian text of the
 * accounting documents, and the entries Kontrol writes itself (charges, payments) are worded anew
 * from what they record; the operator's corrections keep their own words.
 */
function describeEntry(row: LedgerRow, locale: Locale): string {
  const [kind, ref] = (row.reference ?? '').split(':', 2);
  if (row.kind === 'charge' && kind === 'charge' && ref && row.quantity !== null && row.unit_price !== null) {
    return translate(locale, 'billing.entry.charge', {
      date: locale === 'ru' ? dottedDate(ref) : ref,
      count: row.quantity,
      price: locale === 'ru' ? formatKopecksRu(row.unit_price) : (row.unit_price / 100).toFixed(2),
    });
  }
  if (row.kind === 'payment' && kind === 'payment' && ref)
    return translate(locale, 'billing.entry.online_payment', { id: ref });
  if (row.kind === 'payment' && kind === 'invoice' && ref)
    return translate(locale, 'billing.entry.invoice_payment', { number: ref });
  return row.description;
}

export function toLedgerEntry(row: LedgerRow, locale: Locale): LedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    amount: Number(row.amount),
    balance_after: Number(row.balance_after),
    description: describeEntry(row, locale),
    reference: row.reference,
    quantity: row.quantity,
    unit_price: row.unit_price,
    test_money: Number(row.test_money) === 1,
    created_at: row.created_at,
  };
}

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    amount: Number(row.amount),
    status: row.status,
    provider: row.provider,
    confirmation_url: row.status === 'pending' ? row.confirmation_url : null,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

export function toBillingDocument(row: DocumentRow): BillingDocument {
  return {
    id: row.id,
    kind: row.kind,
    number: documentNumber(row),
    date: row.date,
    amount: Number(row.amount),
    vat: Number(row.vat),
    vat_percent: Number(row.vat_percent),
    period: row.period,
    status: row.status,
    paid_at: row.paid_at,
    created_at: row.created_at,
    download_url: `/api/payment/documents/${row.id}/pdf`,
  };
}

/** The stored requisites as `GET /api/users/organization` answers them (without the organisation's id). */
export function toDetails(row: DetailsRow | undefined) {
  if (!row) return null;
  return {
    legal_name: row.legal_name,
    inn: row.inn,
    kpp: row.kpp,
    ogrn: row.ogrn,
    legal_address: row.legal_address,
    postal_address: row.postal_address,
    bank_name: row.bank_name,
    bik: row.bik,
    correspondent_account: row.correspondent_account,
    settlement_account: row.settlement_account,
    director: row.director,
    accountant: row.accountant,
    documents_email: row.documents_email,
    updated_at: row.updated_at,
  };
}
