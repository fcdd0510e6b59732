import type { Balance, BillingDocument, LedgerEntry, Payment } from '@kontrol/contracts';
import { migrateTo, migrateToLatest } from '@kontrol/db';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildAllInOneApp } from '../../all-in-one/app.js';
import { ConfigError, loadConfig } from '@kontrol/server-kit';
import { buildOrganisation, VALID_ORGANISATION_DETAILS } from '../../test/builders.js';
import { nextTestIp, TestClient } from '../../test/http-client.js';
import { useTestApp, type TestContext } from '../../test/test-app.js';
import { createTestDatabase } from '@kontrol/db/testing';
import { markInvoicePaidAndCredit } from './documents.service.js';

/**
 * Money only for payment (docs/security.md "Payments"): without a payment provider — the default
 * — nobody can credit a balance online, the sandbox's pages do not exist, and top-up is by
 * invoice; with the sandbox on, every credit it makes is marked test money for good; top-up
 * amounts stay within the deployment's limits. Each through HTTP, as the attacker would.
 */

type Errors = { message: string; errors: Record<string, string[]> };

let registered = 0;

/** A new organisation's admin, registered a moment ago through `POST /api/register`. */
async function registerAdmin(ctx: TestContext): Promise<TestClient> {
  const client = await TestClient.visitor(ctx.app, { ip: nextTestIp() });
  registered += 1;
  const res = await client.post('/api/register', {
    name: 'Мошенник',
    email: `top-up-${Date.now()}-${registered}@example.test`,
    password: 'a-good-password',
    password_confirmation: 'a-good-password',
    organisation_name: `Top-up ${registered}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  return client;
}

async function balanceOf(client: TestClient): Promise<Balance> {
  const res = await client.get('/api/users/balance');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Balance }>().data;
}

async function ledgerOf(client: TestClient): Promise<LedgerEntry[]> {
  const res = await client.post('/api/users/balance_log', { page: 1 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: LedgerEntry[] }>().data;
}

/** The sandbox's page and its form's "pay" answer, as a browser sends them. */
function sandboxPage(client: TestClient, path: string) {
  return client.get(path);
}
function sandboxPay(client: TestClient, path: string) {
  return client.request({
    method: 'POST',
    url: path,
    payload: 'outcome=succeeded',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

describe('without a payment provider (the default)', () => {
  const t = useTestApp();

  it('a freshly registered admin cannot credit a single kopeck: online payment is refused, the sandbox is 404', async () => {
    const attacker = await registerAdmin(t);
    expect((await balanceOf(attacker)).top_up).toEqual({
      provider: null,
      test_money: false,
      min_amount: 100_00,
      max_amount: 1_000_000_00,
    });

    // The attack: create a payment, then "pay" it on the sandbox's public page.
    for (const [locale, message] of [
      ['ru', /^Онлайн-оплата не подключена\. Пополните баланс по счёту/],
      ['en', /^Online payment is not available\. Top up by invoice/],
    ] as const) {
      const created = await attacker.post(
        '/api/payment/create',
        { amount: 1_000_000_00 },
        { 'accept-language': locale },
      );
      expect(created.statusCode, created.body).toBe(409);
      expect(created.json<{ message: string }>().message).toMatch(message);
    }
    const payments = await attacker.get('/api/payment/payments?page=1');
    expect(payments.json<{ data: Payment[] }>().data).toEqual([]);

    // A sandbox payment left from a time the sandbox was on cannot be settled either.
    const { organisationId } = await buildOrganisation(t.db);
    const externalId = 'left-over-sandbox-payment-0001';
    await t.db
      .insertInto('payments')
      .values({
        organisation_id: organisationId,
        provider: 'sandbox',
        external_id: externalId,
        amount: 1_000_000_00,
        status: 'pending',
        confirmation_url: `http://kontrol.test/api/payment/sandbox/${externalId}`,
        created_by: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    const path = `/api/payment/sandbox/${externalId}`;
    const page = await sandboxPage(attacker, path);
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('application/json');
    expect((await sandboxPay(attacker, path)).statusCode).toBe(404);
    const callback = await t.app.inject({
      method: 'POST',
      url: '/api/payment/callback/sandbox',
      payload: { payment_id: externalId, status: 'succeeded', amount: 1_000_000_00 },
      headers: { 'x-sandbox-signature': 'ab'.repeat(32) },
    });
    expect(callback.statusCode).toBe(404);

    expect((await balanceOf(attacker)).balance).toBe(0);
    expect(await ledgerOf(attacker)).toEqual([]);
    const credited = await t.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('organisation_id', '=', organisationId)
      .execute();
    expect(credited).toEqual([]);
  });

  it('top-up is by invoice: the invoice is issued, and only its bank transfer, marked by the operator, credits real money', async () => {
    const admin = await registerAdmin(t);
    expect((await admin.post('/api/users/update_organization', VALID_ORGANISATION_DETAILS)).statusCode).toBe(
      200,
    );
    const made = await admin.post('/api/payment/invoice/create', { amount: 150_000 });
    expect(made.statusCode, made.body).toBe(201);
    const invoice = made.json<{ data: BillingDocument }>().data;
    expect((await balanceOf(admin)).balance).toBe(0);

    await markInvoicePaidAndCredit(t.db, invoice.number);
    expect((await balanceOf(admin)).balance).toBe(150_000);
    expect(await ledgerOf(admin)).toMatchObject([
      { kind: 'payment', amount: 150_000, reference: `invoice:${invoice.number}`, test_money: false },
    ]);
  });

  it('refuses a top-up over the default maximum of 1 000 000 ₽ (10 000 000 ₽ too)', async () => {
    const admin = await registerAdmin(t);
    await admin.post('/api/users/update_organization', VALID_ORGANISATION_DETAILS);
    for (const amount of [1_000_000_01, 10_000_000_00]) {
      const res = await admin.post('/api/payment/invoice/create', { amount }, { 'accept-language': 'ru' });
      expect(res.statusCode).toBe(422);
      expect(res.json<Errors>().errors).toEqual({ amount: ['Сумма — от 100 до 1\u00a0000\u00a0000 ₽.'] });
    }
    // Validation comes first: an amount out of range is a 422 on `amount` even without a provider.
    const online = await admin.post('/api/payment/create', { amount: 99_99 });
    expect(online.statusCode).toBe(422);
    expect(online.json<Errors>().errors).toEqual({ amount: ['The amount must be from 100 to 1,000,000 ₽.'] });
  });
});

