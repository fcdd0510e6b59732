import { organisationDetailsSchema } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { ensureAccount } from '../billing/billing.repository.js';
import { updateDetails } from '../billing/documents.service.js';
import { addDays, billingDay, post } from '../billing/ledger.service.js';

/** Days of billing history the demo starts with. */
export const DEMO_BILLING_DAYS = 14;
/** The demo's top-up at the start of that history: 15 000 ₽ of test money. */
export const DEMO_TOP_UP_KOPECKS = 15_000_00;

/**
 * The demo's billing: its requisites, devices registered two weeks ago, a top-up of test money on
 * that day, and charges from then on — posted by the daily job when the server starts — so the balance,
 * its forecast, the history and an invoice work on a first visit.
 */
export async function seedDemoBilling(db: Kysely<Database>, organisationId: number, now = Date.now()) {
  const start = addDays(billingDay(now), -DEMO_BILLING_DAYS);
  const startIso = `${start}T06:00:00.000Z`;
  await updateDetails(
    db,
    organisationId,
    organisationDetailsSchema.parse({
      legal_name: 'ООО «Демо-ресторан»',
      inn: '7812345675',
      kpp: '781201001',
      ogrn: '1177847123453',
      legal_address: '191186, г. Санкт-Петербург, Невский пр., д. 10, пом. 2-Н',
      postal_address: '',
      bank_name: 'ПАО Сбербанк',
      bik: '044525225',
      correspondent_account: '30101810400000000225',
      settlement_account: '40702810638000000000',
      director: 'Демо Администратор',
      accountant: '',
      documents_email: 'buh@example.com',
    }),
  );
  await db
    .updateTable('devices')
    .set({ created_at: startIso })
    .where('organisation_id', '=', organisationId)
    .execute();
  await ensureAccount(db, organisationId, start, new Date(now).toISOString());
  await post(
    db,
    {
      organisationId,
      kind: 'payment',
      amount: DEMO_TOP_UP_KOPECKS,
      description: 'Оплата онлайн (демо)',
      reference: 'demo:top-up',
      // Nobody paid it: the history says so.
      testMoney: true,
    },
    Date.parse(startIso),
  );
}
