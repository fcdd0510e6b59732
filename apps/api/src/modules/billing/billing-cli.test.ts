import type { Balance, BillingDocument, LedgerEntry } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli.js';
import { buildDevice, buildOrganisation } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { addDays, billingDay } from './ledger.service.js';

const t = useTestApp();

async function kontrol(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: { DATABASE_URL: t.database.url, APP_URL: 'http://kontrol.test', LOG_LEVEL: 'silent' },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function signedIn() {
  const org = await buildOrganisation(t.db);
  const admin = new TestClient(t.app);
  await admin.login(org.admin.email, org.admin.password);
  const balance = async () => (await admin.get('/api/users/balance')).json<{ data: Balance }>().data;
  return { ...org, admin, balance };
}

describe('the operator tool for billing', () => {
  it("billing:tariff sets an organisation's rate and goes back to the default", async () => {
    const { organisationId, balance } = await signedIn();
    expect(
      await kontrol('billing:tariff', '--org', String(organisationId), '--rate-kopecks', '1550'),
    ).toMatchObject({
      code: 0,
    });
    expect((await balance()).daily_rate).toBe(1_550);
    expect((await kontrol('billing:tariff', '--org', String(organisationId), '--default')).code).toBe(0);
    expect((await balance()).daily_rate).toBe(1_000);
    expect(
      (await kontrol('billing:tariff', '--org', String(organisationId), '--rate-kopecks', 'ten')).code,
    ).toBe(2);
    expect((await kontrol('billing:tariff', '--org', '999999', '--rate-kopecks', '1')).code).toBe(2);
  });

  it('billing:adjust posts a correction or refund shown in the history', async () => {
    const { organisationId, admin, balance } = await signedIn();
    const done = await kontrol(
      'billing:adjust',
      '--org',
      String(organisationId),
      '--amount-kopecks=-2500',
      '--description',
      'Перерасчёт за октябрь',
    );
    expect(done.code, done.err).toBe(0);
    expect((await balance()).balance).toBe(-2_500);
    const log = (await admin.post('/api/users/balance_log', { page: 1 })).json<{ data: LedgerEntry[] }>()
      .data;
    expect(log[0]).toMatchObject({
      kind: 'correction',
      amount: -2_500,
      description: 'Перерасчёт за октябрь',
    });
    expect(
      (
        await kontrol(
          'billing:adjust',
          '--org',
          String(organisationId),
          '--amount-kopecks',
          '0',
          '--description',
          'x',
        )
      ).code,
    ).toBe(2);
  });

  it('billing:invoice-paid credits an invoice once', async () => {
    const { admin, balance } = await signedIn();
    const details = {
      legal_name: 'ИП Соколова Мария Андреевна',
      inn: '500100732259',
      kpp: '',
      ogrn: '304500116000157',
      legal_address: 'Московская обл., г. Балашиха, ул. Советская, д. 3',
      bank_name: 'АО «ТБанк»',
      bik: '044525974',
      correspondent_account: '30101810145250000974',
      settlement_account: '40802810400000000014',
      director: 'Соколова Мария Андреевна',
      documents_email: 'ip@example.test',
    };
    const saved = await admin.post('/api/users/update_organization', details);
    expect(saved.statusCode, saved.body).toBe(200);
    const invoice = (await admin.post('/api/payment/invoice/create', { amount: 300_000 })).json<{
      data: BillingDocument;
    }>().data;
    const first = await kontrol('billing:invoice-paid', '--number', invoice.number);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('300000 kopecks credited');
    const second = await kontrol('billing:invoice-paid', '--number', invoice.number);
    expect(second.out).toContain('paid already');
    expect((await balance()).balance).toBe(300_000);
    expect((await kontrol('billing:invoice-paid', '--number', '1999-1')).code).toBe(2);
  });

  it('billing:charge posts what is due, and billing:accounts lists the lowest balance first', async () => {
    const { organisationId } = await signedIn();
    await buildDevice(t.db, organisationId, {
      controller_id: `ctl-cli-${organisationId}`,
      created_at: '2020-01-01T00:00:00.000Z',
    });
    await kontrol('billing:tariff', '--org', String(organisationId), '--rate-kopecks', '100000');
    await t.db
      .updateTable('billing_accounts')
      .set({ charges_from: addDays(billingDay(Date.now()), -1) })
      .where('organisation_id', '=', organisationId)
      .execute();
    const charged = await kontrol('billing:charge');
    expect(charged.code, charged.err).toBe(0);
    expect(charged.out).toMatch(/^[1-9]\d* daily charge\(s\) posted\.$/);
    expect((await kontrol('billing:charge')).out).toBe('0 daily charge(s) posted.');
    const accounts = await kontrol('billing:accounts');
    expect(accounts.out.split('\n')[0]).toContain(`organisation ${organisationId} `);
    expect(accounts.out.split('\n')[0]).toContain('balance -100000, 1 smart device(s) × 100000 kopecks/day');
  });
});
