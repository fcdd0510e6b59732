// One way to run the real Kontrol server for browser tests (e2e/) and the console budgets (bench/):
// build what is missing, start `node apps/api/dist/server.js` on a free port with a fresh SQLite
// database, wait for /readyz, seed fixtures through the operator CLI, sign in through the API, and
// stop the server again. Plain JavaScript with JSDoc types so both Node scripts and the Playwright
// TypeScript import it.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, buildIfNeeded as buildScripts } from '../scripts/build-if-needed.mjs';

export { ROOT };

/**
 * Builds what is stale (scripts/build-if-needed.mjs); `E2E_SKIP_BUILD=1` measures and tests the
 * built files as they are.
 * @param {{ log?: (line: string) => void }} [options]
 */
export function buildIfNeeded(options = {}) {
  if (process.env.E2E_SKIP_BUILD === '1') {
    (options.log ?? console.log)('build skipped (E2E_SKIP_BUILD=1)');
    return;
  }
  buildScripts(options);
}

/**
 * The device limits lifted (docs/device-protocol.md, "Limits"), for runs that push millions of
 * samples through a few devices on purpose: throughput benchmarks, the bulk loads of the read
 * benchmarks and the crash test. The limits still run; they just never refuse.
 */
export const UNLIMITED_DEVICES_ENV = {
  DEVICE_MAX_CONNECTIONS: '10000',
  DEVICE_MAX_IN_FLIGHT: '65535',
  DEVICE_SAMPLES_PER_SECOND: '1000000',
  DEVICE_SAMPLES_BURST: '1000000000',
  DEVICE_SAMPLES_PER_DAY: '1000000000000',
};

/** A TCP port that was free a moment ago on 127.0.0.1 (the kernel's choice: ephemeral range). */
export function freePort() {
  return /** @type {Promise<number>} */ (
    new Promise((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const address = probe.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        probe.close(() => resolve(port));
      });
    })
  );
}

/**
 * Polls `${baseURL}/readyz` until it answers 200.
 * @param {string} baseURL
 * @param {{ timeoutMs?: number, isAlive?: () => boolean }} [options]
 */
