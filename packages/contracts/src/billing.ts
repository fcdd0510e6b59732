import { z } from 'zod';
import { filtersParamSchema, MAX_PER_PAGE, pagedSchema } from './pagination.js';

/**
 * Billing (docs/contract.md, "Product and areas" billing, "Screens and routes" `billing` with tabs balance, history and organisation, "HTTP calls"
 * `GET /api/users/balance`, `POST /api/users/update_organization`, `POST /api/users/balance_log`,
 * `POST /api/payment/create`, `/payment/invoice/create`, `/payment/act/create`). Every amount is
 * an integer number of kopecks (1 ₽ = 100) in roubles, the only currency. docs/billing.md.
 */

export const CURRENCY = 'RUB';

/** The kinds of ledger entries: credits (payment, refund when positive, correction) and debits. */
export const LEDGER_KINDS = ['payment', 'charge', 'correction', 'refund'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * The billing day: charges are posted per calendar day in Moscow time, the zone Russian invoices
 * and acts are dated in, whatever the zones of the organisation's addresses.
 */
export const BILLING_TIME_ZONE = 'Europe/Moscow';

/**
 * A top-up (an online payment or an invoice) is at least 100 ₽ and at most 1 000 000 ₽ unless the
 * deployment sets its own limits (`BILLING_TOP_UP_MIN_KOPECKS`, `BILLING_TOP_UP_MAX_KOPECKS`); the
 * balance answer carries the limits in force, so the console checks what the server will.
 */
export const TOP_UP_MIN_KOPECKS = 100_00;
export const TOP_UP_MAX_KOPECKS = 1_000_000_00;
/** The most a deployment may set as its maximum: 100 000 000 ₽. */
export const TOP_UP_CEILING_KOPECKS = 100_000_000_00;

/** The kopecks a top-up may be, both ends included. */
export interface TopUpLimits {
  min_amount: number;
  max_amount: number;
}

/**
 * The body of `POST /api/payment/create` and `/api/payment/invoice/create` under `limits`; out of
 * them, the message names the limits in roubles in the reader's language.
 */
export function topUpBodySchema(limits: TopUpLimits) {
  return z.object({
    amount: z
      .number()
      .int()
      .refine((kopecks) => kopecks >= limits.min_amount && kopecks <= limits.max_amount, {
        params: {
          key: 'billing.amount_range',
          min: limits.min_amount / 100,
          max: limits.max_amount / 100,
        },
      }),
  });
}
export type TopUpBody = z.infer<ReturnType<typeof topUpBodySchema>>;

/**
 * The online payment providers Kontrol ships: only the sandbox, whose credits are test money. A
 * deployment without one tops up by invoice (bank transfer) only.
 */
export const PAYMENT_PROVIDERS = ['sandbox'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** `GET /api/users/balance`. */
export const balanceSchema = z.object({
  /** The ledger's sum, in kopecks; negative when the organisation owes. */
  balance: z.number().int(),
  currency: z.literal(CURRENCY),
  /** The tariff: kopecks per smart device per billing day. */
  daily_rate: z.number().int(),
  /** Smart devices registered now (a controller or a current template). */
  smart_devices: z.number().int(),
  /** What a day costs at the current fleet: `daily_rate × smart_devices`. */
  daily_charge: z.number().int(),
  /** Whole days the balance lasts at `daily_charge`: 0 when it is spent, null when nothing is charged. */
  days_left: z.number().int().nullable(),
  /** The last charge posted, if any (a billing day, YYYY-MM-DD). */
  last_charge_date: z.string().nullable(),
  vat_percent: z.number(),
  /** How the balance is topped up here, and the limits of a top-up (docs/billing.md "Payments"). */
  top_up: z.object({
    /** The online payment provider; null: no online payment, top-up by invoice (bank transfer) only. */
    provider: z.enum(PAYMENT_PROVIDERS).nullable(),
    /** Online payments are test money (the sandbox): nothing is charged, and the ledger says so. */
    test_money: z.boolean(),
    min_amount: z.number().int(),
    max_amount: z.number().int(),
  }),
});
export type Balance = z.infer<typeof balanceSchema>;

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(LEDGER_KINDS),
  /** Kopecks: positive credits, negative debits. */
  amount: z.number().int(),
  balance_after: z.number().int(),
  /** In the reader's language for the entries Kontrol writes; the operator's own words otherwise. */
  description: z.string(),
  /** What the entry is about: `charge:2026-11-24`, `payment:12`, `invoice:2026-17`; null for corrections. */
  reference: z.string().nullable(),
  /** Charges: smart devices counted and the kopecks per device that day. */
  quantity: z.number().int().nullable(),
  unit_price: z.number().int().nullable(),
  /** A credit through a test provider (the sandbox) or the demo's: money nobody paid. */
  test_money: z.boolean(),
  created_at: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/**
 * A page of a billing list with filters: the body of `POST /api/users/balance_log` (docs/contract.md, "Entities": page
 * and filters; filters kind `=`/`in`, created_at `>=`/`<=`/`between` with ISO moments or dates,
 * amount `<`/`>`/`<=`/`>=`/`=`), and the query of `GET /api/payment/documents` (kind, status `=`)
 * and `GET /api/payment/payments` (status `=`/`in`).
 */
export const billingListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(25),
  filters: filtersParamSchema.optional(),
});
export type BillingListQuery = z.input<typeof billingListQuerySchema>;
export const balanceLogPageSchema = pagedSchema(ledgerEntrySchema);
/** `GET /api/users/balance_log/csv?filters=…`: the same filters, every matching row. */
export const balanceLogExportQuerySchema = z.object({ filters: filtersParamSchema.optional() });

