// Fault: the database goes away and comes back (docs/operations.md, "Faults"). Kontrol runs on a
// private PostgreSQL cluster with the embedded MQTT broker; devices send over HTTP and MQTT (3.1.1
// and 5, QoS 1, persistent sessions) and an admin is signed in. PostgreSQL is then stopped as a
// crash (`pg_ctl stop -m immediate`). While it is down: /readyz answers 503, API requests answer
// 503 with a readable `{message}` in Russian and English within seconds, the HTTP ingest answers
// 503 without acknowledging, and no MQTT message gets a PUBACK. PostgreSQL is started again and,
// without restarting Kontrol, everything must recover: /readyz 200, requests 200, the devices'
// held messages acknowledged and stored, samples sent afterwards stored, and the samples
// acknowledged before the outage still there. Last, PostgreSQL is frozen (SIGSTOP: it accepts
// connections and never answers): /readyz must say 503 within its time limit.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort, startServer } from '../../test-support/server.mjs';
import {
  alive,
  call,
  checks,
  describe,
  isClearError,
  mqttDevice,
  runScenario,
  samples,
  SAMPLES_FROM,
  seedOrganisation,
  httpDevice,
  waitFor,
  within,
  ANSWER_WITHIN_MS,
  CYRILLIC,
} from './lib/common.mjs';
import { postgresAvailable, startPostgres } from './lib/postgres.mjs';

/** How long everything has to come back after PostgreSQL is up again. */
const RECOVER_WITHIN_MS = 20_000;

const t = checks('database-outage');
/** @type {(() => Promise<void>)[]} */
const cleanups = [];

