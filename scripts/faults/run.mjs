// The fault suite (docs/operations.md, "Faults"): each scenario of scripts/faults runs
// as a process of its own, one after the other, against the built server (npm run build first, as
// .ci/run does) with private PostgreSQL, Mosquitto and file systems on free ports and temporary
// folders; the machine's own PostgreSQL (5432) and Mosquitto (1883) are never touched. Each prints
// PASS/FAIL lines; this prints one line per scenario and exits 1 when any failed.
// `FAULTS_ONLY=disk-full,read-only npm run test:faults` runs some of them.
// Needs root: the disk scenarios mount a tmpfs, PostgreSQL's initdb runs as the postgres user.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../..');

/** The scenarios, in the order they run, with what each does to Kontrol. */
const SCENARIOS = [
  ['database-outage', 'PostgreSQL stopped and started again under a running Kontrol'],
  ['gateway-outage', 'PostgreSQL stopped under a gateway process of its own with an external broker'],
  ['broker-restart', 'the external Mosquitto restarted while devices publish'],
  ['disk-full', "the SQLite database's disk filled up, then freed"],
  ['read-only', "the SQLite database's file system read-only"],
  ['ledger-kill', 'SIGKILL during concurrent ledger writes (payment callbacks)'],
];

const only = process.env.FAULTS_ONLY?.split(',').map((name) => name.trim());
const chosen = SCENARIOS.filter(([name]) => !only || only.includes(/** @type {string} */ (name)));
if (only && chosen.length !== only.length) {
  console.error(
    `FAULTS_ONLY names an unknown scenario; known: ${SCENARIOS.map(([name]) => name).join(', ')}`,
  );
  process.exit(2);
}

const missing = ['apps/api/dist/server.js', 'apps/api/dist/cli.js', 'apps/console/dist/index.html'].filter(
  (path) => !existsSync(join(ROOT, path)),
);
if (missing.length > 0) {
  console.error(`faults: build first (npm run build): missing ${missing.join(', ')}`);
  process.exit(2);
}
if (process.getuid?.() !== 0) {
  console.error('faults: needs root (mount -t tmpfs, runuser -u postgres for initdb)');
  process.exit(2);
}

/**
 * Runs one scenario file; its output goes straight through.
 * @param {string} name
 * @returns {Promise<{ code: number, seconds: number }>}
 */
function run(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(HERE, `${name}.mjs`)], { cwd: ROOT, stdio: 'inherit' });
    child.once('exit', (code, signal) => {
      resolve({ code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 });
    });
  });
}

const startedAll = Date.now();
/** @type {{ name: string, what: string, code: number, seconds: number }[]} */
const results = [];
for (const [name, what] of chosen) {
  console.log(`\n== fault: ${name} — ${what}`);
  results.push({
    name: /** @type {string} */ (name),
    what: /** @type {string} */ (what),
    ...(await run(/** @type {string} */ (name))),
  });
}

console.log('\n== fault suite');
for (const result of results) {
  console.log(
    `${result.code === 0 ? 'PASS' : 'FAIL'} ${result.name} (${result.seconds.toFixed(1)} s): ${result.what}`,
  );
}
const failed = results.filter((result) => result.code !== 0);
const total = ((Date.now() - startedAll) / 1000).toFixed(1);
if (failed.length > 0) {
  console.log(`faults: ${failed.length} of ${results.length} scenarios FAILED (${total} s)`);
  process.exit(1);
}
console.log(`faults: all ${results.length} scenarios passed (${total} s)`);
