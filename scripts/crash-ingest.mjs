// The crash test of the ingest (docs/telemetry.md, "Guarantees"): devices send samples over MQTT
// (QoS 1; half of them MQTT 3.1.1, half MQTT 5) and HTTP while the server is killed with SIGKILL;
// after a restart on the same database, every sample that had been acknowledged (PUBACK or 202)
// must be there. Uses the built server (npm run build first, as .ci/run does), a temporary SQLite
// file and free ports.
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { issueCredentials } from '../test-support/devices.mjs';
import { UNLIMITED_DEVICES_ENV, freePort, seedFleetAndSignIn, startServer } from '../test-support/server.mjs';

const DEVICES = 20; // half over MQTT, half over HTTP
const BATCH = 50;
const RUN_BEFORE_KILL_MS = 3_000;

const mqttPort = await freePort();
// Devices send as fast as the server takes: their limits are lifted, so every send is acknowledged or lost to the kill.
const first = await startServer({
  env: { MQTT_PORT: String(mqttPort), DEMO: '0', ...UNLIMITED_DEVICES_ENV },
});
const { admin } = await seedFleetAndSignIn(first, 60);
const devices = await issueCredentials(first.baseURL, admin, DEVICES);

/** @type {Map<number, Set<number>>} acknowledged sample times per device id */
const acknowledged = new Map(devices.map((device) => [device.id, new Set()]));
let stopped = false;
/** Samples the server rejected: the test's own mistake, which would hide a loss. */
let invalid = 0;
/** Samples acknowledged by PUBACK, by MQTT protocol version. */
const ackedOverMqtt = { 4: 0, 5: 0 };
const start = Date.now() - 60 * 60_000;
const sample = (/** @type {number} */ ts) => ({
  ts,
  current: 3,
  temperature: 80,
  door_open: false,
  state: 'heating',
});
/**
 * The next batch of a device: consecutive milliseconds from an hour ago, so every sample is new
 * and valid (samples are keyed by device and time; none may be ahead of the clock).
 */
const batchOf = (/** @type {number} */ round) =>
  Array.from({ length: BATCH }, (_, k) => sample(start + round * BATCH + k));

const mqttDevices = devices.slice(0, DEVICES / 2);
const httpDevices = devices.slice(DEVICES / 2);

const senders = [
  ...mqttDevices.map(async (device, index) => {
    const protocolVersion = index % 2 === 0 ? 4 : 5;
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: device.controllerId,
      username: device.controllerId,
      password: device.credential,
      protocolVersion,
      reconnectPeriod: 0,
    });
    client.on('error', () => undefined);
    // mqtt.js keeps an unacknowledged publish waiting when the connection drops: the close ends it.
    const closed = new Promise((resolve) => client.once('close', () => resolve('closed')));
    for (let round = 0; !stopped; round += 1) {
      const batch = batchOf(round);
      const topic = `kontrol/v1/${device.controllerId}/telemetry`;
      const outcome = await Promise.race([
        client.publishAsync(topic, JSON.stringify(batch), { qos: 1 }).then(
          () => 'acknowledged',
          () => 'failed',
        ),
        closed,
      ]);
      if (outcome !== 'acknowledged') {
        client.end(true);
        return; // the connection died with the server: this batch was never acknowledged
      }
      for (const s of batch) acknowledged.get(device.id)?.add(s.ts);
      ackedOverMqtt[protocolVersion] += batch.length;
    }
    client.end(true);
  }),
  ...httpDevices.map(async (device) => {
    for (let round = 0; !stopped; round += 1) {
      const batch = batchOf(round);
      /** @type {{ data: { rejected: unknown[] } }} */
      let answer;
      try {
        const res = await fetch(`${first.baseURL}/api/ingest/v1/telemetry`, {
          method: 'POST',
          headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
          body: JSON.stringify(batch),
        });
        if (res.status !== 202) return;
        answer = await res.json();
      } catch {
        return; // the server died with the request in flight: not acknowledged
      }
      invalid += answer.data.rejected.length;
      for (const s of batch) acknowledged.get(device.id)?.add(s.ts);
    }
  }),
];

await sleep(RUN_BEFORE_KILL_MS);
console.log('crash test: killing the server with SIGKILL (the "exited unexpectedly" line below is this)');
process.kill(first.pid, 'SIGKILL');
await Promise.allSettled(senders);
stopped = true;
const acked = [...acknowledged.values()].reduce((sum, set) => sum + set.size, 0);

// A restart on the same database: the migrations and the store must come back without repair.
const second = await startServer({ env: { DATABASE_URL: first.databaseUrl, MQTT_PORT: '0', DEMO: '0' } });
await second.stop().catch(() => undefined);

const db = new Database(first.databaseUrl.slice('sqlite:'.length), { readonly: true });
const select = db.prepare('select ts from telemetry_samples where device_id = ?');
let missing = 0;
let stored = 0;
for (const [deviceId, times] of acknowledged) {
  const present = new Set(select.all(deviceId).map((row) => Number(/** @type {{ts: number}} */ (row).ts)));
  stored += present.size;
  for (const ts of times) if (!present.has(ts)) missing += 1;
}
db.close();
await first.stop().catch(() => undefined);

console.log(
  `crash test: ${acked} samples acknowledged before SIGKILL (${ackedOverMqtt[4]} by ${DEVICES / 4} devices ` +
    `over MQTT 3.1.1, ${ackedOverMqtt[5]} by ${DEVICES / 4} over MQTT 5, the rest by ${DEVICES / 2} over HTTP), ` +
    `${stored} stored after restart, ${missing} acknowledged but missing`,
);
if (invalid > 0) {
  console.error(`crash test: FAILED — the server rejected ${invalid} of the test's samples`);
  process.exit(1);
}
if (acked === 0 || ackedOverMqtt[4] === 0 || ackedOverMqtt[5] === 0) {
  console.error('crash test: FAILED — nothing was acknowledged before the kill (on one of the transports)');
  process.exit(1);
}
if (missing > 0) {
  console.error('crash test: FAILED — acknowledged samples were lost');
  process.exit(1);
}
console.log('crash test: every acknowledged sample survived SIGKILL');
