import type { AuthUser, Balance, BillingDocument, LedgerEntry, Payment } from '@kontrol/contracts';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import '../../../lib/i18n';
import { buildAuthUser, pageOf, server } from '../../../test/server';
import type { OrganisationRecord } from '../api/get-organisation';
import { BillingPage } from '../routes/billing-page';
import { renderAccountPages } from '../../../test/render';

export { pageOf };

/** An admin of organisation 1 holding the billing module. */
export const ADMIN = buildAuthUser(['billing', 'dashboard'], { isAdmin: true, role: 'admin' });
/** A regular user of organisation 1 who may see the billing. */
export const REGULAR = buildAuthUser(['billing']);

const STAMP = '2026-11-24T09:00:00.000Z';

/** `top_up` without an online payment provider (the server's default), and with the sandbox. */
export const NO_ONLINE_PAYMENT: Balance['top_up'] = {
  provider: null,
  test_money: false,
  min_amount: 100_00,
  max_amount: 1_000_000_00,
};
export const SANDBOX_PAYMENT: Balance['top_up'] = {
  ...NO_ONLINE_PAYMENT,
  provider: 'sandbox',
  test_money: true,
};

export function buildBalance(overrides: Partial<Balance> = {}): Balance {
  return {
    balance: 1_234_567,
    currency: 'RUB',
    daily_rate: 1_000,
    smart_devices: 3,
    daily_charge: 3_000,
    days_left: 411,
    last_charge_date: '2026-11-23',
    vat_percent: 22,
    // The server's default: no online payment provider, top-up by invoice.
    top_up: NO_ONLINE_PAYMENT,
    ...overrides,
  };
}

export function buildLedgerEntry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: 1,
    kind: 'charge',
    amount: -3_000,
    balance_after: 1_234_567,
    description: 'Абонентская плата за 23.11.2026: 3 устр. × 10,00 ₽',
    reference: 'charge:2026-11-23',
    quantity: 3,
    unit_price: 1_000,
    test_money: false,
    created_at: STAMP,
    ...overrides,
  };
}

export function buildPayment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 7,
    amount: 150_000,
    status: 'pending',
    provider: 'sandbox',
    confirmation_url: 'http://127.0.0.1/api/payment/sandbox/abcdefghijklmnop',
    created_at: STAMP,
    completed_at: null,
    ...overrides,
  };
}

export function buildDocument(overrides: Partial<BillingDocument> = {}): BillingDocument {
  return {
    id: 3,
    kind: 'invoice',
    number: '2026-5',
    date: '2026-11-24',
    amount: 200_000,
    vat: 36_066,
    vat_percent: 22,
    period: null,
    status: 'issued',
    paid_at: null,
    created_at: STAMP,
    download_url: '/api/payment/documents/3/pdf',
    ...overrides,
  };
}

/** Valid requisites of a company (Sberbank's, as the checksum tests use them). */
export function buildOrganisation(overrides: Partial<OrganisationRecord> = {}): OrganisationRecord {
  return {
    legal_name: 'ООО «Кафе на Тверской»',
    inn: '7707083893',
    kpp: '773601001',
    ogrn: '1027700132195',
    legal_address: '117312, г. Москва, ул. Вавилова, д. 19',
    postal_address: null,
    bank_name: 'ПАО Сбербанк',
    bik: '044525225',
    correspondent_account: '30101810400000000225',
    settlement_account: '40702810638000000000',
    director: 'Иванов Иван Иванович',
    accountant: null,
    documents_email: 'buh@example.test',
    updated_at: STAMP,
    ...overrides,
  };
}

/** What the billing endpoints were asked, for the tests to look at. */
export interface Asked {
  balance: number;
  ledger: unknown[];
  csv: URLSearchParams[];
  payments: number;
  documents: number;
  organisation: number;
}

/**
 * Answers every billing endpoint the balance tab and the other tabs read: `balance`, the ledger
 * (`ledger(body)`), no payments or documents unless given, and the requisites (null unless given).
 */
export function serveBilling(
  options: {
    balance?: Balance;
    ledger?: (body: unknown) => ReturnType<typeof pageOf<LedgerEntry>>;
    payments?: Payment[];
    documents?: BillingDocument[];
    organisation?: OrganisationRecord | null;
  } = {},
): Asked {
  const asked: Asked = { balance: 0, ledger: [], csv: [], payments: 0, documents: 0, organisation: 0 };
  server.use(
    http.get('/api/users/balance', () => {
      asked.balance += 1;
      return HttpResponse.json({ data: options.balance ?? buildBalance() });
    }),
    http.post('/api/users/balance_log', async ({ request }) => {
      const body: unknown = await request.json();
      asked.ledger.push(body);
      return HttpResponse.json(options.ledger ? options.ledger(body) : pageOf([buildLedgerEntry()]));
    }),
    http.get('/api/payment/payments', () => {
      asked.payments += 1;
      return HttpResponse.json(pageOf(options.payments ?? []));
    }),
    http.get('/api/payment/documents', () => {
      asked.documents += 1;
      return HttpResponse.json(pageOf(options.documents ?? []));
    }),
    http.get('/api/users/organization', () => {
      asked.organisation += 1;
      return HttpResponse.json({ data: options.organisation ?? null });
    }),
  );
  return asked;
}

/** Account-area children rendered under a memory router whose account route knows `user`. */
export async function renderInAccount(url: string, user: AuthUser, element: ReactNode, path = 'billing') {
  return renderAccountPages({
    url,
    user,
    routes: [
      // A box of its own, so a component that shows nothing still counts as rendered.
      { path, element: <div>{element}</div> },
      { path: '*', element: null },
    ],
  });
}

/** The billing page at `url` (e.g. `/account/billing?tab=history`). */
export function renderBilling(url = '/account/billing', user: AuthUser = ADMIN) {
  return renderInAccount(url, user, <BillingPage />);
}