/** The organisation's requisites as stored; null fields were never filled. */
export const organisationDetailsResponseSchema = z.object({
  data: z
    .object({
      legal_name: z.string(),
      inn: z.string(),
      kpp: z.string().nullable(),
      ogrn: z.string(),
      legal_address: z.string(),
      postal_address: z.string().nullable(),
      bank_name: z.string(),
      bik: z.string(),
      correspondent_account: z.string(),
      settlement_account: z.string(),
      director: z.string(),
      accountant: z.string().nullable(),
      documents_email: z.string(),
      updated_at: z.string(),
    })
    .nullable(),
});

export type StoredOrganisationDetails = NonNullable<
  z.infer<typeof organisationDetailsResponseSchema>['data']
>;

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const paymentSchema = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  status: z.enum(PAYMENT_STATUSES),
  /** The provider's name (`sandbox` unless another is configured). */
  provider: z.string(),
  /** Where the payer confirms the payment (the provider's page); null once it is settled. */
  confirmation_url: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;
export const paymentsPageSchema = pagedSchema(paymentSchema);

export const DOCUMENT_KINDS = ['invoice', 'act'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
/** Invoices are `issued` until paid; acts are `issued` for good. */
export const DOCUMENT_STATUSES = ['issued', 'paid'] as const;

/** A month, `YYYY-MM`. */
export const periodSchema = z
  .string()
  .refine((value) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value), { params: { key: 'billing.period_format' } });

/** `POST /api/payment/act/create`: the act of services for a month that has ended. */
export const actCreateBodySchema = z.object({ period: periodSchema });

/**
 * `GET /api/payment/act/periods`: the months an act can be made for — ended (Moscow time) and
 * with at least one daily charge —, newest first, as `YYYY-MM`.
 */
export const actPeriodsSchema = z.object({ data: z.object({ periods: z.array(z.string()) }) });
export type ActPeriods = z.infer<typeof actPeriodsSchema>['data'];
export type ActCreateBody = z.infer<typeof actCreateBodySchema>;

export const billingDocumentSchema = z.object({
  id: z.number().int(),
  kind: z.enum(DOCUMENT_KINDS),
  /** `<year>-<running number of the kind in that year>`, e.g. `2026-17`. */
  number: z.string(),
  /** The document's date (YYYY-MM-DD, Moscow). */
  date: z.string(),
  /** Kopecks, VAT included. */
  amount: z.number().int(),
  vat: z.number().int(),
  vat_percent: z.number(),
  /** Acts: the month they cover. */
  period: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES),
  paid_at: z.string().nullable(),
  created_at: z.string(),
  /** `GET` it for the PDF. */
  download_url: z.string(),
});
export type BillingDocument = z.infer<typeof billingDocumentSchema>;

export const documentsPageSchema = pagedSchema(billingDocumentSchema);
