// Console budgets (`npm run bench:console`): starts the real server with a fresh database (the same
// code as the browser tests, test-support/server.mjs), seeds the logins through the operator CLI and
// measures
//   1. the initial JavaScript of the login page, gzipped (node:zlib level 9) — target ≤ 200 KB;
//   2. Lighthouse 12 performance and accessibility, mobile (default) and desktop preset, on
//      /auth/login and /account/dashboard (signed in) — target ≥ 95;
//   3. axe on every page of docs/console-shell.md, in Russian — target: no serious or critical
//      violation.
// Prints the figures (MISSED for a target missed; the exit code stays 0 unless the run itself
// fails) and rewrites the marked section of docs/benchmarks.md. Raw results: bench/results/.
//
// BENCH_LH_RUNS (default 5): Lighthouse runs per page and preset; the median score is reported.
// BENCH_QUICK=1: one Lighthouse run each, docs left alone (bench/lib/results.mjs); the summary of
// every target goes to bench/results/console-budgets.json for bench/run-all.mjs.
// BENCH_NO_DOCS=1: do not touch docs/benchmarks.md. E2E_SKIP_BUILD=1: use the built files as they are.
// To iterate faster (a partial run never rewrites docs/benchmarks.md):
//   BENCH_ONLY=lighthouse (or js, axe; comma-separated) measures only those parts;
//   BENCH_PAGES=login,dashboard and BENCH_PRESETS=mobile,desktop narrow the Lighthouse runs.
// Every Lighthouse report is kept whole in bench/results/lhr-<date>/ for its diagnostics
// (`node bench/lib/lhr-summary.mjs <file>…` prints the useful parts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, constants as zlib } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import {
  CHROMIUM_ARGS,
  CHROMIUM_HEADLESS_ARGS,
  CHROMIUM_PATH,
  LIVE_STREAM_PATTERN,
  withoutLiveStream,
} from '../test-support/chromium.mjs';
import { apiLogin, buildIfNeeded, ROOT, seedFixtures, startServer } from '../test-support/server.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { machine as describeMachine } from './lib/machine.mjs';
import { figure, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';

const TARGETS = { initialJsBytes: 200_000, lighthouse: 95, axeImpacts: ['serious', 'critical'] };
const LH_RUNS = Math.max(1, setting('BENCH_LH_RUNS', 5, 1));
const listEnv = (name, all) => {
  const value = process.env[name]?.trim();
  if (!value) return all;
  const chosen = value.split(',').map((item) => item.trim());
  const unknown = chosen.filter((item) => !all.includes(item));
  if (unknown.length) throw new Error(`${name}: unknown ${unknown.join(', ')} (one of ${all.join(', ')})`);
  return chosen;
};
const ONLY = listEnv('BENCH_ONLY', ['js', 'axe', 'lighthouse']);
const LH_PAGES = listEnv('BENCH_PAGES', ['login', 'dashboard']);
const LH_PRESETS = listEnv('BENCH_PRESETS', ['mobile', 'desktop']);
/** Only a run of everything may rewrite the generated section of docs/benchmarks.md. */
const PARTIAL = ['BENCH_ONLY', 'BENCH_PAGES', 'BENCH_PRESETS'].some((name) => process.env[name]?.trim());
const KB = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const missed = [];

/** The machine (bench/lib/machine.mjs) and the versions of the two measuring tools. */
function machine() {
  const version = (pkg) =>
    JSON.parse(readFileSync(join(ROOT, `node_modules/${pkg}/package.json`), 'utf8')).version;
  return { ...describeMachine(), lighthouse: version('lighthouse'), axe: version('axe-core') };
}

// ---------------------------------------------------------------------------------------------
// 1. Initial JavaScript of the login page

/**
 * Every script the login page loads until its form is usable and the network is idle: the
 * decoded body gzipped at level 9, and the bytes actually transferred (brotli when the server
 * sends it).
 */
async function measureInitialJs(browser, baseURL) {
  const context = await browser.newContext({ locale: 'ru-RU' });
  const page = await context.newPage();
  const scripts = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    const contentType = response.headers()['content-type'] ?? '';
    if (type === 'script' || /javascript/.test(contentType)) {
      scripts.push(
        (async () => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          return {
            url: new URL(response.url()).pathname,
            raw: body.length,
            gzip9: gzipSync(body, { level: zlib.Z_BEST_COMPRESSION }).length,
            transferred: sizes.responseBodySize,
            encoding: response.headers()['content-encoding'] ?? 'identity',
          };
        })(),
      );
    }
  });
  await page.goto(`${baseURL}/auth/login`, { waitUntil: 'load' });
  const button = page.getByRole('button', { name: 'Войти', exact: true });
  await button.waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const files = await Promise.all(scripts);
  await context.close();
  files.sort((a, b) => b.gzip9 - a.gzip9);
  const total = (key) => files.reduce((sum, file) => sum + file[key], 0);
  return { files, raw: total('raw'), gzip9: total('gzip9'), transferred: total('transferred') };
}

