// Fault: SIGKILL of the single-process default (SQLite) during ledger writes (docs/operations.md,
// "Faults"; the ingest's counterpart is scripts/crash-ingest.mjs). With PAYMENT_PROVIDER=sandbox, an
// organisation's admin opens many sandbox payments (POST /api/payment/create); then many are paid at once through the
// sandbox's page (POST /api/payment/sandbox/<id>, which sends the signed provider callback that
// settles the payment and credits the ledger in one transaction) and Kontrol is killed with
// SIGKILL in the middle. After a restart on the same file: `PRAGMA integrity_check` says ok; every
// payment whose page answered (303) is settled and credited exactly once; a payment is settled if
// and only if its credit is in the ledger; the balance equals the ledger's sum; and each entry's
// `balance_after` is the one before plus its amount. Paying the rest (and some again) after the
// restart credits each payment once more at most: the books still balance.
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { apiLogin, runCli, startServer } from '../../test-support/server.mjs';
import { alive, call, checks, describe, runScenario } from './lib/common.mjs';

const PAYMENTS = 300;
const CONCURRENCY = 16;
/** Kill once this many payments have been acknowledged (a third of them). */
const KILL_AFTER = 100;
const MIN_AMOUNT = 100_00;

const t = checks('ledger-kill');
/** @type {(() => Promise<void> | void)[]} */
const cleanups = [];

