// The dashboard with a 5 000-device fleet (`npm run bench:dashboard`): starts the real server
// (test-support/server.mjs) on a fresh SQLite database, seeds an organisation with 5 000 devices through
// the operator CLI (its current templates included), then gives the fleet a day of life straight in
// the database (bench/lib/fleet-life.mjs): every smart device's live row (last online within the
// last two days, work starts), completed washes, and open device events on one device in twenty.
// Measures
//   1. `GET /api/devices/stat` (the whole fleet with the six counters): one request at a time, as a
//      dashboard asks, BENCH_REQUESTS times after a warm-up; p50/p95/p99 and the answer's size.
//      Target: p95 under 30 ms. Raw limit: a bare Fastify hello-world asked the same
//      way by the same client in the same run.
//   2. the dashboard page ready in Debian's Chromium: from navigation start until the six counters
//      and the first row of the device table have been painted (a fresh browser context each time,
//      nothing cached). The reference data of docs/contract.md, "Product and areas" loads first, so this includes it.
//      Target: under 1 s.
// BENCH_DEVICES (default 5000), BENCH_REQUESTS (default 300), BENCH_RUNS (default 5); BENCH_QUICK=1
// shortens them (500, 30, 2) and leaves docs alone. BENCH_NO_PAGE=1: the API only (a partial run:
// no docs). BENCH_NO_DOCS=1: leave docs alone. E2E_SKIP_BUILD=1: measure the built files as they are.
// Results: bench/results/dashboard.json (bench/lib/results.mjs).
import { chromium } from 'playwright-core';
import { helloWorldLatency } from './lib/baselines.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test-support/chromium.mjs';
import { measureDashboardPage, measureStat } from './lib/console-pages.mjs';
import { liven } from './lib/fleet-life.mjs';
import { buildIfNeeded, seedFleetAndSignIn, startServer } from '../test-support/server.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { machine } from './lib/machine.mjs';
import { figure, NO_RAW_BROWSER, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';

const TARGETS = { statP95Ms: 30, pageMs: 1000 };
const DEVICES = Math.max(1, setting('BENCH_DEVICES', 5000, 500));
const REQUESTS = Math.max(10, setting('BENCH_REQUESTS', 300, 30));
const RUNS = Math.max(1, setting('BENCH_RUNS', 5, 2));
const NO_PAGE = process.env.BENCH_NO_PAGE === '1';

const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const env = machine();
console.log(
  `dashboard — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
);
buildIfNeeded();
const server = await startServer();
try {
  const { admin, logins, seeded } = await seedFleetAndSignIn(server, DEVICES);
  console.log(seeded);
  const smart = await liven(server.databaseUrl, logins.organisationId);
  console.log(`gave ${smart} smart devices a day of life`);
  const stat = await measureStat(server.baseURL, admin.cookieHeader, {
    requests: REQUESTS,
    devices: DEVICES,
  });
  console.log(
    `GET /api/devices/stat: p50 ${fmt(stat.p50, 1)} ms, p95 ${fmt(stat.p95, 1)} ms, p99 ${fmt(stat.p99, 1)} ms, ` +
      `${fmt(stat.jsonBytes)} bytes of JSON (${fmt(stat.wireBytes)} on the wire, ${stat.encoding}); counters ${JSON.stringify(stat.counters)}`,
  );
  const hello = await helloWorldLatency(REQUESTS);
  console.log(
    `bare Fastify hello-world, one request at a time: p50 ${fmt(hello.p50, 1)} ms, p95 ${fmt(hello.p95, 1)} ms, p99 ${fmt(hello.p99, 1)} ms`,
  );
  let page;
  if (!NO_PAGE) {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    try {
      page = await measureDashboardPage(browser, server.baseURL, admin.cookies, RUNS);
    } finally {
      await browser.close();
    }
  }
  if (page)
    console.log(
      `dashboard page ready: median ${Math.round(page.median)} ms, worst ${Math.round(page.worst)} ms`,
    );

  const statOk = stat.p95 < TARGETS.statP95Ms;
  const figures = [
    figure({
      name: `\`GET /api/devices/stat\` (${fmt(DEVICES)} devices), one request at a time: p95`,
      value: stat.p95,
      unit: 'ms',
      detail: `p50 ${fmt(stat.p50, 1)} ms, p99 ${fmt(stat.p99, 1)} ms, ${fmt(stat.jsonBytes / 1024)} KB of JSON`,
      target: `p95 < ${TARGETS.statP95Ms} ms`,
      met: statOk,
      raw: { name: 'bare Fastify hello-world, one request at a time: p95', value: hello.p95, unit: 'ms' },
    }),
  ];
  if (page)
    figures.push(
      figure({
        name: `dashboard page ready in Chromium (${fmt(DEVICES)} devices): median of ${RUNS}`,
        value: page.median,
        unit: 'ms',
        detail: `worst ${fmt(page.worst)} ms`,
        target: `< ${fmt(TARGETS.pageMs)} ms`,
        met: page.median < TARGETS.pageMs,
        rawNote: NO_RAW_BROWSER,
      }),
    );
  const section = [
    `Measured ${env.date} by \`node bench/dashboard.mjs\` at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}).`,
    '',
    `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}. Server, browser and client share the machine.`,
    '',
    `Fleet: ${fmt(DEVICES)} devices (${fmt(smart)} smart, with live rows, a week of washes, open events on one in twenty), SQLite.`,
    '',
    '| measure | p50 / median | p95 | p99 / worst | target | verdict |',
    '|---|---:|---:|---:|---|---|',
    `| \`GET /api/devices/stat\`, one request at a time (${REQUESTS}), ${fmt(stat.jsonBytes / 1024)} KB of JSON, ${fmt(stat.wireBytes / 1024)} KB ${stat.encoding} | ${fmt(stat.p50, 1)} ms | **${fmt(stat.p95, 1)} ms** | ${fmt(stat.p99, 1)} ms | p95 < ${TARGETS.statP95Ms} ms | ${statOk ? 'met' : '**MISSED**'} |`,
    `| raw limit: bare Fastify hello-world (\`GET /\`), one request at a time (${REQUESTS}), same client | ${fmt(hello.p50, 1)} ms | ${fmt(hello.p95, 1)} ms | ${fmt(hello.p99, 1)} ms | | |`,
    ...(page
      ? [
          `| dashboard page ready in Chromium (counters and the first table row painted), ${RUNS} runs | **${fmt(page.median)} ms** | — | ${fmt(page.worst)} ms | < ${fmt(TARGETS.pageMs)} ms | ${page.median < TARGETS.pageMs ? 'met' : '**MISSED**'} |`,
        ]
      : []),
  ].join('\n');
  console.log(section);
  const docsWritten = WRITE_DOCS && !NO_PAGE;
  if (docsWritten)
    writeBenchmarkSection({
      name: 'dashboard',
      script: 'bench/dashboard.mjs',
      heading: 'Dashboard',
      section,
    });
  writeResults('dashboard', {
    script: 'bench/dashboard.mjs',
    title: 'Dashboard',
    env,
    figures,
    partial: NO_PAGE,
    docsWritten,
    settings: { devices: DEVICES, requests: REQUESTS, runs: RUNS },
  });
} finally {
  // BENCH_KEEP=1 leaves the database for a look (its path is printed).
  if (process.env.BENCH_KEEP === '1') console.log(`database kept: ${server.databaseUrl}`);
  await server.stop({ keepFiles: process.env.BENCH_KEEP === '1' });
}
