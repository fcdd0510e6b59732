// Every benchmark, one after another (`npm run bench`): builds what is stale once, then runs each
// benchmark script as its own child process (with E2E_SKIP_BUILD=1), each rewriting its own section
// of docs/benchmarks.md as when it runs alone and writing its figures to bench/results/<name>.json
// (bench/lib/results.mjs). Then it writes the summary at the top of docs/benchmarks.md (between
// the `summary` markers): date, commit, machine, total time, how each benchmark ran, one table of
// every figure with the raw limit measured in the same run, its target and its verdict, the
// targets not met, and the benchmarks that failed.
//
// A benchmark that fails (non-zero exit, no results written, or over BENCH_TIMEOUT_MINUTES) does
// not stop the others: it is reported in the summary and this script exits with 1 at the end.
// Targets missed are reported, not failures (exit 0), unless BENCH_STRICT=1.
//
// BENCH_ONLY=name,name runs a subset (names: see BENCHES below). Only those benchmarks' sections
// are rewritten; the summary is still written whole: the rows of the benchmarks not run come from
// their last results file (bench/results/<name>.json, left by the last `npm run bench` or full run
// of that script on this machine) and are marked with that run's date and commit; a benchmark
// with no results there is listed as not measured. BENCH_ONLY is not passed on (the scripts use it
// for their own parts).
// BENCH_QUICK=1: every benchmark shortened (see each script), to check that the suite works; no
// section and no summary is written into docs/benchmarks.md (results and summary in
// bench/results/quick/). BENCH_NO_DOCS=1: full runs, docs/benchmarks.md left alone (the summary
// goes to bench/results/summary.md). Every other variable is passed on to every benchmark.
// Each benchmark's output is shown and kept in bench/results/logs/<name>.log.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { machine } from './lib/machine.mjs';
import { QUICK, WRITE_DOCS } from './lib/results.mjs';
import { buildIfNeeded, ROOT } from '../test-support/server.mjs';

/** In the order of docs/benchmarks.md; `section` is the heading their figures are under. */
const BENCHES = [
  { name: 'console-budgets', section: 'Console budgets', what: 'initial JavaScript, Lighthouse, axe' },
  {
    name: 'devices-api',
    section: 'API list endpoints',
    what: 'paged lists under autocannon, 50 connections',
  },
  { name: 'devices-console', section: 'Console with 10 000 devices', what: 'devices page in Chromium' },
  {
    name: 'telemetry-ingest',
    section: 'Telemetry ingest',
    what: 'HTTP and MQTT ingest, SQLite and PostgreSQL',
  },
  { name: 'telemetry-reads', section: 'Telemetry reads and downloads', what: 'chart, report, CSV, XLSX' },
  {
    name: 'telemetry-retention',
    section: 'Telemetry retention',
    what: "PostgreSQL: a day's partition dropped during ingest",
  },
  { name: 'dashboard', section: 'Dashboard', what: 'devices stat and the dashboard page' },
  {
    name: 'chain-fleet',
    section: 'Chain fleet',
    what: '50 000 devices: stat, dashboard, devices page, reference data; SQLite and PostgreSQL',
  },
  {
    name: 'device-flood',
    section: 'Device flood',
    what: "one credential floods; memory, another organisation's list",
  },
];
const TIMEOUT_MS = (Number(process.env.BENCH_TIMEOUT_MINUTES) || 45) * 60_000;
const RESULTS = join(ROOT, 'bench/results', QUICK ? 'quick' : '');

const chosen = (() => {
  const value = process.env.BENCH_ONLY?.trim();
  if (!value) return BENCHES.map((bench) => bench.name);
  const names = value.split(',').map((name) => name.trim().replace(/\.mjs$/, ''));
  const unknown = names.filter((name) => !BENCHES.some((bench) => bench.name === name));
  if (unknown.length) {
    console.error(
      `BENCH_ONLY: unknown ${unknown.join(', ')} (one of ${BENCHES.map((b) => b.name).join(', ')})`,
    );
    process.exit(2);
  }
  return names;
})();
const subset = chosen.length !== BENCHES.length;

