// What the dashboard and the devices benchmarks measure of the console and its statistics, shared by
// bench/dashboard.mjs, bench/devices-console.mjs and bench/chain-fleet.mjs:
//   - `measureStat`: `GET /api/devices/stat` one request at a time, as a dashboard asks;
//   - `measureDashboardPage`: the dashboard page ready (counters and the first table row painted);
//   - `openDevicesPage` and `measureFilters`: the devices page's first row, and search-to-paint.
// Every page is opened in a fresh browser context (nothing cached), signed in with `cookies`.
// Each page's figures include when the reference data (docs/contract.md, "Product and areas") had
// arrived: the last of its lists' responses (Resource Timing), which the account pages wait for.
/* global window, document, MutationObserver, requestAnimationFrame, HTMLInputElement -- these functions run in the page */
import { REFERENCE_LISTS } from '@kontrol/contracts';
import { withoutLiveStream } from '../../test-support/chromium.mjs';
import { sequentialLatency } from './baselines.mjs';

/** The paths of the reference lists under /api: an admin (every module) loads them all. */
const REFERENCE_PATHS = Object.values(REFERENCE_LISTS).map((list) => `/api${list.url}`);

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * `GET /api/devices/stat` `requests` times after 20 warm-up requests, one at a time, with the
 * encodings a browser accepts, as the hello-world's raw limit is asked (baselines.mjs). Throws
 * unless the answer lists `devices` devices.
 */
export async function measureStat(baseURL, cookieHeader, { requests, devices }) {
  const headers = {
    cookie: cookieHeader,
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br, zstd',
  };
  const url = `${baseURL}/api/devices/stat`;
  const probe = await fetch(url, { headers });
  const text = await probe.text();
  if (probe.status !== 200)
    throw new Error(`GET /api/devices/stat answered ${probe.status}: ${text.slice(0, 300)}`);
  const stat = JSON.parse(text).data;
  if (stat.devices.length !== devices)
    throw new Error(`expected ${devices} devices, got ${stat.devices.length}`);
  const wireBytes = Number(probe.headers.get('content-length') ?? 0);
  return {
    ...(await sequentialLatency(url, headers, requests)),
    jsonBytes: Buffer.byteLength(text),
    wireBytes,
    encoding: probe.headers.get('content-encoding') ?? 'identity',
    counters: stat.counters,
  };
}

/**
 * Runs in the page before its scripts: `window.__referenceDone()` tells when the last of the
 * reference lists' responses ended (ms from navigation start), NaN while one has not.
 */
function watchReference(paths) {
  window.__referenceDone = () => {
    // A list may have been fetched twice (preloaded with the page, then asked for): its first answer counts.
    const ends = paths.map((path) =>
      Math.min(
        ...performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname === path)
          .map((entry) => entry.responseEnd),
      ),
    );
    return ends.every(Number.isFinite) ? Math.max(...ends) : Number.NaN;
  };
}

/** Runs in the page before its scripts: notes when the counters and the first table row are on screen. */
function watchDashboard() {
  const bench = (window.__bench = {});
  const observer = new MutationObserver(() => {
    if (bench.ready) return;
    const counters = document.querySelectorAll('[data-dashboard-counter]');
    const row = document.querySelector('[data-dashboard-table] [role="row"][aria-rowindex="2"]');
    if (counters.length < 6 || !row) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      bench.ready = performance.now();
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * The dashboard page, `runs` times after one warm-up run: from navigation start until the six
 * counters and the first row of the device table have been painted.
 */
export async function measureDashboardPage(browser, baseURL, cookies, runs) {
  const ready = [];
  const reference = [];
  for (let run = 0; run < runs + 1; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'ru-RU' });
    await withoutLiveStream(context);
    await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: baseURL })));
    const page = await context.newPage();
    await page.addInitScript(watchDashboard);
    await page.addInitScript(watchReference, REFERENCE_PATHS);
    await page.goto(`${baseURL}/account/dashboard`);
    await page.waitForFunction(() => window.__bench?.ready, undefined, { timeout: 60_000 });
    const figures = await page.evaluate(() => ({
      ready: window.__bench.ready,
      reference: window.__referenceDone(),
    }));
    // The first run warms the server's caches and the disk; it is not counted.
    if (run > 0) {
      ready.push(figures.ready);
      reference.push(figures.reference);
    }
    console.log(
      `dashboard page run ${run}${run === 0 ? ' (warm-up)' : ''}: ready at ${Math.round(figures.ready)} ms, ` +
        `reference data at ${Math.round(figures.reference)} ms`,
    );
    await context.close();
  }
  return { median: median(ready), worst: Math.max(...ready), runs: ready, reference };
}

