import {
  amountInWordsRu,
  formatKopecksRu,
  BILLING_TIME_ZONE,
  zonedDayStart,
  type BillingDocument,
  type Filters,
  type OrganisationDetails,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, paginate, type FilterWhitelist } from '../../lib/pagination.js';
import { renderActPdf, renderInvoicePdf, type DocumentLine, type DocumentParty } from './billing-pdf.js';
import {
  chargedMonths,
  chargesBetween,
  documentsQuery,
  findActForPeriod,
  findDetails,
  findDocument,
  findInvoiceByNumber,
  insertDocument,
  markInvoicePaid,
  nextDocumentSequence,
  readDocumentPdf,
  saveDetails,
} from './billing.repository.js';
import { addDays, billingDay, inLedgerTransaction, postInTransaction } from './ledger.service.js';
import { documentNumber, dottedDate, toBillingDocument, toDetails } from './billing.presenter.js';

/** Invoices and acts (docs/billing.md "Documents") and the requisites they carry. */

export interface DocumentSettings {
  seller: DocumentParty;
  vatPercent: number;
}

const MONTHS_NOMINATIVE = [
  'январь',
  'февраль',
  'март',
  'апрель',
  'май',
  'июнь',
  'июль',
  'август',
  'сентябрь',
  'октябрь',
  'ноябрь',
  'декабрь',
];

/** What the service is called on invoices and acts. */
export const SERVICE_TITLE = 'Услуги мониторинга оборудования Kontrol';

const DOCUMENT_FILTERS: FilterWhitelist = {
  kind: { column: 'kind', type: 'string', operators: ['='] },
  status: { column: 'status', type: 'string', operators: ['='] },
};

/** One page of the organisation's invoices and acts, newest first, filtered. */
export async function listDocuments(
  db: Kysely<Database>,
  request: FastifyRequest,
  organisationId: number,
  { page, per_page: perPage, filters }: { page: number; per_page: number; filters?: Filters | undefined },
) {
  const query = applyFilters(documentsQuery(db, organisationId), filters, DOCUMENT_FILTERS);
  const paged = await paginate(request, query, { page, per_page: perPage });
  return { ...paged, data: paged.data.map(toBillingDocument) };
}

/** An invoice or act as the PDF it was issued as, with the file name it downloads under; or 404. */
export async function documentPdf(db: Kysely<Database>, organisationId: number, documentId: number) {
  const row = await readDocumentPdf(db, organisationId, documentId);
  if (!row) throw notFound();
  const name = `${row.kind === 'invoice' ? 'Счёт' : 'Акт'} № ${row.year}-${row.sequence}.pdf`;
  return { name, pdf: Buffer.from(row.pdf) };
}

/** The organisation's requisites, or null until they are filled. */
export async function organisationDetails(db: Kysely<Database>, organisationId: number) {
  return toDetails(await findDetails(db, organisationId));
}

/** VAT inside an amount that includes it, rounded to the kopeck. */
export function vatIncluded(amount: number, vatPercent: number): number {
  return Math.round((amount * vatPercent) / (100 + vatPercent));
}

// Organisation details.

export async function updateDetails(db: Kysely<Database>, organisationId: number, body: OrganisationDetails) {
  await saveDetails(db, {
    organisation_id: organisationId,
    legal_name: body.legal_name,
    inn: body.inn,
    kpp: body.kpp ?? null,
    ogrn: body.ogrn,
    legal_address: body.legal_address,
    postal_address: body.postal_address ?? null,
    bank_name: body.bank_name,
    bik: body.bik,
    correspondent_account: body.correspondent_account,
    settlement_account: body.settlement_account,
    director: body.director,
    accountant: body.accountant ?? null,
    documents_email: body.documents_email,
    updated_at: nowIso(),
  });
  return toDetails(await findDetails(db, organisationId));
}

