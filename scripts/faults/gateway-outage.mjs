// Fault: the database goes away under a gateway process of its own (docs/deployment.md). Kontrol
// runs as production splits it: an API process (MQTT_CONSUME=0) and a gateway process
// (`apps/gateway/dist/main.js`) on a private PostgreSQL, with a private Mosquitto 2 as the external broker.
// Two devices (MQTT 3.1.1 and 5, QoS 1, persistent sessions) publish to the broker, which
// acknowledges what it holds. PostgreSQL is stopped as a crash while they publish. While it is
// down: the gateway stays up, its /readyz answers 503, it acknowledges nothing to the broker (the
// messages wait in its session) and it does not hammer the database and the broker: after a
// failed write a connection comes back only after a pause. PostgreSQL is started again and,
// without restarting anything, every sample the devices published is stored, once.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { mosquittoAvailable, startMosquitto } from '../../test-support/mosquitto.mjs';
import { ROOT, freePort, startServer, stopProcess, waitForReady } from '../../test-support/server.mjs';
import {
  alive,
  call,
  checks,
  describe,
  mqttDevice,
  runScenario,
  seedOrganisation,
  waitFor,
} from './lib/common.mjs';
import { postgresAvailable, startPostgres } from './lib/postgres.mjs';

const OUTAGE_MS = 6_000;
const RECOVER_WITHIN_MS = 30_000;
/** The gateway's connections to the broker (external-broker.ts) and their pause after a failure. */
const CONNECTIONS = 8;
const PAUSE_MS = 2_000;

const t = checks('gateway-outage');
/** @type {(() => Promise<void> | void)[]} */
const cleanups = [];

await runScenario(
  t,
  async () => {
    if (!postgresAvailable())
      throw new Error('PostgreSQL 15 binaries are missing (/usr/lib/postgresql/15/bin)');
    if (!mosquittoAvailable()) throw new Error('Mosquitto 2 with dynamic security is missing');
    const postgres = await startPostgres();
    cleanups.push(() => postgres.destroy());
    const broker = await startMosquitto();
    cleanups.push(() => broker.destroy());
    const server = await startServer({
      env: { DATABASE_URL: postgres.url, MQTT_URL: broker.url, MQTT_CONSUME: '0' },
    });
    cleanups.push(() => server.stop());

    const port = await freePort();
    const logFile = join(server.dir, 'gateway.log');
    const out = openSync(logFile, 'a');
    const gateway = spawn(process.execPath, [join(ROOT, 'apps/gateway/dist/main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: postgres.url,
        MQTT_URL: broker.url,
        MQTT_CLIENT_ID: 'kontrol-faults-gateway',
        LOG_LEVEL: 'warn',
        RULES_NO_DATA_CHECK_SECONDS: '1',
      },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    const gatewayUrl = `http://127.0.0.1:${port}`;
    cleanups.push(() => stopProcess(/** @type {number} */ (gateway.pid)));
    await waitForReady(gatewayUrl, { isAlive: () => gateway.exitCode === null });

    const [first, second] = (await seedOrganisation(server, 2)).devices;
    if (!first || !second) throw new Error('two devices expected');
    const brokerUrl = `mqtt://127.0.0.1:${broker.port}`;
    const v4 = await mqttDevice(brokerUrl, first, { protocolVersion: 4 });
    const v5 = await mqttDevice(brokerUrl, second, { protocolVersion: 5 });
    cleanups.push(
      () => v4.end(),
      () => v5.end(),
    );

    const db = new pg.Pool({ connectionString: postgres.url, max: 1 });
    db.on('error', () => undefined); // its idle connection dies with the database: expected
    const stored = async () => {
      const { rows } = await db.query(
        'select count(*)::int as n from telemetry_samples where device_id in ($1, $2)',
        [first.id, second.id],
      );
      return rows[0].n;
    };

    await Promise.all([v4.publish(100), v5.publish(100)]);
    t.check(
      'before the outage, the gateway stores what the devices publish',
      await waitFor(async () => (await stored()) === 200, 10_000),
    );

    // The outage: the devices keep publishing; the broker holds their messages.
    const logBefore = readFileSync(logFile, 'utf8').length;
    postgres.stop('immediate');
    const stoppedAt = Date.now();
    t.note('PostgreSQL stopped (immediate) while the devices publish');
    const published = [];
    while (Date.now() - stoppedAt < OUTAGE_MS) {
      published.push(v4.publish(20), v5.publish(20));
      await sleep(250);
    }
    const brokerAcked = await Promise.all(published);
    t.check(
      "the broker takes the devices' messages meanwhile (it holds them)",
      brokerAcked.every(Boolean),
      `${brokerAcked.length} messages`,
    );
    const ready = await call(`${gatewayUrl}/readyz`, { timeoutMs: 5_000 });
    t.check(
      "the gateway's /readyz answers 503 while the database is down",
      ready.status === 503,
      describe(ready),
    );
    t.check('the gateway process stays up', alive(/** @type {number} */ (gateway.pid)));
    const outageLog = readFileSync(logFile, 'utf8').slice(logBefore);
    const retries = (outageLog.match(/telemetry not stored/g) ?? []).length;
    const most = CONNECTIONS * (Math.ceil(OUTAGE_MS / PAUSE_MS) + 1);
    t.check(
      'after a failed write a connection pauses before taking the message again (no tight loop against a dead database)',
      retries > 0 && retries <= most,
      `${retries} failed writes in ${OUTAGE_MS / 1000} s (at most ${most}: ${CONNECTIONS} connections, one try every ${PAUSE_MS / 1000} s)`,
    );

    postgres.start();
    t.note(`PostgreSQL started again after ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s`);
    const expected = 200 + brokerAcked.length * 20;
    const caughtUp = await waitFor(
      async () => (await stored().catch(() => 0)) >= expected,
      RECOVER_WITHIN_MS,
      500,
    );
    const total = await stored();
    t.check(
      'once the database is back, every sample published is stored, without restarting anything',
      caughtUp && total === expected,
      `${total} stored of ${expected} published`,
    );
    const { rows } = await db.query(
      'select count(*)::int as n, count(distinct (device_id, ts))::int as d from telemetry_samples where device_id in ($1, $2)',
      [first.id, second.id],
    );
    t.check('each sample stored once', rows[0].n === rows[0].d, `${rows[0].n} rows, ${rows[0].d} distinct`);
    await db.end();
    const readyAgain = await waitFor(
      async () => (await call(`${gatewayUrl}/readyz`, { timeoutMs: 2_000 })).status === 200,
      10_000,
    );
    t.check("the gateway's /readyz answers 200 again", readyAgain);
    t.check('the gateway is the same process', alive(/** @type {number} */ (gateway.pid)));
    const log = readFileSync(logFile, 'utf8');
    t.check('the gateway log shows no unhandled error', !/uncaught|unhandled rejection/i.test(log));
  },
  cleanups,
);
