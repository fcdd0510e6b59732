// Reading telemetry at scale (`npm run bench:telemetry-reads`): the real server on SQLite with 10
// million samples stored through its own HTTP ingest (1 000 devices, one sample a minute for a
// week; one of them with 30 days), then, signed in as the admin:
//   - a 30-day hourly chart of one device (`GET /api/telemetry/?resolution=hour`),
//   - a 24-hour worktime report of the 1 000 devices (`GET /api/devices/reports/worktime`),
//     BENCH_REQUESTS sequential requests each after a warm-up: p50, p95, p99;
//   - the CSV download of 1 million rows (100 devices × 10 000 samples), read to the end;
//   - the Excel download of 1 million notifications;
// with the server's resident memory sampled every 50 ms during each download.
// Targets: chart and report under 50 ms at p95; CSV ≥ 300 000 rows/s with peak memory
// under 200 MB; XLSX of 1 million rows under 30 s and 400 MB.
//
// Raw limits, measured in the same run: a bare Fastify hello-world asked one request at a time by the
// same client (for the chart and the report), and the same rows read straight from the SQLite file
// with better-sqlite3 (for the downloads; bench/lib/baselines.mjs).
//
// BENCH_DEVICES (default 1000), BENCH_SAMPLES_PER_DEVICE (default 10000), BENCH_REQUESTS (default
// 200), BENCH_NOTIFICATIONS (default 1000000); BENCH_QUICK=1 shortens them (50, 2000, 20, 20000)
// and leaves docs alone. BENCH_NO_DOCS=1: do not rewrite docs/benchmarks.md. Results:
// bench/results/telemetry-reads.json (bench/lib/results.mjs). To iterate on the reads without loading
// again: BENCH_SAVE_DB=<file> keeps a copy of the loaded database, BENCH_REUSE_DB=<file> starts
// from such a copy (no load, no docs).
// The server is restarted between the load and the reads, so the reads are measured on a server
// as it runs normally, not one whose heap still holds what the bulk load left behind.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { issueCredentials } from '../test-support/devices.mjs';
import { machine } from './lib/machine.mjs';
import {
  UNLIMITED_DEVICES_ENV,
  apiLogin,
  buildIfNeeded,
  seedFleetAndSignIn,
  startServer,
} from '../test-support/server.mjs';
import { plainSelectRate, startHelloWorld } from './lib/baselines.mjs';
import { figure, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';

const DEVICES = Math.max(2, setting('BENCH_DEVICES', 1000, 50));
const PER_DEVICE = Math.max(1, setting('BENCH_SAMPLES_PER_DEVICE', 10_000, 2000));
const REQUESTS = Math.max(10, setting('BENCH_REQUESTS', 200, 20));
const CSV_DEVICES = Math.min(100, DEVICES - 1);
const NOTIFICATIONS = Math.max(1, setting('BENCH_NOTIFICATIONS', 1_000_000, 20_000));
const MINUTE = 60_000;
const DAY = 86_400_000;
const TARGETS = { p95Ms: 50, csvRowsPerSecond: 300_000, csvMb: 200, xlsxSeconds: 30, xlsxMb: 400 };

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid) {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/** Samples the server's memory while `work` runs; returns its result, seconds and peak MB. */
async function withMemory(pid, work) {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - started) / 1000, peakMb: peak };
  } finally {
    clearInterval(timer);
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function latency(url, headers) {
  for (let i = 0; i < 20; i += 1) await (await fetch(url, { headers })).arrayBuffer();
  const times = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}

/** Reads a streamed body to its end, counting lines; returns the count. */
async function countLines(url, headers) {
  const res = await fetch(url, { headers });
  if (res.status !== 200)
    throw new Error(`${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) lines += 1;
  }
  return { lines, bytes };
}

const env = machine();
console.log(
  `telemetry reads — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
);
buildIfNeeded();
const REUSE = process.env.BENCH_REUSE_DB;
// The load sends weeks of history per device at once: the device limits are lifted for it.
const loader = await startServer({ env: { MQTT_PORT: '0', DEMO: '0', ...UNLIMITED_DEVICES_ENV } });
let server = loader;
let sent = 0;
let loadSeconds = Number.NaN;
/** @type {{ id: number }[]} */
let devices;
// The load's last sample: the minute an hour ago, or, reusing a database, the one saved with it.
let end = Math.floor(Date.now() / MINUTE) * MINUTE - 60 * MINUTE;
try {
  if (REUSE) {
    await loader.stop();
    const dir = (await import('node:fs')).mkdtempSync(
      join((await import('node:os')).tmpdir(), 'kontrol-reads-'),
    );
    copyFileSync(REUSE, join(dir, 'kontrol.db'));
    end = Number(readFileSync(`${REUSE}.end`, 'utf8'));
    server = await startServer({
      env: { MQTT_PORT: '0', DEMO: '0', DATABASE_URL: `sqlite:${join(dir, 'kontrol.db')}` },
    });
    const db = new Database(join(dir, 'kontrol.db'), { readonly: true });
    devices = db.prepare('select id from devices where credential_hash is not null order by id').all();
    db.close();
  } else {
    const { admin } = await seedFleetAndSignIn(server, Math.ceil(DEVICES / 0.55));
    devices = await issueCredentials(server.baseURL, admin, DEVICES);
    // 10 million samples through the real ingest: one a minute per device, ending an hour ago.
    const started = performance.now();
    const batches = [];
    for (const device of devices) {
      const count = device === devices[0] ? 30 * 1440 : PER_DEVICE;
      for (let from = 0; from < count; from += 5_000)
        batches.push({ device, from, count: Math.min(5_000, count - from), total: count });
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < batches.length) {
          const { device, from, count, total } = batches[next];
          next += 1;
          const samples = Array.from({ length: count }, (_, k) => {
            const minute = total - (from + k);
            const hourOfDay = Math.floor(((end - minute * MINUTE) % DAY) / 3_600_000);
            const working = hourOfDay >= 5 && hourOfDay < 17;
            return {
              ts: end - minute * MINUTE,
              current: working ? 18 : 0.8,
              temperature: working ? 180 : 25,
              door_open: false,
              state: working ? 'cooking' : 'idle',
            };
          });
          const res = await fetch(`${server.baseURL}/api/ingest/v1/telemetry`, {
            method: 'POST',
            headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
            body: JSON.stringify(samples),
          });
          if (res.status !== 202) throw new Error(`ingest answered ${res.status}`);
          sent += count;
          if (next % 200 === 0) console.log(`  stored ${sent.toLocaleString('en-US')} samples`);
        }
      }),
    );
    loadSeconds = (performance.now() - started) / 1000;
    console.log(
      `stored ${sent.toLocaleString('en-US')} samples in ${loadSeconds.toFixed(0)} s (load ended at ${end})`,
    );
    // A fresh server on the loaded database (see the header).
    await server.stop({ keepFiles: true });
    if (process.env.BENCH_SAVE_DB) {
      copyFileSync(server.databaseUrl.slice('sqlite:'.length), process.env.BENCH_SAVE_DB);
      writeFileSync(`${process.env.BENCH_SAVE_DB}.end`, String(end));
    }
    server = await startServer({ env: { MQTT_PORT: '0', DEMO: '0', DATABASE_URL: loader.databaseUrl } });
  }
  const admin = await apiLogin(server.baseURL, {
    email: 'admin@e2e.kontrol.test',
    password: 'kontrol-e2e-1234',
  });
  const headers = { cookie: admin.cookieHeader, accept: 'application/json', 'accept-encoding': 'gzip, br' };

  const chartUrl = `${server.baseURL}/api/telemetry/?devices=${devices[0].id}&start=${end - 30 * DAY}&finish=${end}&resolution=hour&metrics=current,temperature`;
  const chart = await latency(chartUrl, headers);
  console.log(`30-day hourly chart: p50 ${chart.p50.toFixed(1)} ms, p95 ${chart.p95.toFixed(1)} ms`);
  const day = new Date(end - 2 * DAY).toISOString().slice(0, 10);
  const reportUrl = `${server.baseURL}/api/devices/reports/worktime?start=${day}&finish=${day}&ids=${devices.map((d) => d.id).join(',')}`;
  const report = await latency(reportUrl, headers);
  console.log(
    `24-hour worktime report of ${devices.length} devices: p50 ${report.p50.toFixed(1)} ms, p95 ${report.p95.toFixed(1)} ms`,
  );
  // The raw limit of both: a bare Fastify asked the same way by the same client.
  const helloServer = await startHelloWorld(1);
  const hello = await latency(`${helloServer.baseURL}/`, {}).finally(() => helloServer.stop());
  console.log(`bare Fastify hello-world: p50 ${hello.p50.toFixed(1)} ms, p95 ${hello.p95.toFixed(1)} ms`);

  const csvIds = devices
    .slice(1, CSV_DEVICES + 1)
    .map((d) => d.id)
    .join(',');
  const csvUrl = `${server.baseURL}/api/telemetry/csv?devices=${csvIds}&start=${end - 30 * DAY}&finish=${end + MINUTE}&tz=Europe/Moscow`;
  const csvBaseline = rssMb(server.pid);
  const csv = await withMemory(server.pid, () => countLines(csvUrl, { cookie: admin.cookieHeader }));
  const csvRows = csv.result.lines - 1;
  console.log(
    `CSV: ${csvRows.toLocaleString('en-US')} rows in ${csv.seconds.toFixed(1)} s = ${Math.round(csvRows / csv.seconds)} rows/s, peak ${csv.peakMb.toFixed(0)} MB (before ${csvBaseline.toFixed(0)} MB)`,
  );
  const databaseFile = server.databaseUrl.slice('sqlite:'.length);
  // The raw limit: the same rows read straight from the file, no HTTP, no formatting.
  const csvRaw = plainSelectRate(
    databaseFile,
    `select ts, current, temperature, door_open, state, program, error_code, core_temperature, humidity
       from telemetry_samples where device_id in (${csvIds}) and ts >= ? and ts < ? order by device_id, ts`,
    [end - 30 * DAY, end + MINUTE],
  );
  console.log(
    `plain select of the same rows: ${csvRaw.rows.toLocaleString('en-US')} rows, ${Math.round(csvRaw.rowsPerSecond)} rows/s`,
  );

  // A million notifications of the admin, written straight into the database.
  const db = new Database(databaseFile);
  db.pragma('busy_timeout = 10000');
  const insert = db.prepare(
    `insert into notifications (organisation_id, user_id, kind, severity, title, body, device_id, event_id, created_at, read_at)
     values (?, ?, 'current_above', 'warning', ?, 'Ток выше нормы: 42 А при норме до 30 А', null, null, ?, null)`,
  );
  const adminRow = db
    .prepare('select id, organisation_id from users where email = ?')
    .get('admin@e2e.kontrol.test');
  db.transaction(() => {
    for (let i = 0; i < NOTIFICATIONS; i += 1)
      insert.run(
        adminRow.organisation_id,
        adminRow.id,
        `Печь №${i % 1000}`,
        new Date(end - i * 1000).toISOString(),
      );
  })();
  db.close();
  const xlsxBaseline = rssMb(server.pid);
  const xlsx = await withMemory(server.pid, () =>
    countLines(`${server.baseURL}/api/notifications/excel?tz=Europe/Moscow`, { cookie: admin.cookieHeader }),
  );
  const xlsxRaw = plainSelectRate(
    databaseFile,
    `select id, kind, severity, title, body, device_id, event_id, created_at, read_at
       from notifications where user_id = ? order by id desc`,
    [adminRow.id],
  );
  console.log(
    `XLSX: ${NOTIFICATIONS.toLocaleString('en-US')} rows, ${(xlsx.result.bytes / 1e6).toFixed(0)} MB file in ${xlsx.seconds.toFixed(1)} s, peak ${xlsx.peakMb.toFixed(0)} MB (before ${xlsxBaseline.toFixed(0)} MB)`,
  );

  const ok = (good) => (good ? 'met' : '**MISSED**');
  const ms = (n) => `${n.toFixed(1)} ms`;
  const rate = (n) => `${Math.round(n).toLocaleString('en-US')} rows/s`;
  const csvRate = csvRows / csv.seconds;
  const xlsxRate = NOTIFICATIONS / xlsx.seconds;
  const csvOk = csvRate >= TARGETS.csvRowsPerSecond && csv.peakMb < TARGETS.csvMb;
  const xlsxOk = xlsx.seconds < TARGETS.xlsxSeconds && xlsx.peakMb < TARGETS.xlsxMb;
  const lines = [
    `Run ${env.date} on ${env.nproc} cores (${env.cpu}), Node.js ${env.node}, commit ${env.commit} (${env.changed}). SQLite; ${sent.toLocaleString('en-US')} samples of ${devices.length} devices stored through the HTTP ingest in ${loadSeconds.toFixed(0)} s (with their rollups); ${REQUESTS} sequential requests per query after 20 warm-up ones, over HTTP on loopback with compression.`,
    '',
    '| measure | p50 | p95 | p99 | target | verdict |',
    '|---|---:|---:|---:|---|---|',
    `| 30-day hourly chart, one device | ${ms(chart.p50)} | ${ms(chart.p95)} | ${ms(chart.p99)} | p95 < ${TARGETS.p95Ms} ms | ${ok(chart.p95 < TARGETS.p95Ms)} |`,
    `| 24-hour worktime report, ${devices.length} devices | ${ms(report.p50)} | ${ms(report.p95)} | ${ms(report.p99)} | p95 < ${TARGETS.p95Ms} ms | ${ok(report.p95 < TARGETS.p95Ms)} |`,
    `| raw limit: bare Fastify hello-world (\`GET /\`), same client | ${ms(hello.p50)} | ${ms(hello.p95)} | ${ms(hello.p99)} | | |`,
    '',
    '| download | rows | time | rate | raw limit: the same rows read from SQLite | server peak memory (before) | target | verdict |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    `| CSV of ${CSV_DEVICES} devices | ${csvRows.toLocaleString('en-US')} | ${csv.seconds.toFixed(1)} s | ${rate(csvRate)} | ${rate(csvRaw.rowsPerSecond)} | ${csv.peakMb.toFixed(0)} MB (${csvBaseline.toFixed(0)} MB) | ≥ ${TARGETS.csvRowsPerSecond.toLocaleString('en-US')} rows/s, < ${TARGETS.csvMb} MB | ${ok(csvOk)} |`,
    `| XLSX of notifications | ${NOTIFICATIONS.toLocaleString('en-US')} | ${xlsx.seconds.toFixed(1)} s | ${rate(xlsxRate)} | ${rate(xlsxRaw.rowsPerSecond)} | ${xlsx.peakMb.toFixed(0)} MB (${xlsxBaseline.toFixed(0)} MB) | < ${TARGETS.xlsxSeconds} s, < ${TARGETS.xlsxMb} MB | ${ok(xlsxOk)} |`,
  ];
  console.log(`\n${lines.join('\n')}`);
  const docsWritten = WRITE_DOCS && !REUSE;
  if (docsWritten)
    writeBenchmarkSection({
      name: 'telemetry-reads',
      script: 'bench/telemetry-reads.mjs',
      heading: 'Telemetry reads and downloads',
      section: lines.join('\n'),
    });
  const helloRaw = (/** @type {number} */ value) => ({
    name: 'bare Fastify hello-world, one request at a time: p95',
    value,
    unit: 'ms',
  });
  writeResults('telemetry-reads', {
    script: 'bench/telemetry-reads.mjs',
    title: 'Telemetry reads and downloads',
    env,
    figures: [
      figure({
        name: '30-day hourly chart, one device: p95',
        value: chart.p95,
        unit: 'ms',
        detail: `p50 ${ms(chart.p50)}, p99 ${ms(chart.p99)}`,
        target: `p95 < ${TARGETS.p95Ms} ms`,
        met: chart.p95 < TARGETS.p95Ms,
        raw: helloRaw(hello.p95),
      }),
      figure({
        name: `24-hour worktime report, ${devices.length} devices: p95`,
        value: report.p95,
        unit: 'ms',
        detail: `p50 ${ms(report.p50)}, p99 ${ms(report.p99)}`,
        target: `p95 < ${TARGETS.p95Ms} ms`,
        met: report.p95 < TARGETS.p95Ms,
        raw: helloRaw(hello.p95),
      }),
      figure({
        name: `CSV download, ${csvRows.toLocaleString('en-US')} rows of ${CSV_DEVICES} devices`,
        value: csvRate,
        unit: 'rows/s',
        detail: `peak ${csv.peakMb.toFixed(0)} MB`,
        target: `≥ ${TARGETS.csvRowsPerSecond.toLocaleString('en-US')} rows/s, < ${TARGETS.csvMb} MB`,
        met: csvOk,
        raw: {
          name: 'the same rows read from SQLite',
          value: csvRaw.rowsPerSecond,
          unit: 'rows/s',
          share: csvRate / csvRaw.rowsPerSecond,
        },
      }),
      figure({
        name: `XLSX download, ${NOTIFICATIONS.toLocaleString('en-US')} notifications`,
        value: xlsx.seconds,
        unit: 's',
        detail: `${rate(xlsxRate)}, peak ${xlsx.peakMb.toFixed(0)} MB`,
        target: `< ${TARGETS.xlsxSeconds} s, < ${TARGETS.xlsxMb} MB`,
        met: xlsxOk,
        raw: {
          name: 'the same rows read from SQLite',
          value: xlsxRaw.rowsPerSecond,
          unit: 'rows/s',
          share: xlsxRate / xlsxRaw.rowsPerSecond,
        },
      }),
    ],
    partial: Boolean(REUSE),
    docsWritten,
    settings: {
      devices: DEVICES,
      samplesPerDevice: PER_DEVICE,
      requests: REQUESTS,
      notifications: NOTIFICATIONS,
      reusedDatabase: Boolean(REUSE),
    },
  });
} finally {
  await server.stop();
  if (server !== loader) await loader.stop();
}
