// Retention of raw samples on PostgreSQL (`npm run bench:retention`): the real server
// (test-support/server.mjs) on a database of its own (BENCH_POSTGRES_URL, bench/lib/postgres.mjs),
// its raw samples partitioned by day (docs/telemetry.md, "Storage and retention"). A day of
// BENCH_DEVICES devices (50 000) sending a sample every BENCH_SAMPLE_SECONDS (60) is written
// straight into that day's partition, 100 days back (past the default 90 days of retention), and
// checkpointed. Then, while BENCH_INGEST_DEVICES devices (500) post their samples over HTTP at
// BENCH_INGEST_RATE samples a second in all (5 000: 10 a request, one request a second each),
// retention drops the day as the maintenance job does (`dropSamplePartitionsBefore`): detached
// from the table, then the detached table dropped.
// Targets: the day out of the table in under a second; ingest not blocked: the acknowledgements'
// p99 in the 10 s from the retention's start within 20 % of the 15 s before it, every request
// answered 202. The drop's time is the filesystem's (freeing the day's gigabytes): shown beside a
// synced file of the same size deleted in the same run.
// Raw limits, same run: writing the day with plain `insert … select` into the same table (rows/s),
// deleting a file of the day's size, and a bare Fastify hello-world asked one request at a time by
// the same client (p99), beside the acknowledgements.
// BENCH_QUICK=1: 2 000 devices, 100 ingest devices, shorter phases; docs left alone.
// BENCH_WARM_UP: seconds of ingest not counted (20). BENCH_NO_DOCS=1: leave docs alone.
// BENCH_CPU_PROF=<dir>: the server runs under V8's profiler, its profile left in <dir>.
// E2E_SKIP_BUILD=1: measure the built files as they are. Results: bench/results/telemetry-retention.json.
import {
  closeSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { helloWorldLatency, percentile } from './lib/baselines.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { machine } from './lib/machine.mjs';
import { postgresDatabase } from './lib/postgres.mjs';
import { figure, QUICK, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';
import { issueCredentials } from '../test-support/devices.mjs';
import {
  ROOT,
  UNLIMITED_DEVICES_ENV,
  buildIfNeeded,
  seedFleetAndSignIn,
  startServer,
} from '../test-support/server.mjs';

/** The day out of the table in under a second; acks' p99 meanwhile within 20 % of before it. */
const TARGETS = { dropMs: 1000, ackGrowth: 0.2 };
const DEVICES = setting('BENCH_DEVICES', 50_000, 2000);
const SAMPLE_SECONDS = setting('BENCH_SAMPLE_SECONDS', 60, 60);
const INGEST_DEVICES = setting('BENCH_INGEST_DEVICES', 500, 100);
const INGEST_RATE = setting('BENCH_INGEST_RATE', 5000, 1000);
/**
 * Seconds of ingest before the retention (the first `WARM_UP` not counted: 500 devices' first
 * requests, each reading its device and live state, take about 15 s to settle here), and after
 * its start.
 */
const WARM_UP = setting('BENCH_WARM_UP', 20, 5);
const BEFORE = QUICK ? 5 : 15;
const AFTER = 10;
const DAY_MS = 86_400_000;
/** The day dropped: 100 days back, past the default retention of 90. */
const DAYS_BACK = 100;

const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const { createDb, dropSamplePartitionsBefore, ensureSamplePartitions, samplePartitionName } = await import(
  pathToFileURL(join(ROOT, 'packages/db/dist/index.js')).href
);

/**
 * `devices` devices each posting `perRequest` samples a request, spread over each second, until
 * `until`: every request's start (epoch ms), time to its answer and status.
 */
async function ingestLoad(baseURL, devices, perSecond, until) {
  const perRequest = Math.max(1, Math.round(perSecond / devices.length));
  const records = [];
  let ts = Date.now() - 600_000;
  const next = () => (ts += 1);
  await Promise.all(
    devices.map(async (device, index) => {
      // Devices start spread over the first second, then each posts once a second.
      await sleep((index / devices.length) * 1000);
      for (let due = Date.now(); due < until; due += 1000) {
        const wait = due - Date.now();
        if (wait > 0) await sleep(wait);
        const samples = Array.from({ length: perRequest }, () => ({
          ts: next(),
          current: 12.5,
          temperature: 180,
          door_open: false,
          state: 'cooking',
        }));
        const start = Date.now();
        const began = performance.now();
        let status;
        try {
          const response = await fetch(`${baseURL}/api/ingest/v1/telemetry`, {
            method: 'POST',
            headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
            body: JSON.stringify(samples),
          });
          await response.arrayBuffer();
          status = response.status;
        } catch {
          status = 0;
        }
        records.push({ start, ms: performance.now() - began, status });
      }
    }),
  );
  return { records, perRequest };
}

/**
 * The raw limit of giving a day's bytes back to the filesystem: a file of `bytes` written and
 * synced in the temporary folder, then deleted (milliseconds), and whether that folder is on the
 * filesystem of PostgreSQL's data (`sameFilesystem`: null when the data folder cannot be read).
 */
function deleteFileOfSize(bytes, dataDirectory) {
  const folder = mkdtempSync(join(tmpdir(), 'kontrol-retention-'));
  const file = join(folder, 'day.bin');
  try {
    const chunk = Buffer.alloc(16 * 1024 * 1024);
    const fd = openSync(file, 'w');
    for (let written = 0; written < bytes; written += chunk.length) writeSync(fd, chunk);
    fsyncSync(fd);
    closeSync(fd);
    const started = performance.now();
    unlinkSync(file);
    const ms = performance.now() - started;
    let sameFilesystem = null;
    try {
      sameFilesystem = statSync(dataDirectory).dev === statSync(folder).dev;
    } catch {
      // PostgreSQL's data folder is another user's or on another machine.
    }
    return { ms, sameFilesystem };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function latencies(records) {
  const times = records.map((record) => record.ms).sort((a, b) => a - b);
  return {
    count: times.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times[times.length - 1],
    failed: records.filter((record) => record.status !== 202).length,
  };
}

/** Writes the day, runs the ingest, drops the day in the middle of it: every figure of the run. */
async function measure() {
  const database = await postgresDatabase();
  const profileDir = process.env.BENCH_CPU_PROF;
  const server = await startServer({
    env: { DATABASE_URL: database.url, DATABASE_POOL_MAX: '10', ...UNLIMITED_DEVICES_ENV },
    nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
  });
  const handle = createDb(database.url, { poolMax: 2 });
  try {
    // About half of a seeded fleet is smart (has a controller id).
    const { admin } = await seedFleetAndSignIn(server, INGEST_DEVICES * 2);
    const devices = await issueCredentials(server.baseURL, admin, INGEST_DEVICES);

    // The old day, written as plainly as the database allows: one `insert … select`, device by device.
    const day = Math.floor(Date.now() / DAY_MS) - DAYS_BACK;
    await ensureSamplePartitions(handle.db, [day]);
    const partition = samplePartitionName(day);
    const perDevice = Math.floor(86_400 / SAMPLE_SECONDS);
    const rows = DEVICES * perDevice;
    console.log(`writing ${fmt(rows)} samples into ${partition} …`);
    const seedStarted = performance.now();
    const { pool } = handle.driver;
    // In slices of devices, so that no single statement holds gigabytes of WAL.
    const SLICE = 2500;
    for (let first = 1; first <= DEVICES; first += SLICE) {
      await pool.query(
        `insert into telemetry_samples (device_id, ts, current, temperature, door_open, state)
         select d, $1::int8 + s * $2::int8, 12.5, 180, 0, 3
           from generate_series($3::int4, $4::int4) d, generate_series(0, $5::int4 - 1) s`,
        [day * DAY_MS, SAMPLE_SECONDS * 1000, first, Math.min(DEVICES, first + SLICE - 1), perDevice],
      );
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    await pool.query('checkpoint');
    const { rows: sized } = await pool.query(
      `select pg_total_relation_size($1::regclass)::int8 as bytes, (select count(*) from pg_inherits
         where inhparent = 'telemetry_samples'::regclass)::int as partitions`,
      [partition],
    );
    const bytes = Number(sized[0].bytes);
    console.log(
      `written in ${fmt(seedSeconds, 1)} s (${fmt(rows / seedSeconds)} rows/s), ${fmt(bytes / 1e9, 2)} GB, ${sized[0].partitions} partitions`,
    );

    // Ingest, then the drop in the middle of it.
    const started = Date.now();
    const until = started + (WARM_UP + BEFORE + AFTER) * 1000;
    const load = ingestLoad(server.baseURL, devices, INGEST_RATE, until);
    await sleep((WARM_UP + BEFORE) * 1000);
    const dropStart = Date.now();
    const dropped = await dropSamplePartitionsBefore(handle.db, (day + 1) * DAY_MS);
    const dropEnd = Date.now();
    const { records, perRequest } = await load;
    const ours = dropped.find((d) => d.day === day);
    if (!ours) throw new Error(`the day ${partition} was not dropped: ${JSON.stringify(dropped)}`);
    const { detachMs, dropMs } = ours;
    const { rows: left } = await pool.query('select to_regclass($1) as still', [partition]);
    if (left[0].still !== null) throw new Error(`${partition} is still there`);

    // Each 5 s of the load, for a reader who wants to see when it settled.
    for (let from = started; from < until; from += 5000) {
      const part = latencies(records.filter((r) => r.start >= from && r.start < from + 5000));
      console.log(
        `acks, s ${(from - started) / 1000}–${(from - started) / 1000 + 5}: p50 ${fmt(part.p50, 1)} ms, p99 ${fmt(part.p99, 1)} ms (${part.count})`,
      );
    }
    const before = latencies(
      records.filter((r) => r.start >= started + WARM_UP * 1000 && r.start < dropStart),
    );
    const during = latencies(
      records.filter((r) => r.start >= dropStart && r.start < dropStart + AFTER * 1000),
    );
    const overlapping = latencies(records.filter((r) => r.start <= dropEnd && r.start + r.ms >= dropStart));
    const all = latencies(records.filter((r) => r.start >= started + WARM_UP * 1000));
    const hello = await helloWorldLatency(200);
    const { rows: data } = await pool.query('show data_directory');
    const fileDelete = deleteFileOfSize(bytes, data[0].data_directory);
    return {
      rows,
      perDevice,
      bytes,
      seedSeconds,
      detachMs,
      dropMs,
      fileDelete,
      before,
      during,
      overlapping,
      all,
      hello,
      perRequest,
    };
  } finally {
    await handle.close();
    await server.stop();
    await database.drop();
  }
}

const env = machine();
console.log(
  `telemetry retention — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
);
buildIfNeeded();
const {
  rows,
  bytes,
  seedSeconds,
  detachMs,
  dropMs,
  fileDelete,
  before,
  during,
  overlapping,
  all,
  hello,
  perRequest,
} = await measure();
const ackMet = during.p99 <= before.p99 * (1 + TARGETS.ackGrowth) && all.failed === 0;
const verdict = (met) => (met ? 'met' : '**MISSED**');
const ms = (value) => `${fmt(value, 1)} ms`;
const where =
  fileDelete.sameFilesystem === null
    ? "in the temporary folder (PostgreSQL's filesystem unknown)"
    : fileDelete.sameFilesystem
      ? "on PostgreSQL's filesystem"
      : "in the temporary folder, another filesystem than PostgreSQL's";
const section = [
  `Measured ${env.date} by \`node bench/telemetry-retention.mjs\` at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}).`,
  '',
  `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}. PostgreSQL, server and clients share the machine.`,
  '',
  `The day: ${fmt(DEVICES)} devices, a sample every ${SAMPLE_SECONDS} s each: ${fmt(rows)} samples, ${fmt(bytes / 1e9, 2)} GB with its index, ` +
    `one partition, ${DAYS_BACK} days back. Ingest meanwhile: ${fmt(INGEST_DEVICES)} devices over HTTP, ${perRequest} samples a request, ` +
    `one request a second each (${fmt(INGEST_DEVICES * perRequest)} samples/s), ${BEFORE} s before the retention and ${AFTER} s from its start.`,
  '',
  '| measure | figure | raw limit, same run | target | verdict |',
  '|---|---:|---|---|---|',
  `| the day out of \`telemetry_samples\` (\`detach partition … concurrently\`) | **${ms(detachMs)}** | writing the day: ${fmt(seedSeconds, 1)} s of plain \`insert … select\`, ${fmt(rows / seedSeconds)} rows/s | < ${fmt(TARGETS.dropMs)} ms | ${verdict(detachMs < TARGETS.dropMs)} |`,
  `| its ${fmt(bytes / 1e9, 2)} GB given back to the filesystem (\`drop table\` of the detached day) | ${ms(dropMs)} | a synced file of the same size deleted ${where}: ${ms(fileDelete.ms)} | | |`,
  `| ingest acknowledgements in the ${AFTER} s from the retention's start: p99 (p50, worst) | **${ms(during.p99)}** (${ms(during.p50)}, ${ms(during.max)}) | bare Fastify hello-world, one request at a time: p99 ${ms(hello.p99)} | p99 within ${TARGETS.ackGrowth * 100} % of the ${BEFORE} s before, all 202 | ${verdict(ackMet)} |`,
  `| ingest acknowledgements in the ${BEFORE} s before it: p99 (p50, worst) | ${ms(before.p99)} (${ms(before.p50)}, ${ms(before.max)}) | | | |`,
  `| requests in flight while it ran: worst | ${ms(overlapping.max)} (${fmt(overlapping.count)} requests) | | | |`,
  `| requests not answered 202 | ${fmt(all.failed)} of ${fmt(all.count)} | | none | ${verdict(all.failed === 0)} |`,
].join('\n');
console.log(`\n${section}`);
if (WRITE_DOCS)
  writeBenchmarkSection({
    name: 'telemetry-retention',
    script: 'bench/telemetry-retention.mjs',
    heading: 'Telemetry retention',
    section,
  });
writeResults('telemetry-retention', {
  script: 'bench/telemetry-retention.mjs',
  title: 'Telemetry retention',
  env,
  figures: [
    figure({
      name: `PostgreSQL: a day of ${fmt(DEVICES)} devices' raw samples (${fmt(rows)}) out of the table by retention`,
      value: detachMs,
      unit: 'ms',
      detail: `${fmt(bytes / 1e9, 2)} GB, then dropped in ${ms(dropMs)} (a file of that size deleted: ${ms(fileDelete.ms)})`,
      target: `< ${fmt(TARGETS.dropMs)} ms`,
      met: detachMs < TARGETS.dropMs,
      raw: {
        name: 'writing the day with plain inserts into the same table',
        value: seedSeconds * 1000,
        unit: 'ms',
      },
    }),
    figure({
      name: `PostgreSQL: HTTP ingest acknowledgements while the day is dropped, p99`,
      value: during.p99,
      unit: 'ms',
      detail: `worst ${ms(during.max)}, ${ms(before.p99)} before; ${all.failed} not 202`,
      target: `p99 within ${TARGETS.ackGrowth * 100} % of before, all 202`,
      met: ackMet,
      raw: { name: 'bare Fastify hello-world, one request at a time: p99', value: hello.p99, unit: 'ms' },
    }),
  ],
  partial: false,
  docsWritten: WRITE_DOCS,
  settings: {
    devices: DEVICES,
    sampleSeconds: SAMPLE_SECONDS,
    ingestDevices: INGEST_DEVICES,
    ingestRate: INGEST_RATE,
  },
});