await runScenario(
  t,
  async () => {
    if (!postgresAvailable())
      throw new Error('PostgreSQL 15 binaries are missing (/usr/lib/postgresql/15/bin)');
    const postgres = await startPostgres();
    cleanups.push(() => postgres.destroy());
    const mqttPort = await freePort();
    const server = await startServer({
      env: {
        DATABASE_URL: postgres.url,
        MQTT_PORT: String(mqttPort),
        // The background jobs run during the outage too: an unhandled failure there would end the process.
        RULES_NO_DATA_CHECK_SECONDS: '1',
      },
    });
    cleanups.push(() => server.stop());
    const fleet = await seedOrganisation(server, 3);
    const [overHttp, overV4, overV5] = fleet.devices;
    if (!overHttp || !overV4 || !overV5) throw new Error('three devices expected');
    const brokerUrl = `mqtt://127.0.0.1:${mqttPort}`;
    const v4 = await mqttDevice(brokerUrl, overV4, { protocolVersion: 4 });
    const v5 = await mqttDevice(brokerUrl, overV5, { protocolVersion: 5 });
    cleanups.push(
      () => v4.end(),
      () => v5.end(),
    );

    // Before: everything is acknowledged.
    const http = httpDevice(server.baseURL, overHttp);
    const first = await http.sendNext(200);
    const mqttBefore = await within(Promise.all([v4.publish(200), v5.publish(200)]), 10_000, [false, false]);
    t.check(
      'before the outage, samples are acknowledged over HTTP and MQTT',
      first.answer.status === 202 && mqttBefore.every(Boolean),
      `HTTP ${first.answer.status}, MQTT ${mqttBefore.join('/')}`,
    );
    const ackedBefore = {
      http: new Set(http.acknowledged),
      v4: new Set(v4.acknowledged.keys()),
      v5: new Set(v5.acknowledged.keys()),
    };

    // The outage, with requests in flight: two workers send samples, two read the device list.
    /** @type {Map<number, number>} status → answers */
    const inFlight = new Map();
    let loading = true;
    const load = Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        while (loading) {
          const answer =
            worker % 2 === 0
              ? (await http.sendNext(50, ANSWER_WITHIN_MS)).answer
              : await fleet.api('/api/devices/', { timeoutMs: ANSWER_WITHIN_MS });
          inFlight.set(answer.status, (inFlight.get(answer.status) ?? 0) + 1);
        }
      }),
    );
    await sleep(300);
    postgres.stop('immediate');
    const stoppedAt = Date.now();
    t.note('PostgreSQL stopped (immediate) under load');
    await sleep(500);
    loading = false;
    await load;
    t.check(
      'requests in flight when the database stopped answer 200/202 or 503 (no 500, none unanswered)',
      [...inFlight.keys()].every((status) => status === 200 || status === 202 || status === 503) &&
        inFlight.has(503),
      JSON.stringify(Object.fromEntries(inFlight)),
    );
    t.check('Kontrol survives the database going away under load', alive(server.pid));

    const ready = await call(`${server.baseURL}/readyz`, { timeoutMs: ANSWER_WITHIN_MS });
    t.check('/readyz answers 503 while the database is down', ready.status === 503, describe(ready));

    const listRu = await fleet.api('/api/devices/', { locale: 'ru', timeoutMs: ANSWER_WITHIN_MS });
    t.check(
      'a signed-in request answers 503 with a Russian {message} within seconds',
      listRu.status === 503 && isClearError(listRu) && CYRILLIC.test(listRu.body.message),
      describe(listRu),
    );
    const listEn = await fleet.api('/api/devices/', { locale: 'en', timeoutMs: ANSWER_WITHIN_MS });
    t.check(
      'the same request in English answers 503 with an English {message}',
      listEn.status === 503 && isClearError(listEn) && !CYRILLIC.test(listEn.body.message),
      describe(listEn),
    );
    t.check(
      'the 503 says when to retry (Retry-After)',
      Boolean(listRu.headers?.get('retry-after')),
      `Retry-After: ${listRu.headers?.get('retry-after')}`,
    );
    const write = await fleet.api('/api/messages', {
      method: 'POST',
      body: { text: 'written while the database was down' },
      timeoutMs: ANSWER_WITHIN_MS,
    });
    t.check(
      'a signed-in write answers 503 with a {message}',
      write.status === 503 && isClearError(write),
      describe(write),
    );

    const refused = await http.sendNext(100, ANSWER_WITHIN_MS);
    t.check(
      'the HTTP ingest refuses with 503 and a {message}, acknowledging nothing',
      refused.answer.status === 503 &&
        isClearError(refused.answer) &&
        Boolean(refused.answer.headers?.get('retry-after')),
      describe(refused.answer),
    );

    // MQTT: messages published now must not be acknowledged while the database is down.
    const duringOutage = { v4: v4.publish(100), v5: v5.publish(100) };
    const outageSamples = { v4: samples(v4.next - 100, 100), v5: samples(v5.next - 100, 100) };
    await sleep(3_000); // the background jobs (rules every second) run against the dead database meanwhile
    const restartedAt = Date.now();
    const ackedWhileDown = [...v4.acknowledged, ...v5.acknowledged].filter(
      ([ts, at]) => at >= stoppedAt && at < restartedAt && ts >= SAMPLES_FROM + 200,
    ).length;
    t.check(
      'no MQTT message published during the outage was acknowledged while it lasted',
      ackedWhileDown === 0,
      `${ackedWhileDown} acknowledged`,
    );
    t.check('Kontrol is still running', alive(server.pid));

    // Recovery, without restarting Kontrol.
    postgres.start();
    t.note(`PostgreSQL started again after ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s down`);
    const readyAgain = await waitFor(
      async () => (await call(`${server.baseURL}/readyz`, { timeoutMs: 2_000 })).status === 200,
      RECOVER_WITHIN_MS,
    );
    t.check(
      '/readyz answers 200 again',
      readyAgain,
      `after ${((Date.now() - restartedAt) / 1000).toFixed(1)} s`,
    );
    const listAgain = await fleet.api('/api/devices/');
    t.check('the signed-in session works again (200)', listAgain.status === 200, describe(listAgain));
    const writeAgain = await fleet.api('/api/messages', {
      method: 'POST',
      body: { text: 'after the outage' },
    });
    t.check('writes work again (201)', writeAgain.status === 201, describe(writeAgain));

    // The device sends the refused message again, then new samples.
    const { answer: resent } = await http.resend(refused.batch);
    const after = await http.sendNext(200);
    t.check(
      'the HTTP ingest acknowledges again (the refused message resent, then new samples)',
      resent.status === 202 && after.answer.status === 202,
      `${describe(resent)}; ${describe(after.answer)}`,
    );
    const held = await within(Promise.all([duringOutage.v4, duringOutage.v5]), RECOVER_WITHIN_MS, [
      false,
      false,
    ]);
    t.check(
      'the MQTT messages held during the outage are acknowledged after it',
      held.every(Boolean),
      `v3.1.1 ${held[0]}, v5 ${held[1]}`,
    );
    const mqttAfter = await within(Promise.all([v4.publish(200), v5.publish(200)]), 10_000, [false, false]);
    t.check('new MQTT messages are acknowledged', mqttAfter.every(Boolean), mqttAfter.join('/'));
    t.check('Kontrol is still the same process', alive(server.pid));

    // A frozen database (a paused machine, a partition): it accepts connections and never answers.
    postgres.freeze();
    const frozenReady = await call(`${server.baseURL}/readyz`, { timeoutMs: 4_000 });
    t.check(
      'a frozen database: /readyz answers 503 within its 2-second limit instead of waiting',
      frozenReady.status === 503 && frozenReady.ms < 3_000,
      describe(frozenReady),
    );
    let listed = false;
    const frozenList = fleet.api('/api/devices/', { timeoutMs: 15_000 }).finally(() => {
      listed = true;
    });
    await sleep(1_500);
    const waited = !listed;
    postgres.thaw();
    const afterThaw = await frozenList;
    t.note(
      `a frozen database: a signed-in request ${waited ? 'waits (no query time limit)' : 'did not wait'}; ` +
        `once the database runs again it answers ${afterThaw.status} after ${afterThaw.ms} ms`,
    );
    const thawed = await waitFor(
      async () => (await call(`${server.baseURL}/readyz`, { timeoutMs: 2_000 })).status === 200,
      10_000,
    );
    t.check('and once it runs again, /readyz answers 200', thawed);

    // What the database holds.
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const stored = async (/** @type {number} */ deviceId) => {
        const { rows } = await client.query('select ts from telemetry_samples where device_id = $1', [
          deviceId,
        ]);
        return new Set(rows.map((row) => Number(row.ts)));
      };
      const missing = (/** @type {Iterable<number>} */ acked, /** @type {Set<number>} */ present) =>
        [...acked].filter((ts) => !present.has(ts)).length;
      const httpStored = await stored(overHttp.id);
      const v4Stored = await stored(overV4.id);
      const v5Stored = await stored(overV5.id);
      t.check(
        'the samples acknowledged before the outage are all stored',
        missing(ackedBefore.http, httpStored) +
          missing(ackedBefore.v4, v4Stored) +
          missing(ackedBefore.v5, v5Stored) ===
          0,
      );
      const lost =
        missing(http.acknowledged, httpStored) +
        missing(v4.acknowledged.keys(), v4Stored) +
        missing(v5.acknowledged.keys(), v5Stored);
      t.check(
        'every acknowledged sample is stored (held MQTT messages and samples sent after recovery included)',
        lost === 0 &&
          [...outageSamples.v4, ...outageSamples.v5].every((s) => v4Stored.has(s.ts) || v5Stored.has(s.ts)),
        `${http.acknowledged.size + v4.acknowledged.size + v5.acknowledged.size} acknowledged, ${lost} missing`,
      );
      const { rows } = await client.query(
        `select count(*)::int as n from support_messages where text = 'written while the database was down'`,
      );
      t.check(
        'the write refused during the outage left nothing behind',
        rows[0]?.n === 0,
        `${rows[0]?.n} rows`,
      );
    } finally {
      await client.end();
    }
    const log = readFileSync(server.logFile, 'utf8');
    t.check(
      'the server log names the outage and shows no unhandled error',
      /database unavailable|database does not answer/.test(log) && !/uncaught|unhandled rejection/i.test(log),
    );
  },
  cleanups,
);
