import type { Balance, BillingDocument, LedgerEntry, Payment } from '@kontrol/contracts';
import { createDb } from '@kontrol/db';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  buildDevice,
  buildOrganisation,
  buildUser,
  VALID_ORGANISATION_DETAILS,
} from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { pdfText } from '../../test/pdf-text.js';
import { testDialect } from '@kontrol/db/testing';
import { useTestApp, type TestContext } from '../../test/test-app.js';
import { ledgerSum } from './billing.repository.js';
import { billingDayStart, markInvoicePaidAndCredit } from './documents.service.js';
import { addDays, billingDay, post, postDailyCharges } from './ledger.service.js';

const t = useTestApp();

type Errors = { message: string; errors: Record<string, string[]> };

async function setup(ctx: TestContext = t) {
  const org = await buildOrganisation(ctx.db);
  const admin = new TestClient(ctx.app);
  await admin.login(org.admin.email, org.admin.password);
  return { ...org, admin };
}

async function balanceOf(client: TestClient): Promise<Balance> {
  const res = await client.get('/api/users/balance');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Balance }>().data;
}

async function withDetails(client: TestClient) {
  const res = await client.post('/api/users/update_organization', VALID_ORGANISATION_DETAILS);
  expect(res.statusCode, res.body).toBe(200);
}