// ---------------------------------------------------------------------------------------------
// 2. Lighthouse

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Puts the session's cookies into the browser Lighthouse is about to drive (over the DevTools
 * protocol, with Playwright), as a signed-in visitor's browser holds them. Lighthouse resets the
 * origin's storage before a run but keeps its cookies.
 */
async function addCookies(port, baseURL, cookies) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    await browser.contexts()[0].addCookies(cookies.map((c) => ({ ...c, url: baseURL })));
  } finally {
    await browser.close(); // disconnects; the browser and its default context stay
  }
}

async function lighthouseRun(url, preset, cookies, saveAs) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_HEADLESS_ARGS,
    logLevel: 'silent',
  });
  try {
    if (cookies) await addCookies(chrome.port, new URL(url).origin, cookies);
    const flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      blockedUrlPatterns: [LIVE_STREAM_PATTERN],
    };
    const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (saveAs) writeFileSync(saveAs, JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id) => lhr.audits[id]?.numericValue;
    const shifts = (lhr.audits['layout-shifts']?.details?.items ?? []).map(
      (item) => `${item.node?.selector ?? item.node?.nodeLabel ?? '?'} ${Number(item.score).toFixed(3)}`,
    );
    return {
      finalPath: new URL(lhr.finalDisplayedUrl).pathname,
      shifts,
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      si: audit('speed-index'),
      // Lighthouse's measure of how fast the machine was during the run (higher is faster); a
      // low one means other work shared the CPU and TBT is not comparable.
      benchmarkIndex: lhr.environment?.benchmarkIndex,
      failedA11y: Object.values(lhr.audits)
        .filter(
          (a) =>
            lhr.categories.accessibility?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0) &&
            a.score !== null &&
            a.score < 1,
        )
        .map((a) => a.id),
    };
  } finally {
    chrome.kill();
  }
}

/**
 * The dashboard is measured signed in: the session's cookies (session, XSRF-TOKEN) are put into the
 * browser before each run ({@link addCookies}), as a signed-in visitor's browser holds them. (They
 * used to travel in `extraHeaders`; a cookie the page sets itself, such as the console's language,
 * then replaced that header and the run ended on the login page.)
 */