describe('with PAYMENT_PROVIDER=sandbox', () => {
  const t = useTestApp({ env: { PAYMENT_PROVIDER: 'sandbox' } });

  it('a sandbox credit is marked test money in the ledger, its CSV and the balance answer, for good', async () => {
    const admin = await registerAdmin(t);
    expect((await balanceOf(admin)).top_up).toEqual({
      provider: 'sandbox',
      test_money: true,
      min_amount: 100_00,
      max_amount: 1_000_000_00,
    });
    const created = await admin.post('/api/payment/create', { amount: 250_000 });
    expect(created.statusCode, created.body).toBe(201);
    const payment = created.json<{ data: Payment }>().data;
    const path = new URL(payment.confirmation_url ?? '').pathname;
    expect((await sandboxPage(admin, path)).statusCode).toBe(200);
    expect((await sandboxPay(admin, path)).statusCode).toBe(303);

    expect((await balanceOf(admin)).balance).toBe(250_000);
    expect(await ledgerOf(admin)).toMatchObject([
      { kind: 'payment', amount: 250_000, reference: `payment:${payment.id}`, test_money: true },
    ]);
    const stored = await t.db
      .selectFrom('ledger_entries')
      .select('test_money')
      .where('reference', '=', `payment:${payment.id}`)
      .executeTakeFirstOrThrow();
    expect(stored.test_money).toBe(1);

    // Russian files are separated by semicolons, English ones by commas (docs/billing.md).
    for (const [locale, delimiter, header, yes] of [
      ['ru', ';', 'Тестовые деньги', 'да'],
      ['en', ',', 'Test money', 'yes'],
    ] as const) {
      const csv = await admin.get('/api/users/balance_log/csv', { 'accept-language': locale });
      expect(csv.statusCode).toBe(200);
      const rows: string[][] = parse(csv.body, { bom: true, delimiter });
      expect(rows[0]?.at(-1)).toBe(header);
      expect(rows[1]?.at(-1)).toBe(yes);
    }

    // An invoice paid by bank transfer is real money, beside it.
    await admin.post('/api/users/update_organization', VALID_ORGANISATION_DETAILS);
    const invoice = (await admin.post('/api/payment/invoice/create', { amount: 100_000 })).json<{
      data: BillingDocument;
    }>().data;
    await markInvoicePaidAndCredit(t.db, invoice.number);
    const ledger = await ledgerOf(admin);
    expect(ledger.map((entry) => [entry.reference, entry.test_money])).toEqual([
      [`invoice:${invoice.number}`, false],
      [`payment:${payment.id}`, true],
    ]);
  });
});

describe('top-up limits set by BILLING_TOP_UP_MIN_KOPECKS and BILLING_TOP_UP_MAX_KOPECKS', () => {
  const t = useTestApp({
    env: {
      PAYMENT_PROVIDER: 'sandbox',
      BILLING_TOP_UP_MIN_KOPECKS: '50000',
      BILLING_TOP_UP_MAX_KOPECKS: '2000000',
    },
  });

  it('refuses amounts outside them with 422 on amount, naming them, online and by invoice; the balance tells them', async () => {
    const admin = await registerAdmin(t);
    await admin.post('/api/users/update_organization', VALID_ORGANISATION_DETAILS);
    expect((await balanceOf(admin)).top_up).toMatchObject({ min_amount: 50_000, max_amount: 2_000_000 });
    for (const url of ['/api/payment/create', '/api/payment/invoice/create']) {
      for (const amount of [49_999, 2_000_001]) {
        const ru = await admin.post(url, { amount }, { 'accept-language': 'ru' });
        expect(ru.statusCode, `${url} ${amount}`).toBe(422);
        expect(ru.json<Errors>().errors).toEqual({ amount: ['Сумма — от 500 до 20\u00a0000 ₽.'] });
        const en = await admin.post(url, { amount }, { 'accept-language': 'en' });
        expect(en.json<Errors>().errors).toEqual({ amount: ['The amount must be from 500 to 20,000 ₽.'] });
      }
      for (const amount of [50_000, 2_000_000]) {
        expect((await admin.post(url, { amount })).statusCode, `${url} ${amount}`).toBe(201);
      }
    }
    expect((await balanceOf(admin)).balance).toBe(0);
  });
});