/** Pays through the sandbox: the payment page, then its form's answer, as a browser would. */
async function payInSandbox(client: TestClient, amount: number, outcome: 'succeeded' | 'failed') {
  const created = await client.post('/api/payment/create', { amount });
  expect(created.statusCode, created.body).toBe(201);
  const payment = created.json<{ data: Payment }>().data;
  const path = new URL(payment.confirmation_url ?? '').pathname;
  const page = await client.get(path);
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toContain('text/html');
  const answer = await client.request({
    method: 'POST',
    url: path,
    payload: `outcome=${outcome}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(answer.statusCode, answer.body).toBe(303);
  expect(answer.headers.location).toBe(`/account/billing?payment=${payment.id}`);
  return payment;
}

describe('the balance', () => {
  it('starts at zero with the default tariff and counts smart devices only', async () => {
    const { admin, organisationId } = await setup();
    await buildDevice(t.db, organisationId, { controller_id: 'ctl-balance-1' });
    await buildDevice(t.db, organisationId, { controller_id: 'ctl-balance-2' });
    await buildDevice(t.db, organisationId); // not smart: neither a controller nor a template
    expect(await balanceOf(admin)).toEqual({
      balance: 0,
      currency: 'RUB',
      daily_rate: 1_000,
      smart_devices: 2,
      daily_charge: 2_000,
      days_left: 0,
      last_charge_date: null,
      vat_percent: 22,
      top_up: { provider: null, test_money: false, min_amount: 100_00, max_amount: 1_000_000_00 },
    });
    await post(t.db, {
      organisationId,
      kind: 'correction',
      amount: 10_500,
      description: 'test',
      reference: null,
    });
    expect(await balanceOf(admin)).toMatchObject({ balance: 10_500, days_left: 5 });
  });

  it('is for holders of billing; changes are for admins only', async () => {
    const { organisationId } = await setup();
    const reader = await buildUser(t.db, organisationId, { modules: ['billing'] });
    const readerClient = new TestClient(t.app);
    await readerClient.login(reader.email, reader.password);
    const outsider = await buildUser(t.db, organisationId, { modules: ['dashboard'] });
    const outsiderClient = new TestClient(t.app);
    await outsiderClient.login(outsider.email, outsider.password);

    expect((await readerClient.get('/api/users/balance')).statusCode).toBe(200);
    expect((await readerClient.post('/api/users/balance_log', { page: 1 })).statusCode).toBe(200);
    expect((await readerClient.get('/api/payment/documents')).statusCode).toBe(200);
    for (const [url, body] of [
      ['/api/users/update_organization', VALID_ORGANISATION_DETAILS],
      ['/api/payment/create', { amount: 100_000 }],
      ['/api/payment/invoice/create', { amount: 100_000 }],
      ['/api/payment/act/create', { period: '2020-01' }],
    ] as const) {
      expect((await readerClient.post(url, body)).statusCode, url).toBe(403);
    }
    expect((await readerClient.get('/api/payment/act/periods')).statusCode).toBe(403);
    expect((await outsiderClient.get('/api/users/balance')).statusCode).toBe(403);
    expect((await outsiderClient.post('/api/users/balance_log', { page: 1 })).statusCode).toBe(403);
    const anonymous = await TestClient.visitor(t.app);
    expect((await anonymous.get('/api/users/balance')).statusCode).toBe(401);
  });
});

describe('the ledger', () => {
  it('ends at the exact sum after 50 concurrent credits and debits, each balance_after exact', async () => {
    const { admin, organisationId } = await setup();
    const amounts = Array.from({ length: 50 }, (_, i) => (i % 3 === 0 ? -(i + 1) * 137 : (i + 1) * 1_009));
    await Promise.all(
      amounts.map((amount, i) =>
        post(t.db, {
          organisationId,
          kind: amount > 0 ? 'payment' : 'charge',
          amount,
          description: `op ${i}`,
          reference: `test:${i}`,
        }),
      ),
    );
    const expected = amounts.reduce((a, b) => a + b, 0);
    expect(await ledgerSum(t.db, organisationId)).toBe(expected);
    expect((await balanceOf(admin)).balance).toBe(expected);
    // Oldest first, every entry's balance_after is the previous one plus its amount.
    const entries = await t.db
      .selectFrom('ledger_entries')
      .select(['amount', 'balance_after'])
      .where('organisation_id', '=', organisationId)
      .orderBy('id')
      .execute();
    expect(entries).toHaveLength(50);
    let running = 0;
    for (const entry of entries) {
      running += Number(entry.amount);
      expect(Number(entry.balance_after)).toBe(running);
    }
  });

  it('writes a reference once, however often it is posted at the same time', async () => {
    const { organisationId } = await setup();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(t.db, {
          organisationId,
          kind: 'payment',
          amount: 500,
          description: 'x',
          reference: 'payment:dup',
        }),
      ),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await ledgerSum(t.db, organisationId)).toBe(500);
  });

  it('pages newest first with filters on kind, time and amount, scoped to the organisation', async () => {
    const { admin, organisationId } = await setup();
    const other = await buildOrganisation(t.db);
    await post(t.db, {
      organisationId: other.organisationId,
      kind: 'payment',
      amount: 999,
      description: 'theirs',
      reference: null,
    });
    for (let i = 1; i <= 30; i += 1) {
      await post(t.db, {
        organisationId,
        kind: i % 2 ? 'payment' : 'charge',
        amount: i % 2 ? i * 100 : -i * 10,
        description: `entry ${i}`,
        reference: null,
      });
    }
    const first = await admin.post('/api/users/balance_log', { page: 1 });
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json<{ data: LedgerEntry[]; meta: { total: number; last_page: number } }>();
    expect(page.meta).toMatchObject({ total: 30, last_page: 2 });
    expect(page.data[0]?.description).toBe('entry 30');
    expect(page.data.map((e) => e.description)).not.toContain('theirs');

    const charges = await admin.post('/api/users/balance_log', {
      page: 1,
      filters: { kind: { operator: 'in', value: ['charge'] }, amount: { operator: '<', value: -100 } },
    });
    expect(charges.statusCode, charges.body).toBe(200);
    const found = charges.json<{ data: LedgerEntry[] }>().data;
    expect(found.map((e) => e.amount)).toEqual([-300, -280, -260, -240, -220, -200, -180, -160, -140, -120]);

    const future = await admin.post('/api/users/balance_log', {
      page: 1,
      filters: { created_at: { operator: '>=', value: '2999-01-01' } },
    });
    expect(future.json<{ data: LedgerEntry[] }>().data).toEqual([]);

    const bad = await admin.post('/api/users/balance_log', {
      page: 1,
      filters: { description: { operator: '=', value: 'x' } },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json<Errors>().errors)).toEqual(['filters.description']);
  });

  it('exports the filtered history as CSV', async () => {
    const { admin, organisationId } = await setup();
    await post(t.db, {
      organisationId,
      kind: 'payment',
      amount: 150_050,
      description: '=cmd|evil',
      reference: null,
    });
    await post(t.db, { organisationId, kind: 'charge', amount: -2_000, description: 'day', reference: null });
    const filters = encodeURIComponent(JSON.stringify({ kind: { operator: '=', value: 'payment' } }));
    const res = await admin.get(`/api/users/balance_log/csv?filters=${filters}`, { 'accept-language': 'ru' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    // A Russian Excel's dialect: `;` between cells, decimal commas.
    const rows: string[][] = parse(res.body, { bom: true, delimiter: ';' });
    expect(rows[0]).toEqual([
      'Дата',
      'Операция',
      'Описание',
      'Сумма, ₽',
      'Баланс после, ₽',
      'Тестовые деньги',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(1)).toEqual(['Платёж', "'=cmd|evil", '1500,5', '1500,5', '']);
  });
});

describe('the daily charge', () => {
  it('charges each ended billing day once per organisation, run twice or on two instances at once', async () => {
    const { admin, organisationId } = await setup();
    const long = '2020-01-01T00:00:00.000Z';
    await buildDevice(t.db, organisationId, {
      controller_id: `ctl-daily-${organisationId}-1`,
      created_at: long,
    });
    await buildDevice(t.db, organisationId, {
      controller_id: `ctl-daily-${organisationId}-2`,
      created_at: long,
    });
    // A device registered today is charged from tomorrow's run on.
    await buildDevice(t.db, organisationId, { controller_id: `ctl-daily-${organisationId}-3` });
    const chargesFrom = addDays(billingDay(Date.now()), -3);
    await t.db
      .insertInto('billing_accounts')
      .values({
        organisation_id: organisationId,
        balance: 0,
        daily_rate: null,
        charges_from: chargesFrom,
        charged_through: null,
        updated_at: long,
      })
      .execute();
    // Another instance has its own connection. Two SQLite connections in one process would block
    // each other's thread (instances are processes there), so on SQLite both runs share one.
    const second = testDialect() === 'postgres' ? createDb(t.database.url) : undefined;
    try {
      const rate = { dailyRateKopecks: 1_000 };
      await Promise.all([postDailyCharges(t.db, rate), postDailyCharges(second?.db ?? t.db, rate)]);
      await postDailyCharges(t.db, rate);
    } finally {
      await second?.close();
    }
    const charges = await t.db
      .selectFrom('ledger_entries')
      .select(['reference', 'amount', 'quantity', 'unit_price'])
      .where('organisation_id', '=', organisationId)
      .where('kind', '=', 'charge')
      .orderBy('reference')
      .execute();
    const today = billingDay(Date.now());
    expect(charges.map((c) => c.reference)).toEqual([
      `charge:${addDays(today, -3)}`,
      `charge:${addDays(today, -2)}`,
      `charge:${addDays(today, -1)}`,
    ]);
    for (const charge of charges)
      expect(charge).toMatchObject({ amount: -2_000, quantity: 2, unit_price: 1_000 });
    expect((await balanceOf(admin)).balance).toBe(-6_000);
    expect((await balanceOf(admin)).last_charge_date).toBe(addDays(today, -1));
    const [dd, mm] = [addDays(today, -1).slice(8), addDays(today, -1).slice(5, 7)];
    const newest = async (locale: string) =>
      (await admin.post('/api/users/balance_log', { page: 1 }, { 'accept-language': locale })).json<{
        data: LedgerEntry[];
      }>().data[0]?.description;
    expect(await newest('en')).toBe(`Subscription for ${addDays(today, -1)}: 2 devices × 10.00 ₽`);
    expect(await newest('ru')).toBe(
      `Абонентская плата за ${dd}.${mm}.${addDays(today, -1).slice(0, 4)}: 2 устр. × 10,00 ₽`,
    );
  });

  it("uses the organisation's own tariff and charges nothing for a fleet without smart devices", async () => {
    const { organisationId } = await setup();
    const empty = await buildOrganisation(t.db);
    await buildDevice(t.db, organisationId, {
      controller_id: `ctl-rate-${organisationId}`,
      created_at: '2020-01-01T00:00:00.000Z',
    });
    const yesterday = addDays(billingDay(Date.now()), -1);
    for (const id of [organisationId, empty.organisationId]) {
      await post(t.db, {
        organisationId: id,
        kind: 'correction',
        amount: 0,
        description: 'open',
        reference: null,
      });
      await t.db
        .updateTable('billing_accounts')
        .set({ charges_from: yesterday })
        .where('organisation_id', '=', id)
        .execute();
    }
    await t.db
      .updateTable('billing_accounts')
      .set({ daily_rate: 2_550 })
      .where('organisation_id', '=', organisationId)
      .execute();
    await postDailyCharges(t.db, { dailyRateKopecks: 1_000 });
    expect(await ledgerSum(t.db, organisationId)).toBe(-2_550);
    expect(await ledgerSum(t.db, empty.organisationId)).toBe(0);
  });
});

describe('organisation details', () => {
  it('are null until saved, then read back; every field is checked with a clear message', async () => {
    const { admin } = await setup();
    expect((await admin.get('/api/users/organization')).json()).toEqual({ data: null });
    await withDetails(admin);
    const saved = (await admin.get('/api/users/organization')).json<{ data: Record<string, unknown> }>().data;
    expect(saved).toMatchObject({ ...VALID_ORGANISATION_DETAILS, postal_address: null });

    const bad = await admin.post(
      '/api/users/update_organization',
      {
        ...VALID_ORGANISATION_DETAILS,
        inn: '7707083894',
        settlement_account: '40702810938000000000',
        bik: '04452522',
      },
      { 'accept-language': 'ru' },
    );
    expect(bad.statusCode).toBe(422);
    const errors = bad.json<Errors>().errors;
    expect(Object.keys(errors).sort()).toEqual(['bik', 'inn']);
    expect(errors.inn?.[0]).toMatch(/ИНН/);
    // Nothing of the refused body was stored.
    expect((await admin.get('/api/users/organization')).json<{ data: { inn: string } }>().data.inn).toBe(
      '7707083893',
    );

    const account = await admin.post('/api/users/update_organization', {
      ...VALID_ORGANISATION_DETAILS,
      settlement_account: '40702810938000000000',
    });
    expect(Object.keys(account.json<Errors>().errors)).toEqual(['settlement_account']);
  });
});

describe('payments through the sandbox', () => {
  // The sandbox is off unless PAYMENT_PROVIDER turns it on (top-up.test.ts proves the default).
  const sandbox = useTestApp({ env: { PAYMENT_PROVIDER: 'sandbox' } });

  it('credits the ledger once when paid, and not at all when declined', async () => {
    const { admin, organisationId } = await setup(sandbox);
    const paid = await payInSandbox(admin, 150_000, 'succeeded');
    const afterPaid = await admin.get(`/api/payment/payments/${paid.id}`);
    expect(afterPaid.json<{ data: Payment }>().data).toMatchObject({
      status: 'succeeded',
      confirmation_url: null,
    });
    expect((await balanceOf(admin)).balance).toBe(150_000);

    const declined = await payInSandbox(admin, 90_000, 'failed');
    expect(
      (await admin.get(`/api/payment/payments/${declined.id}`)).json<{ data: Payment }>().data.status,
    ).toBe('failed');
    expect((await balanceOf(admin)).balance).toBe(150_000);

    // The page of a settled payment says so; answering it again changes nothing.
    const path = `/api/payment/sandbox/${new URL(paid.confirmation_url ?? '').pathname.split('/').pop()}`;
    const again = await admin.request({
      method: 'POST',
      url: path,
      payload: 'outcome=succeeded',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(again.statusCode).toBe(303);
    expect(await ledgerSum(sandbox.db, organisationId)).toBe(150_000);
    const log = (await admin.post('/api/users/balance_log', { page: 1 })).json<{ data: LedgerEntry[] }>()
      .data;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      kind: 'payment',
      amount: 150_000,
      balance_after: 150_000,
      reference: `payment:${paid.id}`,
      test_money: true,
    });
    // Worded in the reader's language (the test client asks for English; the stored text is Russian).
    expect(log[0]?.description).toBe(`Online payment No. ${paid.id}`);
    const ru = await admin.post('/api/users/balance_log', { page: 1 }, { 'accept-language': 'ru' });
    expect(ru.json<{ data: LedgerEntry[] }>().data[0]?.description).toBe(
      `Оплата онлайн, платёж № ${paid.id}`,
    );
  });

  it("shows the provider's page in the console's language", async () => {
    const { admin } = await setup(sandbox);
    const created = await admin.post('/api/payment/create', { amount: 100_000 }, { 'accept-language': 'ru' });
    const url = new URL(created.json<{ data: Payment }>().data.confirmation_url ?? '');
    expect(url.search).toBe('?lang=ru');
    const page = await admin.get(url.pathname + url.search, { 'accept-language': 'en' });
    expect(page.body).toContain('Тестовая оплата');
    expect(page.body).toContain('1\u00a0000,00 ₽');
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
  });

  it('refuses a callback without a valid signature, and an amount out of range', async () => {
    const { admin } = await setup(sandbox);
    const created = (await admin.post('/api/payment/create', { amount: 100_000 })).json<{ data: Payment }>()
      .data;
    const externalId = new URL(created.confirmation_url ?? '').pathname.split('/').pop() ?? '';
    const forged = await sandbox.app.inject({
      method: 'POST',
      url: '/api/payment/callback/sandbox',
      payload: { payment_id: externalId, status: 'succeeded', amount: 100_000 },
      headers: { 'x-sandbox-signature': 'ab'.repeat(32) },
    });
    expect(forged.statusCode).toBe(400);
    expect((await balanceOf(admin)).balance).toBe(0);
    const unknown = await sandbox.app.inject({
      method: 'POST',
      url: '/api/payment/callback/nope',
      payload: {},
    });
    expect(unknown.statusCode).toBe(404);

    const small = await admin.post('/api/payment/create', { amount: 9_999 }, { 'accept-language': 'ru' });
    expect(small.statusCode).toBe(422);
    expect(small.json<Errors>().errors.amount?.[0]).toBe('Сумма — от 100 до 1\u00a0000\u00a0000 ₽.');
  });

  it("never shows or settles another organisation's payment", async () => {
    const { admin } = await setup(sandbox);
    const other = await setup(sandbox);
    const theirs = (await other.admin.post('/api/payment/create', { amount: 100_000 })).json<{
      data: Payment;
    }>().data;
    expect((await admin.get(`/api/payment/payments/${theirs.id}`)).statusCode).toBe(404);
    const list = (await admin.get('/api/payment/payments?page=1')).json<{ data: Payment[] }>().data;
    expect(list.map((p) => p.id)).not.toContain(theirs.id);
  });
});

describe('invoices', () => {
  it('need the organisation details first', async () => {
    const { admin } = await setup();
    const res = await admin.post(
      '/api/payment/invoice/create',
      { amount: 120_000 },
      { 'accept-language': 'ru' },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors.organization?.[0]).toMatch(/реквизиты/);
  });

  it('are numbered without gaps or duplicates, carry both parties and the amount in words, and pay in', async () => {
    const { admin, organisationId } = await setup();
    await withDetails(admin);
    const made = await Promise.all(
      Array.from({ length: 8 }, () => admin.post('/api/payment/invoice/create', { amount: 120_000 })),
    );
    for (const res of made) expect(res.statusCode, res.body).toBe(201);
    const documents = made.map((res) => res.json<{ data: BillingDocument }>().data);
    const year = Number(billingDay(Date.now()).slice(0, 4));
    const sequences = documents.map((d) => Number(d.number.split('-')[1])).sort((a, b) => a - b);
    // Other tests' invoices share the counter: these eight are consecutive, none repeated.
    expect(sequences).toEqual(Array.from({ length: 8 }, (_, i) => (sequences[0] ?? 0) + i));
    const invoice = documents[0] as BillingDocument;
    expect(invoice).toMatchObject({
      kind: 'invoice',
      amount: 120_000,
      vat: 21_639,
      vat_percent: 22,
      status: 'issued',
    });
    expect(invoice.number.startsWith(`${year}-`)).toBe(true);

    const pdf = await admin.get(invoice.download_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`№ ${invoice.number}`);
    expect(text).toContain('ООО «Северная кухня»');
    expect(text).toContain('7707083893');
    expect(text).toContain('ООО «Контроль» (демо)');
    expect(text).toContain('7701234560');
    expect(text).toMatch(/1\s?200,00/);
    expect(text).toMatch(/216,39/);
    expect(text).toContain('Одна тысяча двести рублей 00 копеек');

    const list = (
      await admin.get('/api/payment/documents?page=1&filters[kind][operator]==&filters[kind][value]=invoice')
    ).json<{
      data: BillingDocument[];
      meta: { total: number };
    }>();
    expect(list.meta.total).toBe(8);

    // The operator marks it paid: credited once.
    const paid = await markInvoicePaidAndCredit(t.db, invoice.number);
    expect(paid).toMatchObject({ organisationId, amount: 120_000, balance: 120_000 });
    expect(await markInvoicePaidAndCredit(t.db, invoice.number)).toBe('already_paid');
    expect((await balanceOf(admin)).balance).toBe(120_000);
    const shown = (await admin.get('/api/payment/documents?page=1')).json<{ data: BillingDocument[] }>().data;
    expect(shown.find((d) => d.id === invoice.id)).toMatchObject({ status: 'paid' });
  });

  it("never shows another organisation's document", async () => {
    const { admin } = await setup();
    const other = await setup();
    await withDetails(other.admin);
    const theirs = (await other.admin.post('/api/payment/invoice/create', { amount: 100_000 })).json<{
      data: BillingDocument;
    }>().data;
    expect((await admin.get(theirs.download_url)).statusCode).toBe(404);
    expect((await admin.get('/api/payment/documents?page=1')).json<{ data: unknown[] }>().data).toEqual([]);
  });
});

describe('acts', () => {
  it("sum a month's charges into an act, once per month; a month not ended or without charges is refused", async () => {
    const { admin, organisationId } = await setup();
    await withDetails(admin);
    const thisMonth = billingDay(Date.now()).slice(0, 7);
    const notEnded = await admin.post('/api/payment/act/create', { period: thisMonth });
    expect(notEnded.statusCode).toBe(422);
    expect(Object.keys(notEnded.json<Errors>().errors)).toEqual(['period']);
    expect((await admin.post('/api/payment/act/create', { period: '2026-13' })).statusCode).toBe(422);
    expect((await admin.post('/api/payment/act/create', { period: '2025-01' })).statusCode).toBe(422);
    // No charge yet: no month to offer.
    const periods = async () =>
      (await admin.get('/api/payment/act/periods')).json<{ data: { periods: string[] } }>().data.periods;
    expect(await periods()).toEqual([]);

    // Last month's last three days, two smart devices at 10 ₽ a day.
    const lastMonthDay = addDays(`${thisMonth}-01`, -1);
    const period = lastMonthDay.slice(0, 7);
    await buildDevice(t.db, organisationId, {
      controller_id: `ctl-act-${organisationId}-1`,
      created_at: '2020-01-01T00:00:00.000Z',
    });
    await buildDevice(t.db, organisationId, {
      controller_id: `ctl-act-${organisationId}-2`,
      created_at: '2020-01-01T00:00:00.000Z',
    });
    await post(t.db, { organisationId, kind: 'correction', amount: 0, description: 'open', reference: null });
    await t.db
      .updateTable('billing_accounts')
      .set({ charges_from: addDays(lastMonthDay, -2) })
      .where('organisation_id', '=', organisationId)
      .execute();
    // The job as it ran on the first day of this month.
    await postDailyCharges(t.db, { dailyRateKopecks: 1_000 }, billingDayStart(`${thisMonth}-01`) + 3_600_000);
    // A charge of this month (not ended) is not offered; last month is.
    await post(t.db, {
      organisationId,
      kind: 'charge',
      amount: -1_000,
      description: 'today',
      reference: `charge:${thisMonth}-01`,
    });
    expect(await periods()).toEqual([period]);

    const made = await admin.post('/api/payment/act/create', { period });
    expect(made.statusCode, made.body).toBe(201);
    const act = made.json<{ data: BillingDocument }>().data;
    expect(act).toMatchObject({ kind: 'act', period, amount: 6_000, date: lastMonthDay });
    const text = await pdfText((await admin.get(act.download_url)).rawPayload);
    expect(text).toContain(`№ ${act.number}`);
    expect(text).toMatch(/60,00/);
    expect(text).toContain('Шестьдесят рублей 00 копеек');
    expect(text).toContain('ООО «Северная кухня»');

    const again = await admin.post('/api/payment/act/create', { period });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: BillingDocument }>().data.id).toBe(act.id);
  });
});