async function measureLighthouse(baseURL, session, lhrDir) {
  const signedIn = session.cookies;
  const pages = [
    { key: 'login', name: '/auth/login', url: `${baseURL}/auth/login` },
    { key: 'dashboard', name: '/account/dashboard', url: `${baseURL}/account/dashboard`, cookies: signedIn },
  ].filter((page) => LH_PAGES.includes(page.key));
  mkdirSync(lhrDir, { recursive: true });
  const rows = [];
  for (const page of pages) {
    for (const preset of LH_PRESETS) {
      const runs = [];
      const errors = [];
      for (let i = 0; i < LH_RUNS; i++) {
        try {
          const saveAs = join(lhrDir, `${page.key}-${preset}-${i + 1}.json`);
          runs.push(await lighthouseRun(page.url, preset, page.cookies, saveAs));
        } catch (error) {
          errors.push(String(error?.message ?? error).split('\n')[0]);
        }
      }
      if (runs.length === 0) {
        rows.push({ page: page.name, preset, error: errors[0] });
        console.log(`lighthouse ${page.name} ${preset}: could not be measured — ${errors[0]}`);
        continue;
      }
      if (errors.length)
        console.log(`lighthouse ${page.name} ${preset}: ${errors.length} run(s) failed — ${errors[0]}`);
      const row = {
        page: page.name,
        preset,
        finalPaths: [...new Set(runs.map((r) => r.finalPath))],
        shifts: runs[0].shifts,
        performance: median(runs.map((r) => r.performance)),
        accessibility: median(runs.map((r) => r.accessibility)),
        performanceRuns: runs.map((r) => r.performance),
        fcp: median(runs.map((r) => r.fcp)),
        lcp: median(runs.map((r) => r.lcp)),
        tbt: median(runs.map((r) => r.tbt)),
        cls: median(runs.map((r) => r.cls)),
        si: median(runs.map((r) => r.si)),
        benchmarkIndex: median(runs.map((r) => r.benchmarkIndex ?? 0)),
        failedA11y: [...new Set(runs.flatMap((r) => r.failedA11y))],
      };
      rows.push(row);
      console.log(
        `lighthouse ${row.page} ${preset}: performance ${row.performance} (runs ${row.performanceRuns.join(', ')}), ` +
          `accessibility ${row.accessibility}; FCP ${ms(row.fcp)}, LCP ${ms(row.lcp)}, TBT ${ms(row.tbt)}, ` +
          `CLS ${row.cls?.toFixed(3)}${row.shifts.length ? ` (${row.shifts.join(', ')})` : ''}; ` +
          `benchmark index ${Math.round(row.benchmarkIndex)}; ` +
          `ended on ${row.finalPaths.join(', ')}` +
          `${row.failedA11y.length ? `; failed a11y audits: ${row.failedA11y.join(', ')}` : ''}`,
      );
    }
  }
  return rows;
}

const ms = (value) => (value === undefined ? '–' : `${Math.round(value)} ms`);

// ---------------------------------------------------------------------------------------------
// 3. axe

async function axePage(browser, baseURL, target, cookies) {
  const context = await withoutLiveStream(await browser.newContext({ locale: 'ru-RU' }));
  if (cookies) await context.addCookies(cookies.map((c) => ({ ...c, url: baseURL })));
  // Russian, as a first visit has it (the default), stated explicitly.
  await context.addInitScript(() => {
    if (!globalThis.localStorage.getItem('locale')) globalThis.localStorage.setItem('locale', 'ru');
  });
  const page = await context.newPage();
  await page.goto(`${baseURL}${target.path}`);
  await page.getByRole('heading', { level: 1, name: target.heading }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500); // let transitions end (contrast is checked on what is painted)
  const results = await new AxeBuilder({ page }).analyze();
  const finalPath = new URL(page.url()).pathname;
  await context.close();
  return {
    page: target.name,
    path: target.path,
    finalPath,
    violations: results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    })),
    passes: results.passes.length,
  };
}