describe('the payment settings', () => {
  it('refuse the sandbox in production, limits the wrong way round and unknown providers, saying why', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' })).toThrow(
      /PAYMENT_PROVIDER: the sandbox credits money nobody paid; it is refused when NODE_ENV=production/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ BILLING_TOP_UP_MIN_KOPECKS: '500000', BILLING_TOP_UP_MAX_KOPECKS: '100000' }),
    ).toThrow(/BILLING_TOP_UP_MIN_KOPECKS: must not be greater than BILLING_TOP_UP_MAX_KOPECKS/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ BILLING_TOP_UP_MAX_KOPECKS: '10000000001' })).toThrow(
      /BILLING_TOP_UP_MAX_KOPECKS/,
    );
    expect(() => loadConfig({ BILLING_TOP_UP_MIN_KOPECKS: '0' })).toThrow(/BILLING_TOP_UP_MIN_KOPECKS/);

    expect(loadConfig({}).billing).toMatchObject({
      paymentProvider: null,
      topUpMinKopecks: 100_00,
      topUpMaxKopecks: 1_000_000_00,
    });
    expect(loadConfig({ NODE_ENV: 'production' }).billing.paymentProvider).toBeNull();
    expect(loadConfig({ PAYMENT_PROVIDER: 'sandbox' }).billing.paymentProvider).toBe('sandbox');
  });

  it('the sandbox says at start, at warn level, that its money is test money', async () => {
    const database = await createTestDatabase();
    try {
      for (const provider of ['sandbox', 'none']) {
        const lines: { level: number; msg: string }[] = [];
        const config = loadConfig({
          NODE_ENV: 'test',
          DEMO: '0',
          CONSOLE_DIST: '/nonexistent',
          DATABASE_URL: database.url,
          MQTT_PORT: 'off',
          RULES_NO_DATA_CHECK_SECONDS: '0',
          PAYMENT_PROVIDER: provider,
        });
        const { app } = await buildAllInOneApp({
          config,
          database: database.handle,
          logger: {
            level: 'info',
            stream: {
              write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }),
            },
          },
        });
        await app.ready();
        await app.close();
        const warnings = lines.filter((line) => line.level === 40 && /TEST MONEY/.test(line.msg));
        expect(warnings, provider).toHaveLength(provider === 'sandbox' ? 1 : 0);
      }
    } finally {
      await database.drop();
    }
  });
});

describe('migration 0012-test-money', () => {
  it('marks the credits of sandbox payments and the demo top-up written before it, nothing else', async () => {
    const database = await createTestDatabase();
    const { db } = database.handle;
    try {
      await migrateTo(db, '0011-billing');

      const { organisationId } = await buildOrganisation(db);
      const now = new Date().toISOString();
      const payment = async (provider: string) =>
        (
          await db
            .insertInto('payments')
            .values({
              organisation_id: organisationId,
              provider,
              external_id: `${provider}-${Math.random()}`,
              amount: 100_000,
              status: 'succeeded',
              confirmation_url: null,
              created_by: null,
              created_at: now,
              completed_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const sandboxPayment = await payment('sandbox');
      const realPayment = await payment('yookassa');
      let balance = 0;
      for (const [kind, reference] of [
        ['payment', `payment:${sandboxPayment}`],
        ['payment', `payment:${realPayment}`],
        ['payment', 'invoice:2026-1'],
        ['payment', 'demo:top-up'],
        ['charge', 'charge:2026-01-01'],
        ['correction', null],
      ] as const) {
        const amount = kind === 'charge' ? -1_000 : 100_000;
        balance += amount;
        // Written as the code before the migration wrote entries: without the column.
        await db
          .insertInto('ledger_entries')
          .values({
            organisation_id: organisationId,
            kind,
            amount,
            balance_after: balance,
            description: 'before',
            reference,
            quantity: null,
            unit_price: null,
            created_by: null,
            created_at: now,
          })
          .execute();
      }

      await migrateToLatest(db);
      const marked = await db
        .selectFrom('ledger_entries')
        .select(['reference', 'test_money'])
        .where('organisation_id', '=', organisationId)
        .orderBy('id')
        .execute();
      expect(marked.map((row) => [row.reference, Number(row.test_money)])).toEqual([
        [`payment:${sandboxPayment}`, 1],
        [`payment:${realPayment}`, 0],
        ['invoice:2026-1', 0],
        ['demo:top-up', 1],
        ['charge:2026-01-01', 0],
        [null, 0],
      ]);
    } finally {
      await database.drop();
    }
  });
});
