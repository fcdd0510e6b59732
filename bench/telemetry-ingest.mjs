// Durable telemetry ingest (`npm run bench:ingest`): the real server (test-support/server.mjs) with
// the embedded MQTT broker, devices with real credentials, and for each transport a load that
// keeps the pipeline busy for BENCH_SECONDS: over HTTP, 8 clients posting batches of 1 000
// samples (202 = committed); over MQTT, 100 device connections publishing QoS 1 messages of 100
// samples, 4 in flight each (PUBACK = committed). Only acknowledged, stored samples count. Beside
// them, in the same run, the raw limit: plain batched inserts of the same rows into the same table
// (a database of its own, 5 000 rows per transaction, prepared statements / `unnest`), no HTTP,
// no MQTT, no validation, no rollups.
// Targets: ≥ 50 000 samples/s over MQTT and ≥ 100 000 over HTTP on this 2-core machine,
// each at least 40 % of the raw insert rate; on SQLite and on PostgreSQL.
//
// BENCH_DATABASE=sqlite|postgres|both (default both; postgres needs BENCH_POSTGRES_URL, default
// postgres://postgres@127.0.0.1:5432/test, where a database of its own is created and dropped).
// BENCH_SECONDS (default 10; 3 with BENCH_QUICK=1, which also leaves docs alone). BENCH_NO_DOCS=1: do
// not rewrite docs/benchmarks.md. Results: bench/results/telemetry-ingest.json (bench/lib/results.mjs).
// BENCH_ONLY=http|mqtt|raw (comma-separated) measures a part; BENCH_CPU_PROF=<dir> profiles the server.
import { join } from 'node:path';
import mqtt from 'mqtt';
import { PLAIN_INSERT_BATCH, plainInsertRate } from './lib/baselines.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { issueCredentials } from '../test-support/devices.mjs';
import { machine } from './lib/machine.mjs';
import { postgresDatabase } from './lib/postgres.mjs';
import { figure, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';
import {
  UNLIMITED_DEVICES_ENV,
  buildIfNeeded,
  freePort,
  seedFleetAndSignIn,
  startServer,
} from '../test-support/server.mjs';

const SECONDS = Math.max(3, setting('BENCH_SECONDS', 10, 3));
const TARGETS = { mqtt: 50_000, http: 100_000, shareOfRaw: 0.4 };
const HTTP_CLIENTS = 8;
const HTTP_BATCH = 1_000;
const MQTT_DEVICES = 100;
const MQTT_BATCH = 100;
const MQTT_IN_FLIGHT = 4;
const RAW_BATCH = PLAIN_INSERT_BATCH;
const SAMPLE_STEP_MS = 1_000;
const DATABASES =
  (process.env.BENCH_DATABASE ?? 'both') === 'both'
    ? ['sqlite', 'postgres']
    : [process.env.BENCH_DATABASE ?? 'sqlite'];
const ONLY = new Set((process.env.BENCH_ONLY ?? 'raw,http,mqtt').split(',').map((part) => part.trim()));

/** Samples of one device, one a second from its own clock, all valid for a combi oven. */
function sampler(start) {
  let ts = start;
  return (count) =>
    Array.from({ length: count }, () => {
      ts += SAMPLE_STEP_MS;
      return { ts, current: 12.5, temperature: 180, door_open: false, state: 'cooking' };
    });
}

/** Runs `worker` loops until the deadline; returns acknowledged samples per second. */
async function measure(workers, loop) {
  let acknowledged = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, (_, index) =>
      loop(
        index,
        () => Date.now() < deadline,
        (count) => (acknowledged += count),
      ),
    ),
  );
  return acknowledged / ((performance.now() - started) / 1000);
}

async function httpIngest(baseURL, devices) {
  // Each client has its own devices, so no two requests write the same device's key range.
  const clocks = devices.map(() => sampler(Date.now() - 60 * 86_400_000));
  return measure(HTTP_CLIENTS, async (index, running, acked) => {
    for (let round = 0; running(); round += 1) {
      const slot = index + HTTP_CLIENTS * (round % Math.floor(devices.length / HTTP_CLIENTS));
      const device = devices[slot];
      const res = await fetch(`${baseURL}/api/ingest/v1/telemetry`, {
        method: 'POST',
        headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
        body: JSON.stringify(clocks[slot](HTTP_BATCH)),
      });
      const answer = await res.json();
      if (res.status !== 202 || answer.data.rejected.length > 0)
        throw new Error(`ingest answered ${res.status}: ${JSON.stringify(answer).slice(0, 200)}`);
      acked(answer.data.accepted);
    }
  });
}

async function mqttIngest(port, devices) {
  const chosen = devices.slice(0, MQTT_DEVICES);
  const clients = await Promise.all(
    chosen.map((device) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        clientId: device.controllerId,
        username: device.controllerId,
        password: device.credential,
        reconnectPeriod: 0,
      }),
    ),
  );
  const clocks = chosen.map(() => sampler(Date.now() - 50 * 86_400_000));
  try {
    return await measure(MQTT_DEVICES * MQTT_IN_FLIGHT, async (index, running, acked) => {
      const slot = index % MQTT_DEVICES;
      const topic = `kontrol/v1/${chosen[slot].controllerId}/telemetry`;
      while (running()) {
        await clients[slot].publishAsync(topic, JSON.stringify(clocks[slot](MQTT_BATCH)), { qos: 1 });
        acked(MQTT_BATCH);
      }
    });
  } finally {
    await Promise.all(clients.map((client) => client.endAsync(true)));
  }
}

