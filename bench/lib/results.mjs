// The machine-readable results of every benchmark: each script writes one JSON file (by default
// bench/results/<name>.json, git-ignored) with its figures, each beside its target and the raw
// limit measured in the same run. bench/run-all.mjs reads them for the summary at the top of
// docs/benchmarks.md.
//
// BENCH_QUICK=1: every benchmark runs shortened (smaller fleets, shorter loads, fewer runs) to
// check that it works; its figures mean nothing, so it never rewrites docs/benchmarks.md and its
// results go to bench/results/quick/. A partial run (a benchmark's own BENCH_ONLY and the like)
// writes to bench/results/partial/. BENCH_RESULT_FILE names the file instead (run-all sets it).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from '../../test-support/server.mjs';

export const QUICK = process.env.BENCH_QUICK === '1';

/** Whether this run may rewrite its section of docs/benchmarks.md: not with BENCH_QUICK or BENCH_NO_DOCS. */
export const WRITE_DOCS = !QUICK && process.env.BENCH_NO_DOCS !== '1';

/**
 * A numeric setting: the environment variable `name` when it is a number, else `full`, or `quick`
 * under BENCH_QUICK=1.
 * @param {string} name @param {number} full @param {number} quick
 */
export function setting(name, full, quick) {
  const given = Number(process.env[name]);
  return process.env[name]?.trim() && Number.isFinite(given) ? given : QUICK ? quick : full;
}

/** Where a benchmark's results go (see the header). @param {string} name @param {boolean} partial */
export function resultsFile(name, partial = false) {
  if (process.env.BENCH_RESULT_FILE) return process.env.BENCH_RESULT_FILE;
  return join(ROOT, 'bench/results', QUICK ? 'quick' : partial ? 'partial' : '', `${name}.json`);
}

/**
 * @typedef {object} Raw  the raw limit a figure is read against, measured in the same run
 * @property {string} name
 * @property {number | null} value
 * @property {string} unit
 * @property {number} [share]  the figure as a share of it (0–1), where the two are rates of the same work
 */

/**
 * @typedef {object} Figure
 * @property {string} name
 * @property {number | null} value   null: not measured
 * @property {string} unit
 * @property {string} [detail]       more of the same measurement (p99, memory, runs)
 * @property {string | null} target  as text; null: no target set
 * @property {'met' | 'missed' | 'no target'} verdict
 * @property {Raw | null} raw
 * @property {string} [rawNote]      why there is no raw limit
 */

/**
 * One figure. `met` is whether the target holds; a figure that could not be measured (value null
 * or NaN) misses its target. Without a `raw` limit, `rawNote` says why none applies.
 * @param {{ name: string, value: number | null | undefined, unit: string, detail?: string,
 *   target?: string | null, met?: boolean, raw?: Raw | null, rawNote?: string }} options
 * @returns {Figure}
 */
export function figure({ name, value, unit, detail, target = null, met = false, raw = null, rawNote }) {
  const measured = typeof value === 'number' && Number.isFinite(value);
  /** @type {Figure} */
  const result = {
    name,
    value: measured ? value : null,
    unit,
    target,
    verdict: target === null ? 'no target' : measured && met ? 'met' : 'missed',
    raw:
      raw && typeof raw.value === 'number' && Number.isFinite(raw.value)
        ? raw
        : raw
          ? { ...raw, value: null }
          : null,
  };
  if (detail) result.detail = detail;
  if (!raw) result.rawNote = rawNote ?? 'none applies';
  return result;
}

/** The note for figures measured in a browser, which no server-side raw limit describes. */
export const NO_RAW_BROWSER = 'none applies (measured in Chromium)';

/**
 * Writes a benchmark's results (see the header) and says where.
 * @param {string} name  the benchmark, e.g. `devices-api`
 * @param {{ script: string, title: string, env: Record<string, string>, figures: Figure[],
 *   partial?: boolean, docsWritten: boolean, notes?: string[], settings?: Record<string, unknown> }} results
 */
export function writeResults(
  name,
  { script, title, env, figures, partial = false, docsWritten, notes, settings },
) {
  const file = resultsFile(name, partial);
  const started = performance.timeOrigin;
  const record = {
    bench: name,
    script,
    title,
    env,
    quick: QUICK,
    partial,
    docsWritten,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date().toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
    settings: settings ?? {},
    figures,
    notes: notes ?? [],
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  const missed = figures.filter((f) => f.verdict === 'missed');
  console.log(
    `results: ${relative(ROOT, file)} (${figures.length} figures, ${missed.length} target(s) missed` +
      `${QUICK ? ', quick run: figures not comparable' : ''})`,
  );
  return record;
}
