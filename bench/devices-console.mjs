// Console entry with a big fleet (`npm run bench:devices-console`): starts the real server
// (test-support/server.mjs) on a fresh SQLite database, seeds an organisation with 10 000 devices
// through the operator CLI and opens `/account/devices` signed in as its admin in Debian's
// Chromium (no throttling; a fresh browser context each time, so nothing is cached). Measures
//   1. entry: from navigation start until the first device row of the list has been painted — the
//      reference data of docs/contract.md, "Product and areas" (device types, devices, addresses, rooms, …) loads before any
//      account page renders, so this includes all of it. Target: under 1.5 s.
//   2. filter-to-paint: from typing a search into the list's search box until the filtered rows
//      have been painted (a MutationObserver on the table, then the next animation frame).
//      Target: under 100 ms.
// BENCH_DEVICES (default 10000), BENCH_RUNS (default 5); BENCH_QUICK=1 shortens them (1000, 2) and
// leaves docs alone. BENCH_NO_DOCS=1: leave docs alone. Results: bench/results/devices-console.json.
// BENCH_WATERFALL=1 prints every run's requests (start–end) to see where the entry time goes.
// E2E_SKIP_BUILD=1: measure the built files as they are.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test-support/chromium.mjs';
import { buildIfNeeded, seedFleetAndSignIn, startServer } from '../test-support/server.mjs';
import { measureFilters, median, openDevicesPage } from './lib/console-pages.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { machine } from './lib/machine.mjs';
import { figure, NO_RAW_BROWSER, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';

const TARGETS = { entryMs: 1500, filterMs: 100 };
const DEVICES = Math.max(1, setting('BENCH_DEVICES', 10_000, 1000));
const RUNS = Math.max(1, setting('BENCH_RUNS', 5, 2));
/** Search terms typed one after another: narrow, none, wide, back to everything. */
const TERMS = ['rational', 'kc-1-00012', 'нет такого', 'pro', 'фритюр', ''];

const ms = (value) => `${Math.round(value)} ms`;

function markdown(env, entries, filters) {
  const entryMedian = median(entries.map((e) => e.painted));
  const filterTimes = filters.filter((f) => Number.isFinite(f.ms)).map((f) => f.ms);
  const filterMax = Math.max(...filterTimes);
  const first = entries[0];
  const lines = [
    `Measured ${env.date} by \`node bench/devices-console.mjs\` at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}).`,
    '',
    `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}; ${env.chromium}, headless, no network or CPU throttling, 1280×800.`,
    '',
    `The organisation holds ${DEVICES.toLocaleString('en-US')} devices (\`seed:fleet\`). \`GET /api/devices/\` (the whole list, read by the reference data) ` +
      `transferred ${(first.devicesBytes / 1e6).toFixed(2)} MB (${(first.devicesDecoded / 1e6).toFixed(2)} MB of JSON).`,
    '',
    '| measure | runs | median | max | target | verdict |',
    '|---|---|---:|---:|---:|---|',
    `| entry: navigation start → first device row painted (${RUNS} cold browser contexts) | ${entries.map((e) => Math.round(e.painted)).join(', ')} | ${ms(entryMedian)} | ${ms(Math.max(...entries.map((e) => e.painted)))} | < ${ms(TARGETS.entryMs)} | ${entryMedian < TARGETS.entryMs ? 'met' : '**MISSED**'} |`,
    `| of which \`GET /api/devices/\` finished at | ${entries.map((e) => Math.round(e.devicesResponseEnd)).join(', ')} | ${ms(median(entries.map((e) => e.devicesResponseEnd)))} | | | |`,
    `| filter-to-paint: search typed → filtered rows painted | ${filters.map((f) => `“${f.term}” ${Number.isFinite(f.ms) ? Math.round(f.ms) : '–'} (${f.rows} rows)`).join('; ')} | ${ms(median(filterTimes))} | ${ms(filterMax)} | < ${ms(TARGETS.filterMs)} | ${filterMax < TARGETS.filterMs ? 'met' : '**MISSED**'} |`,
  ];
  return lines.join('\n');
}

/** The two targets' figures for bench/results/ (bench/lib/results.mjs). */
function figures(entries, filters) {
  const entryMedian = median(entries.map((e) => e.painted));
  const filterTimes = filters.filter((f) => Number.isFinite(f.ms)).map((f) => f.ms);
  const filterMax = filterTimes.length ? Math.max(...filterTimes) : Number.NaN;
  return [
    figure({
      name: `devices page entry in Chromium (${DEVICES.toLocaleString('en-US')} devices): navigation → first row painted, median of ${RUNS}`,
      value: entryMedian,
      unit: 'ms',
      detail: `worst ${ms(Math.max(...entries.map((e) => e.painted)))}`,
      target: `< ${ms(TARGETS.entryMs)}`,
      met: entryMedian < TARGETS.entryMs,
      rawNote: NO_RAW_BROWSER,
    }),
    figure({
      name: `devices page filter-to-paint: worst of ${filters.length} searches`,
      value: filterMax,
      unit: 'ms',
      detail: `median ${ms(median(filterTimes))}`,
      target: `< ${ms(TARGETS.filterMs)}`,
      met: filterMax < TARGETS.filterMs,
      rawNote: NO_RAW_BROWSER,
    }),
  ];
}

function writeDocs(section) {
  writeBenchmarkSection({
    name: 'devices-console',
    script: 'bench/devices-console.mjs',
    heading: 'Console with 10 000 devices',
    section,
  });
}

const env = machine();
console.log(`devices console — ${env.date}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`);
buildIfNeeded();
const server = await startServer();
let browser;
try {
  const { admin, seeded } = await seedFleetAndSignIn(server, DEVICES);
  console.log(seeded);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });

  const entries = [];
  let last;
  for (let run = 0; run < RUNS; run++) {
    const result = await openDevicesPage(browser, server.baseURL, admin.cookies);
    entries.push(result.figures);
    console.log(
      `entry ${run + 1}: first row painted at ${ms(result.figures.painted)} (devices list done at ${ms(result.figures.devicesResponseEnd)})`,
    );
    if (process.env.BENCH_WATERFALL === '1')
      console.log(
        `  DOMContentLoaded ${ms(result.figures.domContentLoaded)}, first row in the DOM ${ms(result.figures.firstRow)}\n  ` +
          result.figures.waterfall.join('\n  '),
      );
    if (last) await last.context.close();
    last = result;
  }

  const filters = await measureFilters(last.page, TERMS);
  await last.context.close();

  const section = markdown(env, entries, filters);
  console.log(`\n${section}`);
  if (WRITE_DOCS) writeDocs(section);
  writeResults('devices-console', {
    script: 'bench/devices-console.mjs',
    title: 'Console with 10 000 devices',
    env,
    figures: figures(entries, filters),
    docsWritten: WRITE_DOCS,
    settings: { devices: DEVICES, runs: RUNS },
  });
} finally {
  await browser?.close();
  await server.stop();
}