await runScenario(
  t,
  async () => {
    // The sandbox provider is off by default; its page is how this scenario pays.
    const first = await startServer({ env: { MQTT_PORT: 'off', PAYMENT_PROVIDER: 'sandbox' } });
    cleanups.push(() => first.stop());
    const login = { email: 'ledger@kontrol.test', password: 'kontrol-faults-1234' };
    const created = runCli(
      ['org:create', '--name', 'Ledger', '--admin-email', login.email, '--password', login.password],
      first,
    );
    const organisationId = Number(/^Organisation (\d+) created/m.exec(created)?.[1]);
    const admin = await apiLogin(first.baseURL, login);
    const headers = { cookie: admin.cookieHeader, 'x-xsrf-token': admin.xsrf };

    // The payments, each of its own amount.
    /** @type {{ id: number, amount: number, externalId: string }[]} */
    const payments = [];
    await pool(PAYMENTS, 8, async (index) => {
      const amount = MIN_AMOUNT + index;
      const answer = await call(`${first.baseURL}/api/payment/create`, {
        method: 'POST',
        headers,
        body: { amount },
      });
      if (answer.status !== 201) throw new Error(`POST /api/payment/create: ${describe(answer)}`);
      const url = new URL(answer.body.data.confirmation_url);
      payments.push({ id: answer.body.data.id, amount, externalId: url.pathname.split('/').pop() ?? '' });
    });

    // Pay them all at once; SIGKILL after KILL_AFTER acknowledgements.
    /** @type {Set<number>} payment ids whose page answered 303 */
    const acknowledged = new Set();
    let killed = false;
    const pay = (/** @type {string} */ baseURL, /** @type {typeof payments[number]} */ payment) =>
      fetch(`${baseURL}/api/payment/sandbox/${payment.externalId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'outcome=succeeded',
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      }).then(
        (response) => response.status,
        () => 0,
      );
    const killedAt = new Promise((resolve) => {
      void pool(PAYMENTS, CONCURRENCY, async (index) => {
        if (killed) return;
        const payment = /** @type {typeof payments[number]} */ (payments[index]);
        const status = await pay(first.baseURL, payment);
        if (status === 303 && !killed) {
          acknowledged.add(payment.id);
          if (acknowledged.size >= KILL_AFTER) {
            killed = true;
            t.note('killing Kontrol with SIGKILL (the "exited unexpectedly" line below is this)');
            process.kill(first.pid, 'SIGKILL');
            resolve(undefined);
          }
        }
      }).then(() => resolve(undefined));
    });
    await killedAt;
    t.check(
      `Kontrol was killed with payments still in flight`,
      killed && acknowledged.size < PAYMENTS,
      `${acknowledged.size} of ${PAYMENTS} acknowledged (303) before the SIGKILL`,
    );
    await sleep(200); // the in-flight requests end with the connection

    // Restart on the same file.
    const second = await startServer({
      env: { DATABASE_URL: first.databaseUrl, MQTT_PORT: 'off', PAYMENT_PROVIDER: 'sandbox' },
    });
    cleanups.push(() => second.stop());
    const file = first.databaseUrl.slice('sqlite:'.length);
    const afterKill = audit(file, organisationId, payments, acknowledged);
    t.check(
      'after the restart, PRAGMA integrity_check says ok',
      afterKill.integrity === 'ok',
      afterKill.integrity,
    );
    t.check(
      'every acknowledged payment is settled and credited exactly once',
      afterKill.ackedMissing === 0 && afterKill.duplicates === 0,
      `${afterKill.ackedMissing} acknowledged but not credited, ${afterKill.duplicates} credited twice`,
    );
    t.check(
      'a payment is settled if and only if its credit is in the ledger',
      afterKill.halfDone === 0,
      `${afterKill.credited} credited (${afterKill.credited - acknowledged.size} of them unacknowledged), ${afterKill.halfDone} half done`,
    );
    t.check('the balance equals the ledger’s sum', afterKill.balanceOk, afterKill.balanceDetail);
    t.check(
      'each balance_after is the previous one plus its amount',
      afterKill.chainBreaks === 0,
      `${afterKill.chainBreaks} breaks`,
    );

    // The rest paid after the restart, and the acknowledged ones paid again: each credited once.
    const statuses = await Promise.all(payments.map((payment) => pay(second.baseURL, payment)));
    t.check(
      'after the restart every payment page answers (303), the paid ones again too',
      statuses.every((status) => status === 303),
      `${statuses.filter((status) => status === 303).length} of ${PAYMENTS}`,
    );
    const total = payments.reduce((sum, payment) => sum + payment.amount, 0);
    const balance = await call(`${second.baseURL}/api/users/balance`, { headers });
    const end = audit(file, organisationId, payments, new Set(payments.map((payment) => payment.id)));
    t.check(
      'then every payment is credited once and the books balance',
      end.ackedMissing === 0 &&
        end.duplicates === 0 &&
        end.halfDone === 0 &&
        end.balanceOk &&
        end.chainBreaks === 0 &&
        end.sum === total &&
        balance.body?.data?.balance === total,
      `${end.credited} credited, ledger sum ${end.sum}, expected ${total}, API balance ${balance.body?.data?.balance}`,
    );
    t.check('Kontrol (restarted) is still running', alive(second.pid));
  },
  cleanups,
);

/**
 * Runs `work(0…count-1)` with at most `concurrency` at a time.
 * @param {number} count
 * @param {number} concurrency
 * @param {(index: number) => Promise<void>} work
 */
async function pool(count, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        await work(index);
      }
    }),
  );
}

/**
 * What the database says about the organisation's ledger and payments (read while Kontrol runs:
 * WAL lets a reader in beside it).
 * @param {string} file
 * @param {number} organisationId
 * @param {{ id: number, amount: number }[]} payments
 * @param {Set<number>} acknowledged
 */
function audit(file, organisationId, payments, acknowledged) {
  const db = new Database(file, { readonly: true });
  try {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    const entries =
      /** @type {{ id: number, amount: number, balance_after: number, reference: string | null }[]} */ (
        db
          .prepare(
            'select id, amount, balance_after, reference from ledger_entries where organisation_id = ? order by id',
          )
          .all(organisationId)
      );
    const account = /** @type {{ balance: number } | undefined} */ (
      db.prepare('select balance from billing_accounts where organisation_id = ?').get(organisationId)
    );
    const settled = new Map(
      /** @type {{ id: number, status: string }[]} */ (
        db.prepare('select id, status from payments where organisation_id = ?').all(organisationId)
      ).map((row) => [row.id, row.status]),
    );
    /** @type {Map<number, number>} payment id → credits */
    const credits = new Map();
    for (const entry of entries) {
      const id = /^payment:(\d+)$/.exec(entry.reference ?? '')?.[1];
      if (id) credits.set(Number(id), (credits.get(Number(id)) ?? 0) + 1);
    }
    let chainBreaks = 0;
    let running = 0;
    for (const entry of entries) {
      running += Number(entry.amount);
      if (Number(entry.balance_after) !== running) chainBreaks += 1;
    }
    const sum = entries.reduce((total, entry) => total + Number(entry.amount), 0);
    const balance = Number(account?.balance ?? 0);
    return {
      integrity,
      credited: credits.size,
      ackedMissing: [...acknowledged].filter((id) => credits.get(id) !== 1 || settled.get(id) !== 'succeeded')
        .length,
      duplicates: [...credits.values()].filter((count) => count > 1).length,
      halfDone: payments.filter(
        (payment) => (settled.get(payment.id) === 'succeeded') !== credits.has(payment.id),
      ).length,
      sum,
      balanceOk: balance === sum && (entries.length === 0 || Number(entries.at(-1)?.balance_after) === sum),
      balanceDetail: `balance ${balance}, ledger sum ${sum}, ${entries.length} entries`,
      chainBreaks,
    };
  } finally {
    db.close();
  }
}