/** The organisation as a party of a document; a 422 when its details were never filled. */
async function buyerOf(db: Kysely<Database>, organisationId: number): Promise<DocumentParty> {
  const details = await findDetails(db, organisationId);
  if (!details) throw new FieldValidationError({ organization: ['billing.details_missing'] });
  return {
    legal_name: details.legal_name,
    inn: details.inn,
    kpp: details.kpp,
    ogrn: details.ogrn,
    legal_address: details.legal_address,
    bank_name: details.bank_name,
    bik: details.bik,
    correspondent_account: details.correspondent_account,
    settlement_account: details.settlement_account,
    director: details.director,
    accountant: details.accountant,
  };
}

/** `POST /api/payment/invoice/create`: a numbered invoice for `amount` kopecks, VAT included. */
export async function createInvoice(
  db: Kysely<Database>,
  user: { id: number; organisationId: number },
  amount: number,
  settings: DocumentSettings,
  now = Date.now(),
): Promise<BillingDocument> {
  const buyer = await buyerOf(db, user.organisationId);
  const date = billingDay(now);
  const year = Number(date.slice(0, 4));
  const vat = vatIncluded(amount, settings.vatPercent);
  const id = await db.transaction().execute(async (trx) => {
    const sequence = await nextDocumentSequence(trx, 'invoice', year);
    const number = documentNumber({ year, sequence });
    const pdf = await renderInvoicePdf({
      number,
      date,
      seller: settings.seller,
      buyer,
      lines: [
        {
          title: `${SERVICE_TITLE} (пополнение баланса)`,
          quantity: 1,
          unit: 'усл.',
          price_kopecks: amount,
          amount_kopecks: amount,
        },
      ],
      total_kopecks: amount,
      vat_percent: settings.vatPercent,
      vat_kopecks: vat,
      total_in_words: amountInWordsRu(amount),
      payment_purpose: `Оплата по счёту № ${number} от ${dottedDate(date)} за услуги Kontrol. В т.ч. НДС ${settings.vatPercent}% — ${formatKopecksRu(vat)} руб.`,
    });
    return insertDocument(trx, {
      organisation_id: user.organisationId,
      kind: 'invoice',
      year,
      sequence,
      date,
      amount,
      vat,
      vat_percent: settings.vatPercent,
      period: null,
      status: 'issued',
      paid_at: null,
      pdf,
      created_by: user.id,
      created_at: new Date(now).toISOString(),
    });
  });
  const row = await findDocument(db, user.organisationId, id);
  if (!row) throw new Error(`invoice ${id} vanished`);
  return toBillingDocument(row);
}

/** The first and last billing days of a month `YYYY-MM`. */
export function periodDays(period: string): { first: string; last: string } {
  const first = `${period}-01`;
  const [year = 0, month = 1] = period.split('-').map(Number);
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  return { first, last: addDays(next, -1) };
}

/** The months an act can be made for: ended (Moscow time) and charged, newest first. */
export async function actPeriods(db: Kysely<Database>, organisationId: number, now = Date.now()) {
  const current = billingDay(now).slice(0, 7);
  return (await chargedMonths(db, organisationId)).filter((period) => period < current);
}

/**
 * `POST /api/payment/act/create`: the act of services for a month that has ended, from the
 * ledger's charges of that month (a line per daily rate). One act per month: asked again, the
 * existing act is answered (`created` false).
 */
