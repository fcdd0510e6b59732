import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { nowIso } from '../../lib/time.js';
import { accountsOverview, ensureAccount, setDailyRate } from './billing.repository.js';
import { billingDay } from './ledger.service.js';

/** What the operator tool reads and sets of billing (`billing:tariff`, `billing:accounts`). */

/** An organisation's own tariff (kopecks per smart device per day), or null for the default. */
export async function setTariff(db: Kysely<Database>, organisationId: number, dailyRate: number | null) {
  await ensureAccount(db, organisationId, billingDay(Date.now()), nowIso());
  await setDailyRate(db, organisationId, dailyRate, nowIso());
}

/** Every organisation's balance, tariff and smart devices, the lowest balance first. */
export async function billingAccounts(db: Kysely<Database>, defaultRate: number) {
  const rows = await accountsOverview(db);
  return rows
    .map((row) => ({
      id: row.id,
      name: row.name,
      balance: Number(row.balance ?? 0),
      dailyRate: row.daily_rate ?? defaultRate,
      smartDevices: Number(row.smart_devices ?? 0),
    }))
    .sort((a, b) => a.balance - b.balance || a.id - b.id);
}