async function runOn(database) {
  const mqttPort = await freePort();
  const databases = [];
  // A few devices carry the whole load: their limits are lifted (the limiter still runs).
  let serverEnv = { MQTT_PORT: String(mqttPort), DEMO: '0', LOG_LEVEL: 'warn', ...UNLIMITED_DEVICES_ENV };
  let rawUrl;
  if (database === 'postgres') {
    const served = await postgresDatabase();
    const raw = await postgresDatabase();
    databases.push(served, raw);
    serverEnv = { ...serverEnv, DATABASE_URL: served.url, DATABASE_POOL_MAX: '10' };
    rawUrl = raw.url;
  }
  // BENCH_CPU_PROF=<dir>: the server runs under V8's profiler, its profile left in <dir>.
  const profileDir = process.env.BENCH_CPU_PROF;
  const server = await startServer({
    env: serverEnv,
    nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
  });
  try {
    rawUrl ??= `sqlite:${join(server.dir, 'raw.db')}`;
    const { admin } = await seedFleetAndSignIn(server, 400);
    const devices = await issueCredentials(server.baseURL, admin, MQTT_DEVICES + HTTP_CLIENTS * 4);
    const raw = ONLY.has('raw') ? await plainInsertRate(rawUrl, SECONDS) : Number.NaN;
    console.log(`${database}: raw inserts ${Math.round(raw)} rows/s`);
    const http = ONLY.has('http')
      ? await httpIngest(server.baseURL, devices.slice(MQTT_DEVICES))
      : Number.NaN;
    console.log(
      `${database}: HTTP ingest ${Math.round(http)} samples/s (${((http / raw) * 100).toFixed(0)} % of raw)`,
    );
    const viaMqtt = ONLY.has('mqtt') ? await mqttIngest(mqttPort, devices) : Number.NaN;
    console.log(
      `${database}: MQTT ingest ${Math.round(viaMqtt)} samples/s (${((viaMqtt / raw) * 100).toFixed(0)} % of raw)`,
    );
    return { database, raw, http, mqtt: viaMqtt };
  } finally {
    await server.stop();
    for (const db of databases) await db.drop();
  }
}

const env = machine();
console.log(
  `telemetry ingest — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
);
buildIfNeeded();
const results = [];
for (const database of DATABASES) results.push(await runOn(database));

const fmt = (n) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');
const pct = (n) => `${(n * 100).toFixed(0)} %`;
const verdict = (ok) => (ok ? 'met' : '**MISSED**');
const lines = [
  `Run ${env.date} on ${env.nproc} cores (${env.cpu}), Node.js ${env.node}, commit ${env.commit} (${env.changed}); ${SECONDS} s per load.`,
  '',
  `HTTP: ${HTTP_CLIENTS} clients, ${fmt(HTTP_BATCH)} samples per request; MQTT: ${MQTT_DEVICES} devices, QoS 1, ${MQTT_BATCH} samples per message, ${MQTT_IN_FLIGHT} in flight each; samples one second apart per device; only committed samples count. Raw: ${fmt(RAW_BATCH)}-row transactions of plain inserts into a database of its own.`,
  '',
  '| database | raw inserts (rows/s) | HTTP (samples/s) | HTTP / raw | MQTT (samples/s) | MQTT / raw | verdict |',
  '|---|---:|---:|---:|---:|---:|---|',
  ...results.map((r) => {
    const ok =
      r.http >= TARGETS.http &&
      r.mqtt >= TARGETS.mqtt &&
      r.http / r.raw >= TARGETS.shareOfRaw &&
      r.mqtt / r.raw >= TARGETS.shareOfRaw;
    return `| ${r.database} | ${fmt(r.raw)} | ${fmt(r.http)} | ${pct(r.http / r.raw)} | ${fmt(r.mqtt)} | ${pct(r.mqtt / r.raw)} | ${verdict(ok)} |`;
  }),
  '',
  `Targets: HTTP ≥ ${fmt(TARGETS.http)} samples/s, MQTT ≥ ${fmt(TARGETS.mqtt)} samples/s, each ≥ ${pct(TARGETS.shareOfRaw)} of the raw insert rate.`,
];
console.log(`\n${lines.join('\n')}`);
const partial = DATABASES.length !== 2 || ONLY.size !== 3 || Boolean(process.env.BENCH_CPU_PROF);
const docsWritten = WRITE_DOCS && !partial;
if (docsWritten)
  writeBenchmarkSection({
    name: 'telemetry-ingest',
    script: 'bench/telemetry-ingest.mjs',
    heading: 'Telemetry ingest',
    section: lines.join('\n'),
  });
writeResults('telemetry-ingest', {
  script: 'bench/telemetry-ingest.mjs',
  title: 'Telemetry ingest',
  env,
  figures: results.flatMap((r) =>
    [
      { transport: 'HTTP', rate: r.http, floor: TARGETS.http },
      { transport: 'MQTT', rate: r.mqtt, floor: TARGETS.mqtt },
    ].map(({ transport, rate, floor }) =>
      figure({
        name: `${transport} ingest, ${r.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: committed samples/s`,
        value: rate,
        unit: 'samples/s',
        target: `≥ ${fmt(floor)} samples/s and ≥ ${pct(TARGETS.shareOfRaw)} of raw`,
        met: rate >= floor && rate / r.raw >= TARGETS.shareOfRaw,
        raw: {
          name: `plain batched inserts, ${r.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
          value: r.raw,
          unit: 'rows/s',
          share: rate / r.raw,
        },
      }),
    ),
  ),
  partial,
  docsWritten,
  settings: { seconds: SECONDS, databases: DATABASES, only: [...ONLY] },
});