const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** A figure's value: rates, scores and counts whole, times and sizes to one decimal (two below 1). */
const number = (/** @type {number | null} */ value, /** @type {string} */ unit = '') =>
  value === null || value === undefined
    ? '–'
    : fmt(
        value,
        Number.isInteger(value) || /\/s$|score|violations/.test(unit) || Math.abs(value) >= 1000
          ? 0
          : Math.abs(value) < 1
            ? 2
            : 1,
      );
const duration = (/** @type {number} */ seconds) => {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
};
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const cell = (/** @type {string} */ text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The last results of a benchmark, or undefined. @param {string} file */
function readResults(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The current child's process group, to end it on Ctrl-C or SIGTERM. */
let running;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    if (running) {
      console.error(`\nrun-all: ${signal}: stopping ${running.name} (process group ${running.pid})`);
      try {
        process.kill(-running.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });

/**
 * Runs one benchmark script as a child process in a process group of its own (its server, the
 * hello-world and Chromium are its children), its output shown with the benchmark's name and
 * kept in a log. Resolves with its exit code (null: killed), how long it took and the log's tail.
 */
function runBench(bench, resultFile, logFile) {
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const env = { ...process.env, E2E_SKIP_BUILD: '1', BENCH_RESULT_FILE: resultFile };
  delete env.BENCH_ONLY;
  const started = Date.now();
  const child = spawn(process.execPath, [join(ROOT, 'bench', `${bench.name}.mjs`)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = { name: bench.name, pid: /** @type {number} */ (child.pid) };
  let tail = '';
  const show = (/** @type {NodeJS.WriteStream} */ out) => {
    let partial = '';
    return (/** @type {Buffer} */ chunk) => {
      log.write(chunk);
      const text = partial + chunk.toString('utf8');
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) out.write(`[${bench.name}] ${line}\n`);
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    };
  };
  child.stdout.on('data', show(process.stdout));
  child.stderr.on('data', show(process.stderr));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    console.error(`run-all: ${bench.name} still running after ${duration(TIMEOUT_MS / 1000)}: stopping it`);
    const group = -(/** @type {number} */ (child.pid));
    try {
      process.kill(group, 'SIGTERM');
      setTimeout(() => {
        try {
          process.kill(group, 'SIGKILL');
        } catch {
          // gone
        }
      }, 30_000).unref();
    } catch {
      // gone
    }
  }, TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running = undefined;
      log.end();
      resolve({ code, signal, timedOut, seconds: (Date.now() - started) / 1000, started, tail });
    });
  });
}

/** The last meaningful lines of a failed benchmark's output (its error). @param {string} tail */
function failureText(tail) {
  const lines = tail
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const error = lines.findLast((line) => /Error|error:|failed|answered|expected/.test(line));
  return (error ?? lines.at(-1) ?? 'no output').slice(0, 300);
}

// ---------------------------------------------------------------------------------------------

const env = machine();
const started = Date.now();
const expected = BENCHES.filter((bench) => chosen.includes(bench.name))
  .map((bench) => {
    const last = readResults(join(RESULTS, `${bench.name}.json`));
    return last?.wallSeconds ?? last?.seconds;
  })
  .filter((seconds) => typeof seconds === 'number');
console.log(
  `run-all — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed}); ` +
    `load average ${load()}; ${subset ? `BENCH_ONLY=${chosen.join(',')}` : 'every benchmark'}` +
    `${QUICK ? ', QUICK (shortened; docs left alone)' : ''}` +
    (expected.length === chosen.length && expected.length
      ? `; the last runs of these took ${duration(expected.reduce((a, b) => a + b, 0))} together`
      : ''),
);

