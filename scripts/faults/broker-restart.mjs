// Fault: the external MQTT broker restarts (docs/operations.md, "Faults"). Kontrol takes telemetry
// from a private Mosquitto 2 (persistence, dynamic security; MQTT_URL) through its shared
// subscription; two devices (MQTT 3.1.1 and 5, QoS 1, persistent sessions) publish without pause.
// Mosquitto is stopped (SIGTERM: it saves its persistence file) while they go on publishing — their
// client keeps the messages it cannot send — and started again on the same port and files. The
// gateway must reconnect by itself and resume, and every sample published must be stored exactly
// once: as a row, and counted once in the minute rollups (a redelivered message counted twice
// would show there). Meanwhile the API stays ready, and issuing a device credential (which needs
// the broker) answers 503 with a readable `{message}` instead of hanging.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { startServer } from '../../test-support/server.mjs';
import {
  alive,
  call,
  checks,
  describe,
  isClearError,
  mqttDevice,
  runScenario,
  seedOrganisation,
  waitFor,
} from './lib/common.mjs';
import { mosquittoAvailable, startMosquitto } from '../../test-support/mosquitto.mjs';

const BATCH = 20;
const EVERY_MS = 25;
const DOWN_MS = 3_000;
/**
 * The devices try to reconnect every 3 s, the gateway every 2 s: the gateway is subscribed again
 * before the devices' held messages reach the broker. The other way round, Mosquitto 2.0.11 drops
 * them (it does not restore a persistent session's shared subscription after a restart, and a
 * message with no subscriber is acknowledged and dropped): docs/operations.md, "Faults".
 */
const DEVICE_RECONNECT_MS = 3_000;

const t = checks('broker-restart');
/** @type {(() => Promise<void> | void)[]} */
const cleanups = [];

await runScenario(
  t,
  async () => {
    if (!mosquittoAvailable())
      throw new Error('Mosquitto 2 with its dynamic-security plugin is not installed');
    const broker = await startMosquitto();
    cleanups.push(() => broker.destroy());
    const server = await startServer({
      env: { MQTT_URL: broker.url, MQTT_CLIENT_ID: `kontrol-faults-${process.pid}` },
    });
    cleanups.push(() => server.stop());
    const fleet = await seedOrganisation(server, 2);
    const brokerUrl = `mqtt://127.0.0.1:${broker.port}`;
    const devices = await Promise.all(
      fleet.devices.map((device, index) =>
        mqttDevice(brokerUrl, device, {
          protocolVersion: index === 0 ? 4 : 5,
          reconnectPeriod: DEVICE_RECONNECT_MS,
        }).then((client) => ({
          id: device.id,
          client,
        })),
      ),
    );
    cleanups.push(
      ...devices.map(
        ({ client }) =>
          () =>
            client.end(),
      ),
    );

    // The devices publish without pause, whatever the broker does.
    let publishing = true;
    /** @type {Promise<boolean>[]} */
    const sent = [];
    const publisher = (async () => {
      while (publishing) {
        for (const { client } of devices) sent.push(client.publish(BATCH));
        await sleep(EVERY_MS);
      }
    })();

    await sleep(1_500);
    await broker.stop();
    const stoppedAt = Date.now();
    t.note(
      `Mosquitto stopped with ${devices.map(({ client }) => client.published.size).join(' + ')} samples published`,
    );

    const ready = await call(`${server.baseURL}/readyz`, { timeoutMs: 5_000 });
    t.check('/readyz stays 200 while the broker is down', ready.status === 200, describe(ready));
    const third = await fleet.api('/api/devices/');
    const spare = /** @type {{ id: number, controller_id: string | null }[]} */ (third.body?.data ?? []).find(
      (device) => device.controller_id !== null && !fleet.devices.some((d) => d.id === device.id),
    );
    const credential = spare
      ? await fleet.api(`/api/devices/${spare.id}/credential`, { method: 'POST', timeoutMs: 15_000 })
      : undefined;
    t.check(
      'issuing a device credential (which needs the broker) answers 503 with a {message}',
      credential !== undefined && credential.status === 503 && isClearError(credential),
      credential ? describe(credential) : 'no spare device',
    );
    await sleep(Math.max(0, DOWN_MS - (Date.now() - stoppedAt)));
    await broker.start();
    const restartedAt = Date.now();
    t.note(`Mosquitto started again after ${((restartedAt - stoppedAt) / 1000).toFixed(1)} s`);

    await sleep(2_500); // publishing goes on after the restart
    publishing = false;
    await publisher;
    const published = devices.reduce((sum, { client }) => sum + client.published.size, 0);

    const brokerAcked = await waitFor(
      () => devices.every(({ client }) => client.acknowledged.size === client.published.size),
      15_000,
    );
    t.check(
      'the devices reconnect and the broker acknowledges everything they published',
      brokerAcked,
      `${devices.reduce((sum, { client }) => sum + client.acknowledged.size, 0)} of ${published}`,
    );

    const file = server.databaseUrl.slice('sqlite:'.length);
    const db = new Database(file, { readonly: true });
    cleanups.push(() => db.close());
    const count = db.prepare('select count(*) as n from telemetry_samples where device_id = ?');
    const rolled = db.prepare(
      'select coalesce(sum(samples), 0) as n from telemetry_minute where device_id = ?',
    );
    const storedOf = (/** @type {number} */ id) => /** @type {{ n: number }} */ (count.get(id)).n;
    const allStored = await waitFor(
      () => devices.every(({ id, client }) => storedOf(id) >= client.published.size),
      10_000, // once the broker has them, the gateway stores them within a second
      250,
    );
    const stored = devices.reduce((sum, { id }) => sum + storedOf(id), 0);
    t.check(
      'the gateway reconnects and every published sample is stored',
      allStored,
      `${stored} stored of ${published} published, ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`,
    );
    const missing = devices.reduce((sum, { id, client }) => {
      const rows = /** @type {{ ts: number }[]} */ (
        db.prepare('select ts from telemetry_samples where device_id = ?').all(id)
      );
      const present = new Set(rows.map((row) => Number(row.ts)));
      return sum + [...client.published].filter((ts) => !present.has(ts)).length;
    }, 0);
    const overCounted = devices.filter(
      ({ id }) => /** @type {{ n: number }} */ (rolled.get(id)).n !== storedOf(id),
    );
    t.check(
      'each sample is stored once: none missing, the minute rollups count each once',
      missing === 0 && stored === published && overCounted.length === 0,
      `${missing} missing, rollups ${devices.map(({ id }) => /** @type {{ n: number }} */ (rolled.get(id)).n).join('/')} for rows ${devices.map(({ id }) => storedOf(id)).join('/')}`,
    );
    t.check('Kontrol is the same process', alive(server.pid));
    const log = readFileSync(server.logFile, 'utf8');
    t.check('the server log shows no unhandled error', !/uncaught|unhandled rejection/i.test(log));
    void sent;
  },
  cleanups,
);