async function measureAxe(browser, baseURL, adminCookies, noModuleCookies) {
  const guest = [
    { name: 'login', path: '/auth/login', heading: 'Вход в систему' },
    { name: 'register', path: '/auth/register', heading: 'Регистрация' },
    { name: 'forgot-password', path: '/auth/forgot-password', heading: 'Восстановление пароля' },
    {
      name: 'reset-password',
      path: '/auth/reset-password?token=bench-token&email=someone%40example.com',
      heading: 'Новый пароль',
    },
    { name: 'not-found', path: '/no/such/page', heading: 'Страница не найдена' },
  ];
  const signedIn = [
    { name: 'dashboard', path: '/account/dashboard', heading: 'Главная', cookies: adminCookies },
    { name: 'no_access', path: '/account/no_access', heading: 'Нет доступа', cookies: noModuleCookies },
    { name: 'profile', path: '/account/profile', heading: 'Профиль', cookies: adminCookies },
  ];
  const rows = [];
  for (const target of [...guest, ...signedIn]) {
    try {
      rows.push(await axePage(browser, baseURL, target, target.cookies));
    } catch (error) {
      rows.push({
        page: target.name,
        path: target.path,
        error: String(error.message ?? error).split('\n')[0],
      });
    }
    const row = rows.at(-1);
    if (row.error) console.log(`axe ${row.page}: could not be checked — ${row.error}`);
    else
      console.log(
        `axe ${row.page} (${row.finalPath}): ${row.violations.length} violation(s), ${row.passes} rules passed` +
          row.violations.map((v) => `\n  - [${v.impact}] ${v.id}: ${v.help} (${v.nodes} node(s))`).join(''),
      );
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Report

function verdicts(js, lh, axe) {
  if (js && js.gzip9 > TARGETS.initialJsBytes)
    missed.push(`MISSED initial JS of /auth/login: ${KB(js.gzip9)} gzipped > ${KB(TARGETS.initialJsBytes)}`);
  for (const row of lh) {
    if (row.error) {
      missed.push(`MISSED Lighthouse ${row.page} (${row.preset}): not measured (${row.error})`);
      continue;
    }
    if (row.finalPaths.some((path) => path !== row.page))
      missed.push(
        `MISSED Lighthouse ${row.page} (${row.preset}): the run ended on ${row.finalPaths.join(', ')}`,
      );
    for (const category of ['performance', 'accessibility']) {
      if (row[category] < TARGETS.lighthouse)
        missed.push(
          `MISSED Lighthouse ${category} ${row.page} (${row.preset}): ${row[category]} < ${TARGETS.lighthouse}`,
        );
    }
  }
  for (const row of axe) {
    if (row.error) {
      missed.push(`MISSED axe ${row.page}: not checked (${row.error})`);
      continue;
    }
    for (const v of row.violations.filter((v) => TARGETS.axeImpacts.includes(v.impact)))
      missed.push(`MISSED axe ${row.page}: [${v.impact}] ${v.id} — ${v.help} (${v.nodes} node(s))`);
  }
}

const ok = (pass) => (pass ? 'met' : '**MISSED**');

function markdown(env, js, lh, axe) {
  const lines = [];
  lines.push(
    `Measured ${env.date} by \`node bench/console-budgets.mjs\` at commit \`${env.commit}\` ` +
      `(apps/ and packages/ ${env.changed}).`,
    '',
  );
  lines.push(
    `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}; ${env.chromium}; ` +
      `Lighthouse ${env.lighthouse}; axe-core ${env.axe}.`,
    '',
  );

  lines.push('### Initial JavaScript of `/auth/login`', '');
  lines.push(
    `Target: ≤ ${KB(TARGETS.initialJsBytes)} (1 KB = 1000 bytes) of script, each file's decoded body gzipped ` +
      'with node:zlib level 9, counting every script loaded until the form is usable and the network is idle. ' +
      `Result: **${KB(js.gzip9)}** (${(js.gzip9 / 1024).toFixed(1)} KiB) — ${ok(js.gzip9 <= TARGETS.initialJsBytes)}.`,
    '',
  );
  lines.push('| script | raw | gzip -9 | transferred (encoding) |', '|---|---:|---:|---:|');
  for (const f of js.files)
    lines.push(`| \`${f.url}\` | ${KB(f.raw)} | ${KB(f.gzip9)} | ${KB(f.transferred)} (${f.encoding}) |`);
  lines.push(
    `| **total** (${js.files.length} files) | ${KB(js.raw)} | **${KB(js.gzip9)}** | ${KB(js.transferred)} |`,
    '',
  );

  lines.push('### Lighthouse', '');
  lines.push(
    `Target: performance and accessibility ≥ ${TARGETS.lighthouse}. Median of ${LH_RUNS} run(s) each; mobile is ` +
      "Lighthouse's default (Moto G Power, simulated slow 4G and 4× CPU slowdown), desktop is its desktop preset. " +
      "The benchmark index is Lighthouse's measure of the machine's speed during the runs (median): lower means a " +
      'slower machine or other work sharing the CPU, and TBT then grows. The 4× slowdown is fixed, so the mobile ' +
      "figures depend on the machine: Lighthouse's documentation places a 'high-end desktop', the machine its 4× " +
      'is meant for, at 1,500–2,000, and a low-end desktop at 1,000–1,500. ' +
      "The dashboard is loaded signed in as the admin: the session's cookies are put into the browser " +
      'before each run (over the DevTools protocol), as a signed-in browser holds them.',
    '',
  );
  lines.push(
    '| page | preset | performance | accessibility | FCP | LCP | TBT | CLS | benchmark index | verdict |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const r of lh) {
    if (r.error) {
      lines.push(
        `| \`${r.page}\` | ${r.preset} | not measured: ${r.error.replace(/\|/g, '\\|')} | | | | | | | **MISSED** |`,
      );
      continue;
    }
    const pass = r.performance >= TARGETS.lighthouse && r.accessibility >= TARGETS.lighthouse;
    lines.push(
      `| \`${r.page}\` | ${r.preset} | ${r.performance} (${r.performanceRuns.join(', ')}) | ${r.accessibility} | ` +
        `${ms(r.fcp)} | ${ms(r.lcp)} | ${ms(r.tbt)} | ${r.cls?.toFixed(3) ?? '–'} | ` +
        `${Math.round(r.benchmarkIndex ?? 0)} | ${ok(pass)} |`,
    );
  }
  const notes = lh.flatMap((r) => {
    if (r.error) return [];
    const found = [];
    if (r.finalPaths.some((path) => path !== r.page)) found.push(`ended on ${r.finalPaths.join(', ')}`);
    if (r.shifts.length) found.push(`layout shifts (first run): ${r.shifts.join(', ')}`);
    if (r.failedA11y.length) found.push(`failed accessibility audits: ${r.failedA11y.join(', ')}`);
    return found.length ? [`- \`${r.page}\` ${r.preset}: ${found.join('; ')}`] : [];
  });
  if (notes.length) lines.push('', ...notes);
  lines.push('');

  lines.push('### axe (Russian)', '');
  lines.push(
    'Target: no serious or critical violation. @axe-core/playwright with all rules, desktop viewport 1280×720; ' +
      'signed-in pages as the admin, `no_access` as the user without modules.',
    '',
  );
  lines.push(
    '| page | address (shown at) | violations | serious or critical | verdict |',
    '|---|---|---|---:|---|',
  );
  for (const r of axe) {
    if (r.error) {
      lines.push(
        `| ${r.page} | \`${r.path}\` | not checked: ${r.error.replace(/\|/g, '\\|')} | – | **MISSED** |`,
      );
      continue;
    }
    const bad = r.violations.filter((v) => TARGETS.axeImpacts.includes(v.impact));
    const list = r.violations.length
      ? r.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join('; ')
      : 'none';
    const shown = r.finalPath === r.path.split('?')[0] ? '' : ` (→ \`${r.finalPath}\`)`;
    lines.push(`| ${r.page} | \`${r.path}\`${shown} | ${list} | ${bad.length} | ${ok(bad.length === 0)} |`);
  }
  lines.push('');
  lines.push(missed.length ? `Targets missed: ${missed.length}.` : 'All targets met.');
  return lines.join('\n');
}

/** Every target's figure for bench/results/ (bench/lib/results.mjs); no raw limit applies to the console. */
function figures(js, lh, axe) {
  const rawNote = 'none applies (console, measured in Chromium)';
  const list = [];
  if (js)
    list.push(
      figure({
        name: 'initial JavaScript of `/auth/login`, gzip -9',
        value: js.gzip9 / 1000,
        unit: 'KB',
        detail: `${js.files.length} scripts, ${KB(js.transferred)} transferred`,
        target: `≤ ${KB(TARGETS.initialJsBytes)}`,
        met: js.gzip9 <= TARGETS.initialJsBytes,
        rawNote,
      }),
    );
  for (const category of ['performance', 'accessibility'])
    for (const row of lh)
      list.push(
        figure({
          name: `Lighthouse ${category}, \`${row.page}\` ${row.preset}`,
          value: row.error ? null : row[category],
          unit: 'score',
          detail: row.error
            ? `not measured: ${row.error}`
            : category === 'performance'
              ? `median of ${row.performanceRuns.join(', ')}; benchmark index ${Math.round(row.benchmarkIndex ?? 0)}`
              : undefined,
          target: `≥ ${TARGETS.lighthouse}`,
          met:
            !row.error && row[category] >= TARGETS.lighthouse && row.finalPaths.every((p) => p === row.page),
          rawNote,
        }),
      );
  if (axe.length) {
    const bad = axe.flatMap((row) =>
      row.error
        ? [`${row.page}: not checked`]
        : row.violations
            .filter((v) => TARGETS.axeImpacts.includes(v.impact))
            .map((v) => `${row.page}: ${v.id} (${v.impact})`),
    );
    list.push(
      figure({
        name: `axe, ${axe.length} pages in Russian: serious or critical violations`,
        value: bad.length,
        unit: 'violations',
        detail: bad.length ? bad.join('; ') : undefined,
        target: '0',
        met: bad.length === 0,
        rawNote,
      }),
    );
  }
  return list;
}

function writeDocs(section) {
  writeBenchmarkSection({
    name: 'console-budgets',
    script: 'bench/console-budgets.mjs',
    heading: 'Console budgets',
    section,
  });
}

// ---------------------------------------------------------------------------------------------

const env = machine();
console.log(
  `console budgets — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
);
buildIfNeeded();
const server = await startServer();
let browser;
try {
  console.log(`server at ${server.baseURL}`);
  const logins = seedFixtures({ databaseUrl: server.databaseUrl });
  const admin = await apiLogin(server.baseURL, logins.admin);
  const noModules = await apiLogin(server.baseURL, logins.noModules);

  let js;
  let axe = [];
  if (ONLY.includes('js') || ONLY.includes('axe')) {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    if (ONLY.includes('js')) {
      js = await measureInitialJs(browser, server.baseURL);
      console.log(
        `initial JS of /auth/login: ${js.files.length} scripts, ${KB(js.raw)} raw, ${KB(js.gzip9)} gzip -9, ` +
          `${KB(js.transferred)} transferred`,
      );
      for (const f of js.files)
        console.log(
          `  ${f.url}: ${KB(f.raw)} raw, ${KB(f.gzip9)} gzip -9, ${KB(f.transferred)} ${f.encoding}`,
        );
    }
    if (ONLY.includes('axe'))
      axe = await measureAxe(browser, server.baseURL, admin.cookies, noModules.cookies);
    await browser.close();
    browser = undefined;
  }

  const stamp = env.date.replace(/[:]/g, '');
  const lh = ONLY.includes('lighthouse')
    ? await measureLighthouse(server.baseURL, admin, join(ROOT, 'bench/results', `lhr-${stamp}`))
    : [];

  verdicts(js, lh, axe);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench/results', `console-budgets-${stamp}.json`),
    JSON.stringify({ env, targets: TARGETS, js, lighthouse: lh, axe, missed }, null, 2),
  );
  if (PARTIAL)
    console.log('partial run (BENCH_ONLY, BENCH_PAGES or BENCH_PRESETS): docs/benchmarks.md left alone');
  else if (WRITE_DOCS) writeDocs(markdown(env, js, lh, axe));
  writeResults('console-budgets', {
    script: 'bench/console-budgets.mjs',
    title: 'Console budgets',
    env,
    figures: figures(js, lh, axe),
    partial: PARTIAL,
    docsWritten: !PARTIAL && WRITE_DOCS,
    settings: { lighthouseRuns: LH_RUNS, only: ONLY, pages: LH_PAGES, presets: LH_PRESETS },
  });
  console.log('');
  for (const line of missed) console.log(line);
  console.log(missed.length ? `${missed.length} target(s) missed.` : 'All targets met.');
} finally {
  await browser?.close();
  await server.stop();
}
