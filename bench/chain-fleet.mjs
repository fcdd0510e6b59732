// A chain's organisation of 50 000 devices (`npm run bench:chain-fleet`), on SQLite and then on
// PostgreSQL (BENCH_POSTGRES_URL, bench/lib/postgres.mjs; skipped with a note when unreachable):
// starts the real server (test-support/server.mjs) on a fresh database, builds the fleet through the
// operator CLI (`seed:fleet`: 1 000 addresses, 4 000 rooms, 50 000 devices, BENCH_DAYS days of
// hourly and daily rollups, 30 by default), gives it a day of life (bench/lib/fleet-life.mjs), signs
// its admin in, and measures (bench/lib/console-pages.mjs) in Debian's Chromium and with fetch:
//   1. `GET /api/devices/stat`: its size (target at most 10 MB of JSON) and p95 one request at a
//      time (target under 100 ms; raw limit: a bare Fastify hello-world asked the same way);
//   2. the dashboard page ready: counters and first table row painted (target under 1.5 s);
//   3. the devices page: navigation → first row painted (target under 1.5 s), and search typed →
//      filtered rows painted (target under 100 ms);
//   4. the reference data on entry: navigation → the last reference list's answer ended, which
//      the account pages wait for (target under 1 s).
// Pages are opened in fresh browser contexts, BENCH_RUNS times after a warm-up (default 3).
// BENCH_DEVICES (default 50000; addresses are a fiftieth), BENCH_REQUESTS (default 100),
// BENCH_DATABASES (default `sqlite,postgres`); BENCH_QUICK=1 shortens them (2000 devices, 2 days,
// 20 requests, 1 run) and leaves docs alone. BENCH_NO_DOCS=1: leave docs alone.
// E2E_SKIP_BUILD=1: measure the built files as they are. Results: bench/results/chain-fleet.json.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test-support/chromium.mjs';
import { apiLogin, buildIfNeeded, runCli, seedFixtures, startServer } from '../test-support/server.mjs';
import { helloWorldLatency } from './lib/baselines.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import {
  measureDashboardPage,
  measureFilters,
  measureStat,
  median,
  openDevicesPage,
} from './lib/console-pages.mjs';
import { liven } from './lib/fleet-life.mjs';
import { machine } from './lib/machine.mjs';
import { postgresDatabase } from './lib/postgres.mjs';
import { figure, NO_RAW_BROWSER, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';

const TARGETS = {
  statBytes: 10_000_000,
  statP95Ms: 100,
  dashboardMs: 1500,
  entryMs: 1500,
  filterMs: 100,
  referenceMs: 1000,
};
const DEVICES = Math.max(50, setting('BENCH_DEVICES', 50_000, 2000));
const DAYS = Math.max(0, setting('BENCH_DAYS', 30, 2));
const REQUESTS = Math.max(10, setting('BENCH_REQUESTS', 100, 20));
const RUNS = Math.max(1, setting('BENCH_RUNS', 3, 1));
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((name) => name.trim());
/** Search terms typed one after another: narrow, none, wide, back to everything. */
const TERMS = ['rational', 'kc-1-00012', 'нет такого', 'pro', 'фритюр', ''];

const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (value) => (Number.isFinite(value) ? `${fmt(value)} ms` : '—');
const verdict = (met) => (met ? 'met' : '**MISSED**');

/** Builds the fleet on a fresh server over `databaseUrl` (a fresh SQLite file when undefined) and measures it. */
async function measureOn(label, databaseUrl, browser) {
  const server = await startServer({ env: databaseUrl ? { DATABASE_URL: databaseUrl } : {} });
  try {
    const logins = seedFixtures({ databaseUrl: server.databaseUrl });
    let started = performance.now();
    const args = ['seed:fleet', '--org', String(logins.organisationId), '--devices', String(DEVICES)];
    args.push('--addresses', String(Math.max(1, Math.round(DEVICES / 50))));
    if (DAYS > 0) args.push('--days', String(DAYS));
    console.log(
      `${label}: ${runCli(args, server).trim()} (${fmt((performance.now() - started) / 1000, 1)} s)`,
    );
    const seedSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const smart = await liven(server.databaseUrl, logins.organisationId);
    console.log(
      `${label}: gave ${fmt(smart)} smart devices a day of life (${fmt((performance.now() - started) / 1000, 1)} s)`,
    );
    const admin = await apiLogin(server.baseURL, logins.admin);

    const stat = await measureStat(server.baseURL, admin.cookieHeader, {
      requests: REQUESTS,
      devices: DEVICES,
    });
    console.log(
      `${label}: GET /api/devices/stat p50 ${fmt(stat.p50, 1)} ms, p95 ${fmt(stat.p95, 1)} ms, ` +
        `${fmt(stat.jsonBytes)} bytes of JSON (${fmt(stat.wireBytes)} ${stat.encoding})`,
    );
    const dashboard = await measureDashboardPage(browser, server.baseURL, admin.cookies, RUNS);
    const entries = [];
    let last;
    for (let run = 0; run < RUNS + 1; run += 1) {
      const opened = await openDevicesPage(browser, server.baseURL, admin.cookies);
      // The first run warms the server's caches and the disk; it is not counted.
      if (run > 0) entries.push(opened.figures);
      console.log(
        `${label}: devices page run ${run}${run === 0 ? ' (warm-up)' : ''}: first row painted at ` +
          `${ms(opened.figures.painted)}, reference data at ${ms(opened.figures.reference)}`,
      );
      if (last) await last.context.close();
      last = opened;
    }
    const filters = await measureFilters(last.page, TERMS);
    await last.context.close();
    return { label, seedSeconds, smart, stat, dashboard, entries, filters };
  } finally {
    await server.stop();
  }
}

function summarise(result) {
  const filterTimes = result.filters.filter((f) => Number.isFinite(f.ms)).map((f) => f.ms);
  const reference = [...result.dashboard.reference, ...result.entries.map((e) => e.reference)];
  return {
    entry: median(result.entries.map((e) => e.painted)),
    entryWorst: Math.max(...result.entries.map((e) => e.painted)),
    filterWorst: filterTimes.length ? Math.max(...filterTimes) : Number.NaN,
    filterMedian: filterTimes.length ? median(filterTimes) : Number.NaN,
    reference: median(reference),
    referenceWorst: Math.max(...reference),
  };
}

function rows(result, hello) {
  const { stat, dashboard } = result;
  const s = summarise(result);
  const db = result.label;
  return [
    `| ${db} | \`GET /api/devices/stat\`: size of the JSON (${fmt(stat.wireBytes / 1e6, 2)} MB ${stat.encoding} on the wire) | **${fmt(stat.jsonBytes / 1e6, 2)} MB** | | at most ${fmt(TARGETS.statBytes / 1e6)} MB | ${verdict(stat.jsonBytes <= TARGETS.statBytes)} |`,
    `| ${db} | \`GET /api/devices/stat\`, one request at a time (${REQUESTS}): p95 (p50, p99) | **${fmt(stat.p95, 1)} ms** (${fmt(stat.p50, 1)}, ${fmt(stat.p99, 1)}) | hello-world p95 ${fmt(hello.p95, 1)} ms | < ${TARGETS.statP95Ms} ms | ${verdict(stat.p95 < TARGETS.statP95Ms)} |`,
    `| ${db} | dashboard page ready (counters and the first table row painted), median of ${RUNS} (worst) | **${ms(dashboard.median)}** (${ms(dashboard.worst)}) | | < ${ms(TARGETS.dashboardMs)} | ${verdict(dashboard.median < TARGETS.dashboardMs)} |`,
    `| ${db} | devices page: navigation → first row painted, median of ${RUNS} (worst) | **${ms(s.entry)}** (${ms(s.entryWorst)}) | | < ${ms(TARGETS.entryMs)} | ${verdict(s.entry < TARGETS.entryMs)} |`,
    `| ${db} | devices page: search typed → rows painted, worst of ${result.filters.length} (median) | **${ms(s.filterWorst)}** (${ms(s.filterMedian)}) | | < ${ms(TARGETS.filterMs)} | ${verdict(s.filterWorst < TARGETS.filterMs)} |`,
    `| ${db} | reference data on entry: navigation → the last list's answer, median of ${reference(result)} (worst) | **${ms(s.reference)}** (${ms(s.referenceWorst)}) | | < ${ms(TARGETS.referenceMs)} | ${verdict(s.reference < TARGETS.referenceMs)} |`,
  ];
}

const reference = (result) => result.dashboard.reference.length + result.entries.length;

function figuresOf(result, hello) {
  const { stat, dashboard, label } = result;
  const s = summarise(result);
  const devices = `${fmt(DEVICES)} devices, ${label}`;
  return [
    figure({
      name: `\`GET /api/devices/stat\` (${devices}): JSON size`,
      value: stat.jsonBytes / 1e6,
      unit: 'MB',
      detail: `${fmt(stat.wireBytes / 1e6, 2)} MB ${stat.encoding}`,
      target: `≤ ${fmt(TARGETS.statBytes / 1e6)} MB`,
      met: stat.jsonBytes <= TARGETS.statBytes,
      rawNote: 'none applies (a size)',
    }),
    figure({
      name: `\`GET /api/devices/stat\` (${devices}), one request at a time: p95`,
      value: stat.p95,
      unit: 'ms',
      detail: `p50 ${fmt(stat.p50, 1)} ms, p99 ${fmt(stat.p99, 1)} ms`,
      target: `p95 < ${TARGETS.statP95Ms} ms`,
      met: stat.p95 < TARGETS.statP95Ms,
      raw: { name: 'bare Fastify hello-world, one request at a time: p95', value: hello.p95, unit: 'ms' },
    }),
    figure({
      name: `dashboard page ready in Chromium (${devices}): median of ${RUNS}`,
      value: dashboard.median,
      unit: 'ms',
      detail: `worst ${ms(dashboard.worst)}`,
      target: `< ${ms(TARGETS.dashboardMs)}`,
      met: dashboard.median < TARGETS.dashboardMs,
      rawNote: NO_RAW_BROWSER,
    }),
    figure({
      name: `devices page entry in Chromium (${devices}): median of ${RUNS}`,
      value: s.entry,
      unit: 'ms',
      detail: `worst ${ms(s.entryWorst)}`,
      target: `< ${ms(TARGETS.entryMs)}`,
      met: s.entry < TARGETS.entryMs,
      rawNote: NO_RAW_BROWSER,
    }),
    figure({
      name: `devices page filter-to-paint (${devices}): worst of ${result.filters.length}`,
      value: s.filterWorst,
      unit: 'ms',
      detail: `median ${ms(s.filterMedian)}`,
      target: `< ${ms(TARGETS.filterMs)}`,
      met: s.filterWorst < TARGETS.filterMs,
      rawNote: NO_RAW_BROWSER,
    }),
    figure({
      name: `reference data on entry in Chromium (${devices}): median of ${reference(result)}`,
      value: s.reference,
      unit: 'ms',
      detail: `worst ${ms(s.referenceWorst)}`,
      target: `< ${ms(TARGETS.referenceMs)}`,
      met: s.reference < TARGETS.referenceMs,
      rawNote: NO_RAW_BROWSER,
    }),
  ];
}

const env = machine();
console.log(
  `chain fleet — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
);
buildIfNeeded();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
const results = [];
const skipped = [];
try {
  for (const name of DATABASES) {
    if (name === 'sqlite') results.push(await measureOn('SQLite', undefined, browser));
    else if (name === 'postgres') {
      let database;
      try {
        database = await postgresDatabase();
      } catch (error) {
        skipped.push(`PostgreSQL: not reachable (${error.message})`);
        console.log(skipped.at(-1));
        continue;
      }
      try {
        results.push(await measureOn('PostgreSQL', database.url, browser));
      } finally {
        await database.drop();
      }
    } else throw new Error(`BENCH_DATABASES: unknown database ${name}`);
  }
} finally {
  await browser.close();
}
const hello = await helloWorldLatency(REQUESTS);

const section = [
  `Measured ${env.date} by \`node bench/chain-fleet.mjs\` at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}).`,
  '',
  `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}; ${env.chromium}, headless, no throttling. Server, browser and client share the machine.`,
  '',
  `Fleet: one organisation of ${fmt(DEVICES)} devices at ${fmt(Math.round(DEVICES / 50))} addresses (\`seed:fleet\`, ${DAYS} days of rollups), ` +
    `the smart ones with live rows, a week of washes and open events on one in twenty. ` +
    results
      .map((r) => `${r.label}: seeded in ${fmt(r.seedSeconds)} s, ${fmt(r.smart)} smart devices.`)
      .join(' '),
  ...skipped.map((line) => `\n${line}.`),
  '',
  '| database | measure | figure | raw limit, same run | target | verdict |',
  '|---|---|---:|---|---|---|',
  ...results.flatMap((result) => rows(result, hello)),
].join('\n');
console.log(`\n${section}`);
const docsWritten = WRITE_DOCS && skipped.length === 0;
if (docsWritten)
  writeBenchmarkSection({
    name: 'chain-fleet',
    script: 'bench/chain-fleet.mjs',
    heading: 'Chain fleet',
    section,
  });
writeResults('chain-fleet', {
  script: 'bench/chain-fleet.mjs',
  title: 'Chain fleet',
  env,
  figures: results.flatMap((result) => figuresOf(result, hello)),
  partial: skipped.length > 0,
  docsWritten,
  settings: { devices: DEVICES, days: DAYS, requests: REQUESTS, runs: RUNS, databases: DATABASES },
});
