// Durable telemetry ingest (`npm run bench:ingest`): the real server (bench/lib/server.mjs) with
// the embedded MQTT broker, devices with real credentials, and for each transport a load that
// keeps the pipeline busy for BENCH_SECONDS: over HTTP, 8 clients posting batches of 1 000
// samples (202 = committed); over MQTT, 100 device connections publishing QoS 1 messages of 100
// samples, 4 in flight each (PUBACK = committed). Only acknowledged, stored samples count. Beside
// them, in the same run, the raw limit: plain batched inserts of the same rows into the same table
// (a database of its own, 5 000 rows per transaction, prepared statements / `unnest`), no HTTP,
// no MQTT, no validation, no rollups.
// Targets (issue #5): ≥ 50 000 samples/s over MQTT and ≥ 100 000 over HTTP on this 2-core machine,
// each at least 40 % of the raw insert rate; on SQLite and on PostgreSQL.
//
// BENCH_DATABASE=sqlite|postgres|both (default both; postgres needs BENCH_POSTGRES_URL, default
// postgres://postgres@127.0.0.1:5432/test, where a database of its own is created and dropped).
// BENCH_SECONDS (default 10; 3 with BENCH_QUICK=1, which also leaves docs alone). BENCH_NO_DOCS=1: do
// not rewrite docs/benchmarks.md. Results: bench/results/telemetry-ingest.json (bench/lib/results.mjs).
// BENCH_ONLY=http|mqtt|raw (comma-separated) measures a part; BENCH_CPU_PROF=<dir> profiles the server.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import mqtt from 'mqtt';
import pg from 'pg';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { issueCredentials } from './lib/devices.mjs';
import { machine } from './lib/machine.mjs';
import { figure, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';
import {
  ROOT,
  UNLIMITED_DEVICES_ENV,
  buildIfNeeded,
  freePort,
  seedFleetAndSignIn,
  startServer,
} from './lib/server.mjs';

const SECONDS = Math.max(3, setting('BENCH_SECONDS', 10, 3));
const TARGETS = { mqtt: 50_000, http: 100_000, shareOfRaw: 0.4 };
const HTTP_CLIENTS = 8;
const HTTP_BATCH = 1_000;
const MQTT_DEVICES = 100;
const MQTT_BATCH = 100;
const MQTT_IN_FLIGHT = 4;
const RAW_BATCH = 5_000;
const SAMPLE_STEP_MS = 1_000;
const DATABASES =
  (process.env.BENCH_DATABASE ?? 'both') === 'both'
    ? ['sqlite', 'postgres']
    : [process.env.BENCH_DATABASE ?? 'sqlite'];
const ONLY = new Set((process.env.BENCH_ONLY ?? 'raw,http,mqtt').split(',').map((part) => part.trim()));
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const { createDb, migrateToLatest } = await import(
  pathToFileURL(join(ROOT, 'packages/db/dist/index.js')).href
);

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

/** Plain batched inserts of the same rows into the same table of a database of its own. */
async function rawInsert(databaseUrl) {
  const handle = createDb(databaseUrl, { poolMax: 4 });
  await migrateToLatest(handle.db);
  const columns = ['device_id', 'ts', 'current', 'temperature', 'door_open', 'state'];
  let rows = 0;
  let ts = Date.now() - 60 * 86_400_000;
  const deadline = Date.now() + SECONDS * 1000;
  const started = performance.now();
  try {
    if (handle.driver.dialect === 'sqlite') {
      const sqlite = handle.driver.sqlite;
      const insert = sqlite.prepare(
        `insert into telemetry_samples (${columns.join(', ')}) values (?, ?, ?, ?, ?, ?) on conflict do nothing`,
      );
      const batch = sqlite.transaction(() => {
        for (let k = 0; k < RAW_BATCH; k += 1) insert.run((k % 100) + 1, (ts += 10), 12.5, 180, 0, 3);
      });
      while (Date.now() < deadline) {
        batch.immediate();
        rows += RAW_BATCH;
      }
    } else {
      const client = await handle.driver.pool.connect();
      try {
        while (Date.now() < deadline) {
          const ids = [];
          const times = [];
          for (let k = 0; k < RAW_BATCH; k += 1) {
            ids.push((k % 100) + 1);
            times.push((ts += 10));
          }
          const fill = (value) => new Array(RAW_BATCH).fill(value);
          await client.query('begin');
          await client.query(
            `insert into telemetry_samples (${columns.join(', ')})
             select * from unnest($1::int4[], $2::int8[], $3::float8[], $4::float8[], $5::int2[], $6::int2[])
             on conflict do nothing`,
            [ids, times, fill(12.5), fill(180), fill(0), fill(3)],
          );
          await client.query('commit');
          rows += RAW_BATCH;
        }
      } finally {
        client.release();
      }
    }
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await handle.close();
  }
}

/** A PostgreSQL database of its own on the bench server; dropped by the returned function. */
async function postgresDatabase() {
  const name = `kontrol_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
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
    const raw = ONLY.has('raw') ? await rawInsert(rawUrl) : Number.NaN;
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