export async function createAct(
  db: Kysely<Database>,
  user: { id: number; organisationId: number },
  period: string,
  settings: DocumentSettings,
  now = Date.now(),
): Promise<{ document: BillingDocument; created: boolean }> {
  const existing = await findActForPeriod(db, user.organisationId, period);
  if (existing) return { document: toBillingDocument(existing), created: false };
  if (period >= billingDay(now).slice(0, 7))
    throw new FieldValidationError({ period: ['billing.period_not_ended'] });
  const buyer = await buyerOf(db, user.organisationId);
  const { first, last } = periodDays(period);
  const charges = await chargesBetween(db, user.organisationId, first, last);
  if (charges.length === 0) throw new FieldValidationError({ period: ['billing.period_empty'] });

  const byRate = new Map<number, DocumentLine>();
  for (const charge of charges) {
    const price = charge.unit_price ?? -Number(charge.amount);
    const line = byRate.get(price) ?? {
      title: `${SERVICE_TITLE} за ${MONTHS_NOMINATIVE[Number(period.slice(5)) - 1]} ${period.slice(0, 4)} г.`,
      quantity: 0,
      unit: 'устр.-сут.',
      price_kopecks: price,
      amount_kopecks: 0,
    };
    line.quantity += charge.quantity ?? 1;
    line.amount_kopecks += -Number(charge.amount);
    byRate.set(price, line);
  }
  const lines = [...byRate.values()];
  const total = lines.reduce((sum, line) => sum + line.amount_kopecks, 0);
  const vat = vatIncluded(total, settings.vatPercent);
  // An act is dated the month's last day, when the services were rendered in full.
  const year = Number(last.slice(0, 4));
  try {
    const id = await db.transaction().execute(async (trx) => {
      const sequence = await nextDocumentSequence(trx, 'act', year);
      const pdf = await renderActPdf({
        number: documentNumber({ year, sequence }),
        date: last,
        period_label: `${MONTHS_NOMINATIVE[Number(period.slice(5)) - 1]} ${period.slice(0, 4)}`,
        seller: settings.seller,
        buyer,
        lines,
        total_kopecks: total,
        vat_percent: settings.vatPercent,
        vat_kopecks: vat,
        total_in_words: amountInWordsRu(total),
      });
      return insertDocument(trx, {
        organisation_id: user.organisationId,
        kind: 'act',
        year,
        sequence,
        date: last,
        amount: total,
        vat,
        vat_percent: settings.vatPercent,
        period,
        status: 'issued',
        paid_at: null,
        pdf,
        created_by: user.id,
        created_at: new Date(now).toISOString(),
      });
    });
    const row = await findDocument(db, user.organisationId, id);
    if (!row) throw new Error(`act ${id} vanished`);
    return { document: toBillingDocument(row), created: true };
  } catch (error) {
    // Two requests for the same month at once: the unique period index lets one through.
    const raced = await findActForPeriod(db, user.organisationId, period);
    if (raced) return { document: toBillingDocument(raced), created: false };
    throw error;
  }
}

export class InvoiceNotFound extends Error {}

/**
 * The operator tool's `billing:invoice-paid`: marks an issued invoice paid and credits its amount
 * to the organisation's ledger, once (a second run changes nothing and says so).
 */
export async function markInvoicePaidAndCredit(
  db: Kysely<Database>,
  number: string,
  now = Date.now(),
): Promise<{ organisationId: number; amount: number; balance: number } | 'already_paid'> {
  const match = /^(\d{4})-(\d+)$/.exec(number.trim());
  if (!match) throw new InvoiceNotFound(`an invoice number looks like 2026-17, not "${number}"`);
  const invoice = await findInvoiceByNumber(db, Number(match[1]), Number(match[2]));
  if (!invoice) throw new InvoiceNotFound(`there is no invoice ${number}`);
  const result = await inLedgerTransaction(db, async (trx) => {
    if (!(await markInvoicePaid(trx, invoice.id, new Date(now).toISOString())))
      return 'already_paid' as const;
    const posted = await postInTransaction(
      trx,
      {
        organisationId: invoice.organisation_id,
        kind: 'payment',
        amount: Number(invoice.amount),
        description: `Оплата по счёту № ${number} от ${dottedDate(invoice.date)}`,
        reference: `invoice:${number}`,
      },
      now,
    );
    return {
      organisationId: invoice.organisation_id,
      amount: Number(invoice.amount),
      balance: posted?.balance ?? 0,
    };
  });
  return result ?? 'already_paid';
}

/** The moment a billing day begins, for tests and the demo. */
export function billingDayStart(day: string): number {
  return zonedDayStart(day, BILLING_TIME_ZONE);
}