export async function waitForReady(baseURL, { timeoutMs = 60_000, isAlive = () => true } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isAlive()) throw new Error('the server exited before it became ready');
    try {
      if ((await fetch(`${baseURL}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${baseURL}/readyz did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * @typedef {object} RunningServer
 * @property {string} baseURL     e.g. http://127.0.0.1:41234
 * @property {number} pid         the server process
 * @property {string} dir         temporary folder holding the database and the log
 * @property {string} databaseUrl `sqlite:<dir>/kontrol.db`
 * @property {string} logFile     the server's stdout and stderr
 * @property {(options?: { keepFiles?: boolean }) => Promise<void>} stop  SIGTERM, then SIGKILL after 15 s; removes `dir` unless `keepFiles`
 */

/**
 * Starts the real server (`node apps/api/dist/server.js`) on a free port with a fresh temporary
 * SQLite database, DEMO=0 and LOG_LEVEL=warn, and waits until /readyz answers. It serves a copy of
 * apps/console/dist taken now (unless CONSOLE_DIST is set), so a console rebuild during the run
 * (which empties dist/ first) cannot turn pages into 404s halfway through.
 * @param {{ env?: Record<string, string>, nodeArgs?: string[] }} [options] `nodeArgs` go before the
 *   script (e.g. `--cpu-prof`, which NODE_OPTIONS does not accept)
 * @returns {Promise<RunningServer>}
 */
export async function startServer({ env = {}, nodeArgs = [] } = {}) {
  const built = join(ROOT, 'apps/console/dist');
  if (!process.env.CONSOLE_DIST && !existsSync(join(built, 'index.html')))
    throw new Error('apps/console/dist/index.html is missing: build the console first');
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-e2e-'));
  let consoleDist = process.env.CONSOLE_DIST;
  if (!consoleDist) {
    consoleDist = join(dir, 'console-dist');
    try {
      cpSync(built, consoleDist, { recursive: true });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // A DATABASE_URL in `env` (another SQLite file, PostgreSQL) replaces the fresh temporary file.
  const databaseUrl = env.DATABASE_URL ?? `sqlite:${join(dir, 'kontrol.db')}`;
  const logFile = join(dir, 'server.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'apps/api/dist/server.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: baseURL,
      DATABASE_URL: databaseUrl,
      DEMO: '0',
      LOG_LEVEL: 'warn',
      SMTP_URL: '',
      CONSOLE_DIST: consoleDist,
      // The embedded MQTT broker on a free port (1883 may be another broker's).
      MQTT_PORT: '0',
      // The server is this process itself, not a supervisor's child: what is measured, killed and
      // started again by its caller is the process that serves.
      RESTART_ON_CRASH: '0',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const pid = /** @type {number} */ (child.pid);
  let exited = child.exitCode !== null;
  let stopping = false;
  const exit = new Promise((resolve) => child.once('exit', () => resolve(undefined)));
  child.once('exit', (code, signal) => {
    exited = true;
    // Nobody asked it to stop: say so at once, with what it logged, before anything else fails.
    if (!stopping && !expectedExits().has(pid)) {
      const output = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '';
      console.error(
        `kontrol server ${baseURL} exited unexpectedly (code ${code}, signal ${signal})` +
          `\n--- server output ---\n${output}`,
      );
    }
  });
  /** @param {{ keepFiles?: boolean }} [options] `keepFiles`: leave `dir` (the database) for a restart */
  const stop = async ({ keepFiles = false } = {}) => {
    stopping = true;
    await stopProcess(pid, exit);
    if (!keepFiles) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForReady(baseURL, { isAlive: () => !exited });
  } catch (error) {
    const output = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '';
    await stop();
    throw new Error(`${/** @type {Error} */ (error).message}\n--- server output ---\n${output}`, {
      cause: error,
    });
  }
  return { baseURL, pid, dir, databaseUrl, logFile, stop };
}

/**
 * Pids this process was asked to stop. Kept on `globalThis`, so a second copy of this module (the
 * Playwright runner may load it once for the global setup, once for the teardown) sees them too.
 * @returns {Set<number>}
 */
function expectedExits() {
  const key = Symbol.for('kontrol.expectedExits');
  const store = /** @type {Record<symbol, Set<number>>} */ (/** @type {unknown} */ (globalThis));
  store[key] ??= new Set();
  return store[key];
}

/**
 * Ends the process `pid` (one this code started): SIGTERM, then SIGKILL after `graceMs`.
 * @param {number} pid
 * @param {Promise<unknown>} [exited] resolves when the process has exited (else `pid` is polled)
 * @param {number} [graceMs]
 */
export async function stopProcess(pid, exited, graceMs = 15_000) {
  expectedExits().add(pid);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGTERM');
  const gone =
    exited ??
    (async () => {
      while (alive()) await new Promise((resolve) => setTimeout(resolve, 100));
    })();
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timedOut = await Promise.race([
    gone.then(() => false),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  // Cleared, or the grace timer alone would keep the caller's process alive for graceMs.
  clearTimeout(timer);
  if (timedOut && alive()) process.kill(pid, 'SIGKILL');
}

/**
 * Runs the operator CLI (`node apps/api/dist/cli.js …`) on the given database; returns its stdout.
 * @param {string[]} args
 * @param {{ databaseUrl: string, appUrl?: string }} options
 */
export function runCli(args, { databaseUrl, appUrl }) {
  try {
    return execFileSync(process.execPath, [join(ROOT, 'apps/api/dist/cli.js'), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        // The console's address, as the server has it (links the tool prints are on it).
        ...(appUrl ? { APP_URL: appUrl } : {}),
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failure = /** @type {{ stderr?: string, stdout?: string, message: string }} */ (error);
    throw new Error(`kontrol ${args[0]} failed: ${failure.stderr || failure.stdout || failure.message}`, {
      cause: error,
    });
  }
}

/**
 * @typedef {object} Login
 * @property {string} email
 * @property {string} password
 * @property {string} name     shown on the user menu button
 * @property {string[]} modules the module slugs the user holds
 */

/**
 * @typedef {object} Fixtures
 * @property {number} organisationId
 * @property {Login} admin         organisation admin: every module
 * @property {Login} recipes       access role with `recipes` only
 * @property {Login} noModules     no access role: no module
 * @property {Login} dashboardUsers access role with `dashboard,users`
 * @property {Login} profile       `dashboard,users`, for tests that end or change its session
 */

export const ALL_MODULES = [
  'dashboard',
  'telemetry',
  'requests',
  'device_event_template',
  'recipes',
  'addresses',
  'devices',
  'users',
  'settings',
  'billing',
];

/**
 * Seeds one organisation through the operator CLI (the real public door): an admin, two access
 * roles and three more users. `suffix` keeps e-mails unique on a database that already has users.
 * The commands run in one Node process (seed-fixtures.mjs).
 * @param {{ databaseUrl: string, suffix?: string }} options
 * @returns {Fixtures}
 */
export function seedFixtures({ databaseUrl, suffix = '' }) {
  try {
    const output = execFileSync(
      process.execPath,
      [join(ROOT, 'test-support/seed-fixtures.mjs'), databaseUrl, suffix],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return /** @type {Fixtures} */ (JSON.parse(output));
  } catch (error) {
    const failure = /** @type {{ stderr?: string, message: string }} */ (error);
    throw new Error(`seeding the fixtures failed: ${failure.stderr || failure.message}`, { cause: error });
  }
}

/**
 * Signs in through the API as the console does (GET /sanctum/csrf-cookie, then POST /api/login
 * with X-XSRF-TOKEN). Returns the session's cookies, as a `Cookie` header and one by one, and its
 * CSRF token.
 * @param {string} baseURL
 * @param {{ email: string, password: string }} login
 */
export async function apiLogin(baseURL, { email, password }) {
  /** @type {Map<string, string>} */
  const jar = new Map();
  const keep = (/** @type {Response} */ response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  const header = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  keep(await fetch(`${baseURL}/sanctum/csrf-cookie`));
  const xsrf = decodeURIComponent(jar.get('XSRF-TOKEN') ?? '');
  const response = await fetch(`${baseURL}/api/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      cookie: header(),
      'x-xsrf-token': xsrf,
    },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login of ${email} answered ${response.status}`);
  keep(response);
  return {
    cookieHeader: header(),
    cookies: [...jar].map(([name, value]) => ({ name, value })),
    /** The session's CSRF token (the XSRF-TOKEN cookie decoded), for X-XSRF-TOKEN. */
    xsrf: decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
  };
}

/**
 * The start of every big-fleet benchmark: the fixtures of {@link seedFixtures}, `devices` devices
 * added to their organisation through the operator CLI (`seed:fleet`), and its admin signed in.
 * @param {RunningServer} server
 * @param {number} devices
 */
export async function seedFleetAndSignIn(server, devices) {
  const logins = seedFixtures({ databaseUrl: server.databaseUrl });
  const seeded = runCli(
    ['seed:fleet', '--org', String(logins.organisationId), '--devices', String(devices)],
    server,
  ).trim();
  const admin = await apiLogin(server.baseURL, logins.admin);
  return { logins, admin, seeded };
}
