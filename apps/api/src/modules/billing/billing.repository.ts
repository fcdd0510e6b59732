import type {
  BillingDocumentsTable,
  Database,
  LedgerEntriesTable,
  OrganisationDetailsTable,
  PaymentsTable,
} from '@kontrol/db';
import { sql, type ExpressionBuilder, type Insertable, type Kysely } from 'kysely';

/** SQL of billing (docs/billing.md); every read of tenant data is scoped to the organisation. */

/** Creates the organisation's account when it has none yet (charges start on `chargesFrom`). */
export async function ensureAccount(
  db: Kysely<Database>,
  organisationId: number,
  chargesFrom: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('billing_accounts')
    .values({
      organisation_id: organisationId,
      balance: 0,
      daily_rate: null,
      charges_from: chargesFrom,
      charged_through: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('organisation_id').doNothing())
    .execute();
}

export function findAccount(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('billing_accounts')
    .select(['organisation_id', 'balance', 'daily_rate', 'charges_from'])
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
}

/**
 * Inside a transaction: moves the balance by `amount` and answers the new balance. The row stays
 * locked until the transaction ends (PostgreSQL's row lock; SQLite has one writer at a time), so
 * the entries of one organisation are written one after another and each `balance_after` is exact.
 */
export async function moveBalance(
  db: Kysely<Database>,
  organisationId: number,
  amount: number,
  now: string,
): Promise<number> {
  const row = await db
    .updateTable('billing_accounts')
    .set({ balance: sql<number>`balance + ${amount}`, updated_at: now })
    .where('organisation_id', '=', organisationId)
    .returning('balance')
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

export async function insertLedgerEntry(db: Kysely<Database>, values: Insertable<LedgerEntriesTable>) {
  return (await db.insertInto('ledger_entries').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function hasLedgerReference(db: Kysely<Database>, organisationId: number, reference: string) {
  const row = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('reference', '=', reference)
    .executeTakeFirst();
  return row !== undefined;
}

/** The organisation's ledger, newest first. */
export function ledgerQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('ledger_entries')
    .select([
      'id',
      'kind',
      'amount',
      'balance_after',
      'description',
      'reference',
      'quantity',
      'unit_price',
      'test_money',
      'created_at',
    ])
    .where('organisation_id', '=', organisationId)
    .orderBy('id', 'desc');
}
export type LedgerRow = Awaited<ReturnType<ReturnType<typeof ledgerQuery>['executeTakeFirstOrThrow']>>;

/** The sum of the organisation's ledger (what the balance must equal). */
export async function ledgerSum(db: Kysely<Database>, organisationId: number): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select(sql<number | string | null>`sum(amount)`.as('total'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirstOrThrow();
  return Number(row.total ?? 0);
}

/** The newest charge's billing day, from its reference `charge:<day>`. */
export async function lastChargeDate(db: Kysely<Database>, organisationId: number): Promise<string | null> {
  const row = await db
    .selectFrom('ledger_entries')
    .select('reference')
    .where('organisation_id', '=', organisationId)
    .where('kind', '=', 'charge')
    .orderBy('reference', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.reference?.slice('charge:'.length) ?? null;
}

/** The charges of billing days `from`…`to` (YYYY-MM-DD, both included), oldest first. */
export function chargesBetween(db: Kysely<Database>, organisationId: number, from: string, to: string) {
  return db
    .selectFrom('ledger_entries')
    .select(['amount', 'quantity', 'unit_price', 'reference'])
    .where('organisation_id', '=', organisationId)
    .where('kind', '=', 'charge')
    .where('reference', '>=', `charge:${from}`)
    .where('reference', '<=', `charge:${to}`)
    .orderBy('reference')
    .execute();
}

/** The months (`YYYY-MM`) holding a charge of the organisation, newest first (from `charge:<day>`). */
export async function chargedMonths(db: Kysely<Database>, organisationId: number): Promise<string[]> {
  // `charge:YYYY-MM-DD`: the month is the 7 characters after the 7 of `charge:`.
  const month = sql<string>`substr(reference, 8, 7)`;
  const rows = await db
    .selectFrom('ledger_entries')
    .select(month.as('period'))
    .distinct()
    .where('organisation_id', '=', organisationId)
    .where('kind', '=', 'charge')
    .where('reference', 'is not', null)
    .orderBy('period', 'desc')
    .execute();
  return rows.map((row) => row.period);
}

/** docs/contract.md, "Entities": a device is smart when it has a controller or a current template. */
function isSmart(eb: ExpressionBuilder<Database, 'devices'>) {
  return eb.or([
    eb.and([eb('devices.controller_id', 'is not', null), eb('devices.controller_id', '!=', '')]),
    eb('devices.template_id', 'is not', null),
  ]);
}

/**
 * Smart devices registered before `before`
 * (an ISO moment): what a billing day is charged for.
 */
export async function countSmartDevices(
  db: Kysely<Database>,
  organisationId: number,
  before?: string,
): Promise<number> {
  let query = db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where(isSmart);
  if (before !== undefined) query = query.where('created_at', '<', before);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/** Every organisation with the first day its account charges (created now when missing). */
export function organisationsWithAccounts(db: Kysely<Database>) {
  return db
    .selectFrom('organisations')
    .leftJoin('billing_accounts', 'billing_accounts.organisation_id', 'organisations.id')
    .select([
      'organisations.id',
      'organisations.created_at',
      'billing_accounts.charges_from',
      'billing_accounts.charged_through',
      'billing_accounts.daily_rate',
    ])
    .orderBy('organisations.id')
    .execute();
}

/** Every organisation's account (or none yet) and its smart devices now, for the operator. */
export function accountsOverview(db: Kysely<Database>) {
  return db
    .selectFrom('organisations')
    .leftJoin('billing_accounts', 'billing_accounts.organisation_id', 'organisations.id')
    .select([
      'organisations.id',
      'organisations.name',
      'billing_accounts.balance',
      'billing_accounts.daily_rate',
      (eb) =>
        eb
          .selectFrom('devices')
          .select(sql<number>`count(*)`.as('count'))
          .whereRef('devices.organisation_id', '=', 'organisations.id')
          .where(isSmart)
          .as('smart_devices'),
    ])
    .execute();
}

/** Records that the daily job has handled billing days up to `day` (never moves back). */
export async function setChargedThrough(db: Kysely<Database>, organisationId: number, day: string) {
  await db
    .updateTable('billing_accounts')
    .set({ charged_through: day })
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('charged_through', 'is', null), eb('charged_through', '<', day)]))
    .execute();
}

export async function setDailyRate(
  db: Kysely<Database>,
  organisationId: number,
  dailyRate: number | null,
  now: string,
) {
  await db
    .updateTable('billing_accounts')
    .set({ daily_rate: dailyRate, updated_at: now })
    .where('organisation_id', '=', organisationId)
    .execute();
}

// Organisation details.

export function findDetails(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('organisation_details')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
}
export type DetailsRow = OrganisationDetailsTable;

export async function saveDetails(db: Kysely<Database>, values: OrganisationDetailsTable) {
  await db
    .insertInto('organisation_details')
    .values(values)
    .onConflict((oc) =>
      oc.column('organisation_id').doUpdateSet((eb) => ({
        legal_name: eb.ref('excluded.legal_name'),
        inn: eb.ref('excluded.inn'),
        kpp: eb.ref('excluded.kpp'),
        ogrn: eb.ref('excluded.ogrn'),
        legal_address: eb.ref('excluded.legal_address'),
        postal_address: eb.ref('excluded.postal_address'),
        bank_name: eb.ref('excluded.bank_name'),
        bik: eb.ref('excluded.bik'),
        correspondent_account: eb.ref('excluded.correspondent_account'),
        settlement_account: eb.ref('excluded.settlement_account'),
        director: eb.ref('excluded.director'),
        accountant: eb.ref('excluded.accountant'),
        documents_email: eb.ref('excluded.documents_email'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

// Payments.

export async function insertPayment(db: Kysely<Database>, values: Insertable<PaymentsTable>) {
  return (await db.insertInto('payments').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

const PAYMENT_COLUMNS = [
  'id',
  'organisation_id',
  'provider',
  'external_id',
  'amount',
  'status',
  'confirmation_url',
  'created_at',
  'completed_at',
] as const;

export function paymentsQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('organisation_id', '=', organisationId)
    .orderBy('id', 'desc');
}
export type PaymentRow = Awaited<ReturnType<ReturnType<typeof paymentsQuery>['executeTakeFirstOrThrow']>>;

/** A payment by the provider's id for it, whatever organisation made it (callbacks name no organisation). */
export function findPaymentByExternalId(db: Kysely<Database>, provider: string, externalId: string) {
  return db
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('provider', '=', provider)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export async function setPaymentExternal(
  db: Kysely<Database>,
  id: number,
  externalId: string,
  confirmationUrl: string,
) {
  await db
    .updateTable('payments')
    .set({ external_id: externalId, confirmation_url: confirmationUrl })
    .where('id', '=', id)
    .execute();
}

/** Settles a pending payment; false when it was settled already (a repeated callback). */
export async function settlePayment(
  db: Kysely<Database>,
  id: number,
  status: 'succeeded' | 'failed',
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ status, completed_at: now, confirmation_url: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// Documents.

/**
 * Inside a transaction: the next running number of `kind` in `year`. The counter row is locked
 * until the transaction ends, so a document that fails to be written gives its number back
 * (no gaps) and two at once never take the same one (no duplicates).
 */
export async function nextDocumentSequence(
  db: Kysely<Database>,
  kind: 'invoice' | 'act',
  year: number,
): Promise<number> {
  await db
    .insertInto('document_counters')
    .values({ kind, year, last_sequence: 0 })
    .onConflict((oc) => oc.columns(['kind', 'year']).doNothing())
    .execute();
  const row = await db
    .updateTable('document_counters')
    .set({ last_sequence: sql<number>`last_sequence + 1` })
    .where('kind', '=', kind)
    .where('year', '=', year)
    .returning('last_sequence')
    .executeTakeFirstOrThrow();
  return row.last_sequence;
}

export async function insertDocument(db: Kysely<Database>, values: Insertable<BillingDocumentsTable>) {
  return (await db.insertInto('billing_documents').values(values).returning('id').executeTakeFirstOrThrow())
    .id;
}

/** The organisation's documents without their PDF, newest first. */
export function documentsQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('billing_documents')
    .select([
      'id',
      'organisation_id',
      'kind',
      'year',
      'sequence',
      'date',
      'amount',
      'vat',
      'vat_percent',
      'period',
      'status',
      'paid_at',
      'created_at',
    ])
    .where('organisation_id', '=', organisationId)
    .orderBy('id', 'desc');
}
export type DocumentRow = Awaited<ReturnType<ReturnType<typeof documentsQuery>['executeTakeFirstOrThrow']>>;

export function findDocument(db: Kysely<Database>, organisationId: number, id: number) {
  return documentsQuery(db, organisationId).where('id', '=', id).executeTakeFirst();
}

export function findActForPeriod(db: Kysely<Database>, organisationId: number, period: string) {
  return documentsQuery(db, organisationId)
    .where('kind', '=', 'act')
    .where('period', '=', period)
    .executeTakeFirst();
}

export async function readDocumentPdf(db: Kysely<Database>, organisationId: number, id: number) {
  return db
    .selectFrom('billing_documents')
    .select(['pdf', 'kind', 'year', 'sequence'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** An invoice by its number, of any organisation (the operator tool marks it paid). */
export function findInvoiceByNumber(db: Kysely<Database>, year: number, sequence: number) {
  return db
    .selectFrom('billing_documents')
    .select(['id', 'organisation_id', 'amount', 'status', 'year', 'sequence', 'date'])
    .where('kind', '=', 'invoice')
    .where('year', '=', year)
    .where('sequence', '=', sequence)
    .executeTakeFirst();
}

/** Marks an issued invoice paid; false when it was paid already. */
export async function markInvoicePaid(db: Kysely<Database>, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('billing_documents')
    .set({ status: 'paid', paid_at: now })
    .where('id', '=', id)
    .where('kind', '=', 'invoice')
    .where('status', '=', 'issued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