/** Runs in the page before its scripts: notes when the first data row is on screen. */
function watchFirstRow() {
  const bench = (window.__bench = {});
  const observer = new MutationObserver(() => {
    if (bench.firstRow || !document.querySelector('[role="table"] [role="row"][aria-rowindex="2"]')) return;
    bench.firstRow = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => (bench.painted = performance.now()), 0));
  });
  observer.observe(document, { subtree: true, childList: true });
}

/**
 * Opens `/account/devices` in a fresh context: when its first row was painted, when the whole
 * devices list (`GET /api/devices/`, reference data) and the reference data had arrived. The
 * caller closes `context`.
 */
export async function openDevicesPage(browser, baseURL, cookies) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'ru-RU',
  });
  await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: baseURL })));
  await context.addInitScript(watchFirstRow);
  await context.addInitScript(watchReference, REFERENCE_PATHS);
  const page = await context.newPage();
  await page.goto('/account/devices');
  await page.waitForFunction(() => window.__bench?.painted !== undefined, null, { timeout: 60_000 });
  const figures = await page.evaluate(() => {
    const devices = performance
      .getEntriesByType('resource')
      .find((entry) => new URL(entry.name).pathname === '/api/devices/');
    const waterfall = performance
      .getEntriesByType('resource')
      .map((e) => `${Math.round(e.startTime)}–${Math.round(e.responseEnd)} ms ${new URL(e.name).pathname}`);
    return {
      waterfall,
      firstRow: window.__bench.firstRow,
      domContentLoaded: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd,
      painted: window.__bench.painted,
      reference: window.__referenceDone(),
      devicesResponseEnd: devices?.responseEnd ?? Number.NaN,
      devicesBytes: devices?.encodedBodySize ?? Number.NaN,
      devicesDecoded: devices?.decodedBodySize ?? Number.NaN,
    };
  });
  return { page, context, figures };
}

/**
 * In the page: types `term` into the search box and resolves when the list shows a different
 * number of rows (the table's `aria-rowcount`, or none when "No records found" replaces it) and
 * the next frame has been painted.
 */
function typeAndWait([input, term]) {
  const rows = () => {
    const table = document.querySelector('[role="table"]');
    return table ? Number(table.getAttribute('aria-rowcount')) - 1 : 0;
  };
  const before = rows();
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  return new Promise((resolve) => {
    const start = performance.now();
    let timer;
    const observer = new MutationObserver(() => {
      if (rows() === before) return;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() =>
        setTimeout(() => resolve({ ms: performance.now() - start, rows: rows() }), 0),
      );
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-rowcount'],
    });
    setValue.call(input, term);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    // A term giving as many rows as the one before changes nothing visible to wait for.
    timer = setTimeout(() => {
      observer.disconnect();
      resolve({ ms: Number.NaN, rows: rows() });
    }, 5000);
  });
}

/** Types each of `terms` into the devices page's search box: search typed → filtered rows painted. */
export async function measureFilters(page, terms) {
  const search = page.getByLabel('Поиск', { exact: true });
  const filters = [];
  for (const term of terms) {
    // A fresh handle each time: the list may re-render its search box.
    const input = await search.elementHandle();
    const result = await page.evaluate(typeAndWait, [input, term]);
    filters.push({ term, ...result });
    console.log(
      `filter “${term}”: ${Number.isFinite(result.ms) ? `${Math.round(result.ms)} ms` : 'no change'} → ${result.rows} rows`,
    );
    await page.waitForTimeout(400); // let the URL write (debounced) settle between terms
  }
  return filters;
}