/** @type {{ bench: typeof BENCHES[number], ran: boolean, outcome?: any, results?: any, failure?: string, loadBefore?: string, loadAfter?: string }[]} */
const runs = [];
let buildFailure;
try {
  buildIfNeeded();
} catch (error) {
  buildFailure = `the build failed: ${String(/** @type {Error} */ (error).message ?? error).split('\n')[0]}`;
  console.error(`run-all: ${buildFailure}`);
}
for (const bench of BENCHES) {
  const resultFile = join(RESULTS, `${bench.name}.json`);
  if (!chosen.includes(bench.name)) {
    runs.push({ bench, ran: false, results: readResults(resultFile) });
    continue;
  }
  if (buildFailure) {
    runs.push({ bench, ran: true, failure: buildFailure });
    continue;
  }
  console.log(`\nrun-all: ${bench.name} (bench/${bench.name}.mjs) — load average ${load()}`);
  const loadBefore = load();
  const outcome = await runBench(bench, resultFile, join(RESULTS, 'logs', `${bench.name}.log`));
  const loadAfter = load();
  const results = readResults(resultFile);
  const fresh = results && Date.parse(results.finishedAt) >= outcome.started;
  if (fresh) {
    // The whole process's time (start-up and clean-up included), for the next run's estimate.
    results.wallSeconds = Math.round(outcome.seconds);
    writeFileSync(resultFile, `${JSON.stringify(results, null, 2)}\n`);
  }
  let failure;
  if (outcome.timedOut) failure = `stopped after ${duration(outcome.seconds)} (BENCH_TIMEOUT_MINUTES)`;
  else if (outcome.code !== 0)
    failure = `exit ${outcome.code === null ? `by ${outcome.signal}` : `code ${outcome.code}`}: ${failureText(outcome.tail)}`;
  else if (!fresh) failure = 'ended without writing its results';
  console.log(
    `run-all: ${bench.name} ${failure ? `FAILED (${failure})` : 'done'} in ${duration(outcome.seconds)}`,
  );
  runs.push({
    bench,
    ran: true,
    outcome,
    results: fresh ? results : undefined,
    failure,
    loadBefore,
    loadAfter,
  });
}
const totalSeconds = (Date.now() - started) / 1000;

// ---------------------------------------------------------------------------------------------
// The summary

const ranAll = runs.filter((run) => run.ran);
const missed = [];
const targetRows = [];
for (const run of runs) {
  const label = `${run.bench.section}${run.ran ? '' : ' †'}`;
  for (const f of run.results?.figures ?? []) {
    const verdict = f.verdict === 'met' ? 'met' : f.verdict === 'missed' ? '**MISSED**' : 'no target set';
    const measured = f.value === null ? 'not measured' : `**${number(f.value, f.unit)} ${f.unit}**`;
    const raw = f.raw
      ? `${f.raw.name}: ${number(f.raw.value, f.raw.unit)} ${f.raw.unit}` +
        (typeof f.raw.share === 'number' && Number.isFinite(f.raw.share)
          ? ` (the figure is ${fmt(f.raw.share * 100)} % of it)`
          : '')
      : (f.rawNote ?? 'none applies');
    targetRows.push(
      `| ${cell(label)} | ${cell(f.name)} | ${measured}${f.detail ? ` (${cell(f.detail)})` : ''} | ${cell(raw)} | ${cell(f.target ?? '—')} | ${verdict} |`,
    );
    if (f.verdict === 'missed')
      missed.push(
        `- ${run.bench.section}${run.ran ? '' : ' †'}: ${f.name} — ${f.value === null ? 'not measured' : `${number(f.value, f.unit)} ${f.unit}`}${f.detail ? ` (${f.detail})` : ''}, target ${f.target}.`,
      );
  }
  if (!run.ran && !run.results)
    targetRows.push(
      `| ${cell(run.bench.section)} | every target of this benchmark | not measured: not run here yet | — | — | not measured |`,
    );
  if (run.ran && run.failure) {
    targetRows.push(
      `| ${cell(label)} | every target of this benchmark | not measured: the benchmark failed | — | — | **MISSED** |`,
    );
    missed.push(`- ${run.bench.section}: not measured, the benchmark failed (below).`);
  }
}
const failures = runs.filter((run) => run.failure);
const earlier = runs.filter((run) => !run.ran);

const runRows = runs.map((run) => {
  const r = run.results;
  const when = r
    ? `${r.env?.date ?? r.finishedAt} at \`${r.env?.commit ?? '?'}\` (${r.env?.changed ?? '?'})`
    : '—';
  let outcome;
  if (run.failure) outcome = `**FAILED**: ${run.failure}`;
  else if (!run.ran)
    outcome = r ? 'not run this time: its last results †' : 'not run this time, and no earlier results here';
  else {
    const figures = r.figures ?? [];
    const missedHere = figures.filter((f) => f.verdict === 'missed').length;
    const targets = figures.filter((f) => f.verdict !== 'no target').length;
    outcome = `ran: ${missedHere ? `**${missedHere} of ${targets} targets missed**` : `${targets} targets met`}`;
  }
  if (r?.partial) outcome += ' (partial run)';
  if (r?.quick) outcome += ' (quick run)';
  else if (r && r.docsWritten === false) outcome += ' (its section below was not rewritten)';
  const took =
    run.ran && run.outcome ? duration(run.outcome.seconds) : r ? `${duration(r.seconds)} then` : '—';
  const loads = run.ran && run.loadBefore ? `${run.loadBefore} → ${run.loadAfter}` : '—';
  return `| ${run.bench.section} (\`bench/${run.bench.name}.mjs\`: ${run.bench.what}) | ${outcome} | ${when} | ${took} | ${loads} |`;
});

