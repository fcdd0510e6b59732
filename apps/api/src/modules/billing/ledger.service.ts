import {
  BILLING_TIME_ZONE,
  datesBetween,
  formatKopecksRu,
  localDateTime,
  zonedDayStart,
  type Balance,
  type Filters,
  type LedgerKind,
  type Locale,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { applyFilters, paginate, type FilterWhitelist } from '../../lib/pagination.js';
import {
  countSmartDevices,
  ensureAccount,
  findAccount,
  hasLedgerReference,
  insertLedgerEntry,
  lastChargeDate,
  ledgerQuery,
  moveBalance,
  organisationsWithAccounts,
  setChargedThrough,
} from './billing.repository.js';
import { dottedDate, toLedgerEntry } from './billing.presenter.js';

/**
 * The ledger (docs/billing.md "Money"): every credit and debit is an entry; the balance is their
 * sum, kept on the organisation's account in the same transaction as each entry.
 */

const DAY_MS = 86_400_000;
/** Billing days the daily job catches up on after a stop; older ones are left for the operator. */
export const CHARGE_CATCH_UP_DAYS = 31;

/** The billing day (YYYY-MM-DD in Moscow) of a moment. */
export function billingDay(ts: number): string {
  return localDateTime(ts, BILLING_TIME_ZONE).date;
}

/** The day after / before a `YYYY-MM-DD`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Filters of `POST /api/users/balance_log` and its CSV. */
const LEDGER_FILTERS: FilterWhitelist = {
  kind: { column: 'kind', type: 'string', operators: ['=', 'in'] },
  created_at: { column: 'created_at', type: 'date', operators: ['>=', '<=', '<', '>', 'between'] },
  amount: { column: 'amount', type: 'bigint', operators: ['=', '<', '<=', '>', '>='] },
};

/** One page of the organisation's ledger, newest first, filtered, in `locale`. */
export async function listLedger(
  db: Kysely<Database>,
  request: FastifyRequest,
  organisationId: number,
  { page, per_page: perPage, filters }: { page: number; per_page: number; filters?: Filters | undefined },
  locale: Locale,
) {
  const query = applyFilters(ledgerQuery(db, organisationId), filters, LEDGER_FILTERS);
  const paged = await paginate(request, query, { page, per_page: perPage });
  return { ...paged, data: paged.data.map((row) => toLedgerEntry(row, locale)) };
}

/** The whole filtered ledger, newest first, in `locale` (its CSV download). */
export async function ledgerEntries(
  db: Kysely<Database>,
  organisationId: number,
  filters: Filters | undefined,
  locale: Locale,
) {
  const rows = await applyFilters(ledgerQuery(db, organisationId), filters, LEDGER_FILTERS).execute();
  return rows.map((row) => toLedgerEntry(row, locale));
}

export interface LedgerPosting {
  organisationId: number;
  kind: LedgerKind;
  /** Kopecks: positive credits, negative debits. */
  amount: number;
  description: string;
  /** Unique per organisation: a second posting with the same reference is not written. */
  reference: string | null;
  quantity?: number | null;
  unitPrice?: number | null;
  createdBy?: number | null;
  /** A credit nobody paid (the sandbox provider's, the demo's): marked so in the ledger for good. */
  testMoney?: boolean;
}

/**
 * Inside a transaction: writes one entry and moves the balance. The account's row is taken first,
 * so postings of one organisation take turns and a reference already posted is seen here:
 * answers the new balance, or null when the reference was posted before (nothing written).
 */
export async function postInTransaction(
  trx: Transaction<Database>,
  posting: LedgerPosting,
  now = Date.now(),
): Promise<{ entryId: number; balance: number } | null> {
  const iso = new Date(now).toISOString();
  await ensureAccount(trx, posting.organisationId, billingDay(now), iso);
  const balance = await moveBalance(trx, posting.organisationId, posting.amount, iso);
  if (
    posting.reference !== null &&
    (await hasLedgerReference(trx, posting.organisationId, posting.reference))
  ) {
    throw new AlreadyPosted();
  }
  const entryId = await insertLedgerEntry(trx, {
    organisation_id: posting.organisationId,
    kind: posting.kind,
    amount: posting.amount,
    balance_after: balance,
    description: posting.description,
    reference: posting.reference,
    quantity: posting.quantity ?? null,
    unit_price: posting.unitPrice ?? null,
    test_money: posting.testMoney ? 1 : 0,
    created_by: posting.createdBy ?? null,
    created_at: iso,
  });
  return { entryId, balance };
}

/** Thrown inside the transaction to undo the balance move of a reference posted before. */
class AlreadyPosted extends Error {}

/** Posts one entry in a transaction of its own; null when its reference was posted before. */
export async function post(
  db: Kysely<Database>,
  posting: LedgerPosting,
  now = Date.now(),
): Promise<{ entryId: number; balance: number } | null> {
  try {
    return await db.transaction().execute((trx) => postInTransaction(trx, posting, now));
  } catch (error) {
    if (error instanceof AlreadyPosted) return null;
    throw error;
  }
}

/** Runs `work` in a transaction, answering null when a posting in it found its reference posted. */
export async function inLedgerTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T | null> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (error instanceof AlreadyPosted) return null;
    throw error;
  }
}

