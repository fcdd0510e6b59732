import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation } from '../../test/builders.js';
import { createTestDatabase, type TestDatabase } from '@kontrol/db/testing';
import { ledgerSum } from '../billing/billing.repository.js';
import { postDailyCharges } from '../billing/ledger.service.js';
import { DEMO_BILLING_DAYS, DEMO_TOP_UP_KOPECKS } from './demo.billing.js';
import { DEMO_FLEET, DEMO_LOGIN, seedDemoIfEmpty } from './demo.seed.js';

let empty: TestDatabase;
let used: TestDatabase;
beforeAll(async () => {
  [empty, used] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([empty.drop(), used.drop()]);
});

describe('the demo organisation', () => {
  it('is created on an empty database, once', async () => {
    expect(await seedDemoIfEmpty(empty.handle.db)).toBe(true);
    expect(await seedDemoIfEmpty(empty.handle.db)).toBe(false);
    const users = await empty.handle.db
      .selectFrom('users')
      .select(['email', 'role', 'email_verified_at'])
      .execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: DEMO_LOGIN.email, role: 'admin' });
    expect(users[0]?.email_verified_at).not.toBeNull();
    const devices = await empty.handle.db.selectFrom('devices').select('id').execute();
    const addresses = await empty.handle.db.selectFrom('addresses').select('id').execute();
    expect(devices).toHaveLength(DEMO_FLEET.devices);
    expect(addresses).toHaveLength(DEMO_FLEET.addresses);
    const recipes = await empty.handle.db
      .selectFrom('recipes')
      .select(['name', 'crc'])
      .orderBy('id')
      .execute();
    expect(recipes.map((r) => r.name)).toEqual(['Курица гриль', 'Овощи на пару', 'Круассаны', 'Лосось']);
    expect(recipes.every((r) => /^[0-9a-f]{8}$/.test(r.crc))).toBe(true);
    const sets = await empty.handle.db.selectFrom('recipe_set_recipes').select('recipe_id').execute();
    expect(sets).toHaveLength(4);
    const complaints = await empty.handle.db
      .selectFrom('complaints')
      .select(['status', 'device_id'])
      .execute();
    expect(complaints).toEqual([{ status: 'in_progress', device_id: expect.any(Number) as number }]);
    const chat = await empty.handle.db
      .selectFrom('support_messages')
      .select('from_support')
      .orderBy('id')
      .execute();
    expect(chat.map((m) => m.from_support)).toEqual([0, 1]);

    // Billing: the requisites, the top-up two weeks ago, then a charge per day once the job runs.
    const db = empty.handle.db;
    const { id: organisationId } = await db
      .selectFrom('organisations')
      .select('id')
      .executeTakeFirstOrThrow();
    expect(await db.selectFrom('organisation_details').select('inn').execute()).toEqual([
      { inn: '7812345675' },
    ]);
    await postDailyCharges(db, { dailyRateKopecks: 1_000 });
    const ledger = await db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount', 'test_money'])
      .orderBy('id')
      .execute();
    // Nobody paid the demo's top-up: it is test money.
    expect(ledger[0]).toEqual({ kind: 'payment', amount: DEMO_TOP_UP_KOPECKS, test_money: 1 });
    expect(ledger.slice(1).map((e) => e.kind)).toEqual(Array(DEMO_BILLING_DAYS).fill('charge'));
    const smart = (await db.selectFrom('devices').select('controller_id').execute()).filter(
      (d) => d.controller_id,
    );
    expect(ledger[1]?.amount).toBe(-smart.length * 1_000);
    expect(await ledgerSum(db, organisationId)).toBe(
      DEMO_TOP_UP_KOPECKS - DEMO_BILLING_DAYS * smart.length * 1_000,
    );
  });

  it('never touches a database that already holds an organisation', async () => {
    await buildOrganisation(used.handle.db);
    expect(await seedDemoIfEmpty(used.handle.db)).toBe(false);
    const demo = await used.handle.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO_LOGIN.email)
      .execute();
    expect(demo).toHaveLength(0);
  });
});