const lines = [
  ...(QUICK
    ? [
        '**Quick run (`BENCH_QUICK=1`): shortened loads and small fleets, to check the suite works. These figures say nothing about the targets.**',
        '',
      ]
    : []),
  `Run ${env.date} by \`npm run bench\` (\`bench/run-all.mjs\`) at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}); ` +
    `${subset ? `a subset (\`BENCH_ONLY=${chosen.join(',')}\`), ` : ''}took ${duration(totalSeconds)} in all.`,
  '',
  `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}; ${env.chromium}. ` +
    'Each benchmark runs alone, one after another, but the machine may be shared: the load average (1, 5, 15 minutes) ' +
    'before and after each is listed, and figures taken under load are not comparable with quiet ones.',
  '',
  '| benchmark | outcome | measured at | took | load average before → after |',
  '|---|---|---|---:|---|',
  ...runRows,
  '',
  'Every target of every benchmark, with the raw limit measured in the same run on the same machine (plain inserts for the ingest, ' +
    'a bare Fastify hello-world for API endpoints, the same rows read straight from SQLite for downloads; none applies to what is ' +
    'measured in the browser). The sections below give each benchmark in full.',
  '',
  '| benchmark | figure | measured | raw limit, same run | target | verdict |',
  '|---|---|---|---|---|---|',
  ...targetRows,
  '',
  ...(earlier.length
    ? [
        `† Not run this time (\`BENCH_ONLY\`): taken from ${earlier.map((run) => run.bench.section).join(', ')}'s last results (bench/results/, dates above); their sections below hold their last runs that wrote this file.`,
        '',
      ]
    : []),
  `**Targets not met: ${missed.length ? missed.length : 'none'}.**`,
  ...(missed.length ? ['', ...missed] : []),
  '',
  `**Benchmarks that failed: ${failures.length ? failures.length : 'none'}.**`,
  ...(failures.length
    ? [
        '',
        ...failures.map((run) => `- ${run.bench.section} (\`bench/${run.bench.name}.mjs\`): ${run.failure}`),
      ]
    : []),
];
const summary = lines.join('\n');
console.log(`\n${summary}\n`);

mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, 'summary.md'), `${summary}\n`);
writeFileSync(
  join(RESULTS, 'summary.json'),
  `${JSON.stringify(
    {
      env,
      quick: QUICK,
      only: subset ? chosen : null,
      seconds: Math.round(totalSeconds),
      benches: runs.map((run) => ({
        name: run.bench.name,
        ran: run.ran,
        failure: run.failure ?? null,
        seconds: run.outcome ? Math.round(run.outcome.seconds) : null,
        loadBefore: run.loadBefore ?? null,
        loadAfter: run.loadAfter ?? null,
        results: run.results ?? null,
      })),
      missed: missed.length,
    },
    null,
    2,
  )}\n`,
);
if (WRITE_DOCS)
  writeBenchmarkSection({
    name: 'summary',
    script: 'bench/run-all.mjs',
    heading: 'Summary',
    section: summary,
    top: true,
  });
console.log(
  `run-all: summary in ${relative(ROOT, join(RESULTS, 'summary.md'))}` +
    `${WRITE_DOCS ? ' and at the top of docs/benchmarks.md' : ' (docs/benchmarks.md left alone)'}; ` +
    `${ranAll.length} benchmark(s) run, ${failures.length} failed, ${missed.length} target(s) missed, ${duration(totalSeconds)}`,
);
const strict = process.env.BENCH_STRICT === '1';
process.exit(failures.length || (strict && missed.length) ? 1 : 0);