/** `GET /api/users/balance`: the balance, the tariff and how long the balance lasts. */
export async function readBalance(
  db: Kysely<Database>,
  organisationId: number,
  settings: { dailyRateKopecks: number; vatPercent: number; topUp: Balance['top_up'] },
): Promise<Balance> {
  const [account, smartDevices, lastCharge] = await Promise.all([
    findAccount(db, organisationId),
    countSmartDevices(db, organisationId),
    lastChargeDate(db, organisationId),
  ]);
  const balance = Number(account?.balance ?? 0);
  const dailyRate = account?.daily_rate ?? settings.dailyRateKopecks;
  const dailyCharge = dailyRate * smartDevices;
  return {
    balance,
    currency: 'RUB',
    daily_rate: dailyRate,
    smart_devices: smartDevices,
    daily_charge: dailyCharge,
    days_left: dailyCharge > 0 ? Math.max(0, Math.floor(balance / dailyCharge)) : null,
    last_charge_date: lastCharge,
    vat_percent: settings.vatPercent,
    top_up: settings.topUp,
  };
}

/**
 * The daily job (docs/billing.md "Tariff"): for every organisation, each billing day that has ended
 * since the last one handled (at most {@link CHARGE_CATCH_UP_DAYS} back) is charged
 * `rate × smart devices registered before the day ended`. The reference `charge:<day>` makes it
 * idempotent: run twice, after a restart or on several instances at once, a day is charged once.
 * Answers how many charges it posted.
 */
export async function postDailyCharges(
  db: Kysely<Database>,
  settings: { dailyRateKopecks: number },
  now = Date.now(),
): Promise<number> {
  const today = billingDay(now);
  const yesterday = addDays(today, -1);
  const earliest = addDays(today, -CHARGE_CATCH_UP_DAYS);
  let posted = 0;
  for (const organisation of await organisationsWithAccounts(db)) {
    if (organisation.charged_through !== null && organisation.charged_through >= yesterday) continue;
    const chargesFrom = organisation.charges_from ?? billingDay(Date.parse(organisation.created_at));
    if (organisation.charges_from === null) {
      await ensureAccount(db, organisation.id, chargesFrom, new Date(now).toISOString());
    }
    const after =
      organisation.charged_through === null ? chargesFrom : addDays(organisation.charged_through, 1);
    const first = [chargesFrom, after, earliest].reduce((a, b) => (a > b ? a : b));
    if (first > yesterday) continue;
    const rate = organisation.daily_rate ?? settings.dailyRateKopecks;
    for (const day of datesBetween(first, yesterday)) {
      const dayEnd = new Date(zonedDayStart(addDays(day, 1), BILLING_TIME_ZONE)).toISOString();
      const devices = await countSmartDevices(db, organisation.id, dayEnd);
      if (devices > 0 && rate > 0) {
        const result = await post(
          db,
          {
            organisationId: organisation.id,
            kind: 'charge',
            amount: -devices * rate,
            description: `Абонентская плата за ${dottedDate(day)}: ${devices} устр. × ${formatKopecksRu(rate)} ₽`,
            reference: `charge:${day}`,
            quantity: devices,
            unitPrice: rate,
          },
          now,
        );
        if (result) posted += 1;
      }
      await setChargedThrough(db, organisation.id, day);
    }
  }
  return posted;
}
