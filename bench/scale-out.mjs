// The scale-out test of docs/deployment.md: Kontrol as production runs it on several processes,
// on loopback. Starts Mosquitto 2 (persistence, dynamic security, shared subscriptions), a fresh
// PostgreSQL database, 2 API processes (MQTT_CONSUME=0) and 2 gateway processes
// (`apps/gateway/dist/main.js`, one MQTT_CLIENT_ID each), and Debian's nginx in front of them as the TLS
// terminator and load balancer. Then it drives SCALE_DEVICES simulated devices (default 200: three
// quarters over MQTT to the broker, a quarter over HTTPS through nginx to the gateways), and
// SCALE_CLIENTS browser-like API clients (default 50: signed in with a session and CSRF token,
// reading lists and posting) plus two live-update streams through nginx. In the middle it kills
// one API and one gateway with SIGKILL; the gateway is started again 5 s later, as its process
// manager would (its broker session holds the messages it had taken and not acknowledged). It
// checks:
// - no acknowledged sample lost (PUBACK from the broker, 202 from a gateway), none stored twice;
// - no client request failed except those in flight on the killed API process;
// - every session still valid at the end, whichever process created it;
// - login throttling counted across the API processes (429 after five failures on both);
// - the live streams got devices' updates before and after the kill (they reconnect);
// - both gateways took a share of the messages, and each process's /metrics answers.
// Prints its figures, and writes them into docs/benchmarks.md ("Scale-out") unless BENCH_NO_DOCS=1.
//   npm run bench:scale-out    (npm run build first; PostgreSQL from SCALE_DATABASE_URL,
//                               TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import pg from 'pg';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { issueCredentials } from '../test-support/devices.mjs';
import { machine } from './lib/machine.mjs';
import { startMosquitto } from '../test-support/mosquitto.mjs';
import { waitForPort } from '../test-support/wait-for-port.mjs';
import { ROOT, apiLogin, freePort, runCli, seedFixtures, waitForReady } from '../test-support/server.mjs';

const DEVICES = Number(process.env.SCALE_DEVICES ?? 200);
const CLIENTS = Number(process.env.SCALE_CLIENTS ?? 50);
const RUN_MS = Number(process.env.SCALE_RUN_SECONDS ?? 40) * 1000;
const KILL_AT_MS = Math.round(RUN_MS * 0.4);
const GATEWAY_BACK_AFTER_MS = 5_000;
const SAMPLES_PER_MESSAGE = 10;
const SEND_EVERY_MS = 1_000;
const NGINX = '/usr/sbin/nginx';

// Node's fetch must trust the test's own certificate: it is made first, then this script runs
// again with NODE_EXTRA_CA_CERTS naming it (Node reads that variable only at start).
if (!process.env.SCALE_CERT_DIR) {
  const certDir = mkdtempSync(join(tmpdir(), 'kontrol-scale-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, SCALE_CERT_DIR: certDir, NODE_EXTRA_CA_CERTS: join(certDir, 'cert.pem') },
  });
  rmSync(certDir, { recursive: true, force: true });
  process.exit(run.status ?? 1);
}
const CERT_DIR = process.env.SCALE_CERT_DIR;

for (const [what, path] of [
  ['nginx (apt-get install nginx)', NGINX],
  ['the built server (npm run build)', join(ROOT, 'apps/gateway/dist/main.js')],
]) {
  if (!existsSync(path)) {
    console.error(`scale-out: ${what} is missing (${path})`);
    process.exit(1);
  }
}

const work = mkdtempSync(join(tmpdir(), 'kontrol-scale-'));
chmodSync(work, 0o755);
/** @type {(() => Promise<void> | void)[]} run in reverse order at the end */
const cleanups = [];
const log = (/** @type {string} */ line) => console.log(`scale-out: ${line}`);
let passed = false;
try {
  passed = await run();
} catch (error) {
  console.error(error);
} finally {
  for (const cleanup of cleanups.reverse())
    await Promise.resolve(cleanup()).catch((error) => console.error(error));
}
if (passed) rmSync(work, { recursive: true, force: true });
else console.log(`scale-out: logs kept in ${work}`);
log(passed ? 'passed' : 'FAILED');
process.exit(passed ? 0 : 1);

/** The whole test; true when every check passed. */
async function run() {
  // ---------------------------------------------------------------------------------------------
  // The engines: PostgreSQL (a database of the run's own), Mosquitto, then Kontrol's processes.

  const adminUrl =
    process.env.SCALE_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const databaseName = `kontrol_scale_${process.pid}`;
  {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
  }
  const databaseUrl = (() => {
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    return url.toString();
  })();
  cleanups.push(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  });

  const broker = await startMosquitto();
  cleanups.push(() => broker.destroy());

  /**
   * @typedef {object} Proc
   * @property {string} name
   * @property {number} port
   * @property {number} metricsPort
   * @property {import('node:child_process').ChildProcess} child
   * @property {() => Promise<Proc>} restart  starts a new process with the same settings
   */

  /** @type {Set<import('node:child_process').ChildProcess>} */
  const children = new Set();
  cleanups.push(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await sleep(500);
  });

  /**
   * Starts `node <script>` (a path from the repository's root) with the shared settings and waits for /readyz.
   * @param {string} name @param {string} script @param {Record<string, string>} env
   * @returns {Promise<Proc>}
   */
  async function startProcess(name, script, env, ports = { port: 0, metricsPort: 0 }) {
    const port = ports.port || (await freePort());
    const metricsPort = ports.metricsPort || (await freePort());
    const logFile = join(work, `${name}.log`);
    const out = openSync(logFile, 'a');
    const child = spawn(process.execPath, [join(ROOT, script)], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_MAX: '10',
        MQTT_URL: broker.url,
        LOG_LEVEL: process.env.SCALE_LOG_LEVEL ?? 'warn',
        TRUST_PROXY: '1',
        DEMO: '0',
        SMTP_URL: '',
        ...env,
      },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    children.add(child);
    await waitForReady(`http://127.0.0.1:${port}`, {
      isAlive: () => child.exitCode === null,
    }).catch((error) => {
      throw new Error(`${name}: ${error.message}\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
    });
    /** @type {Proc} */
    const proc = {
      name,
      port,
      metricsPort,
      child,
      restart: () => startProcess(name, script, env, { port, metricsPort }),
    };
    return proc;
  }

  const appUrl = `https://127.0.0.1:${await freePort()}`;
  const apiEnv = { MQTT_CONSUME: '0', APP_URL: appUrl };
  // The first API process brings the schema up; the others start on it together.
  const api1 = await startProcess('api-1', 'apps/api/dist/server.js', apiEnv);
  const [api2, gateway1, gateway2] = await Promise.all([
    startProcess('api-2', 'apps/api/dist/server.js', apiEnv),
    startProcess('gateway-1', 'apps/gateway/dist/main.js', { MQTT_CLIENT_ID: 'kontrol-scale-gw-1' }),
    startProcess('gateway-2', 'apps/gateway/dist/main.js', { MQTT_CLIENT_ID: 'kontrol-scale-gw-2' }),
  ]);
  log(
    `PostgreSQL ${databaseName}, Mosquitto on ${broker.port}, API on ${api1.port} and ${api2.port}, gateways on ${gateway1.port} and ${gateway2.port}`,
  );

  // nginx: TLS on the public port; devices' HTTP to the gateways, everything else to the APIs.
  const nginxDir = join(work, 'nginx');
  mkdirSync(nginxDir);
  chmodSync(nginxDir, 0o777);
  const publicPort = Number(new URL(appUrl).port);
  const nginxConf = join(nginxDir, 'nginx.conf');
  writeFileSync(
    nginxConf,
    readFileSync(join(ROOT, 'docs/deployment/nginx.conf'), 'utf8')
      .replaceAll('/etc/kontrol/tls', CERT_DIR)
      .replace(/^user .*$/m, '')
      .replace(/^pid .*$/m, `pid ${nginxDir}/nginx.pid;`)
      .replace(/^error_log .*$/m, `error_log ${nginxDir}/error.log warn;`)
      .replace(
        'http {',
        `http {\n  client_body_temp_path ${nginxDir}/body;\n  proxy_temp_path ${nginxDir}/proxy;\n  fastcgi_temp_path ${nginxDir}/fastcgi;\n  uwsgi_temp_path ${nginxDir}/uwsgi;\n  scgi_temp_path ${nginxDir}/scgi;`,
      )
      .replace(/server 127\.0\.0\.1:8081/, `server 127.0.0.1:${api1.port}`)
      .replace(/server 127\.0\.0\.1:8082/, `server 127.0.0.1:${api2.port}`)
      .replace(/server 127\.0\.0\.1:8091/, `server 127.0.0.1:${gateway1.port}`)
      .replace(/server 127\.0\.0\.1:8092/, `server 127.0.0.1:${gateway2.port}`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${publicPort} ssl http2;`)
      .replace('listen [::]:443 ssl http2;', '')
      .replace(/ {2}server \{\n {4}listen 80;[\s\S]*?\n {2}\}\n/, '')
      .replace(/access_log [^;]+;/, 'access_log off;')
      // Which process answered, or failed to: tells a request in flight on the killed one.
      .replace(
        'server_tokens off;',
        'server_tokens off;\n  add_header X-Kontrol-Upstream $upstream_addr always;',
      ),
  );
  const nginx = spawn(NGINX, ['-p', nginxDir, '-c', nginxConf, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let nginxErrors = '';
  nginx.stderr.on('data', (chunk) => (nginxErrors += chunk));
  children.add(nginx);
  await waitForPort(publicPort, { exited: () => nginx.exitCode !== null, what: 'nginx' }).catch((error) => {
    throw new Error(`nginx: ${error.message}\n${nginxErrors}\n${readFileSync(nginxConf, 'utf8')}`);
  });
  await waitForReady(appUrl);

  // ---------------------------------------------------------------------------------------------
  // The organisation, its devices' credentials (each one an account in the broker), the clients.

  const logins = seedFixtures({ databaseUrl });
  runCli(['seed:fleet', '--org', String(logins.organisationId), '--devices', String(DEVICES * 2)], {
    databaseUrl,
  });
  const admin = await apiLogin(appUrl, logins.admin);
  const throttled = await loginThrottleHolds(appUrl, logins.recipes);
  const devices = await issueCredentials(appUrl, admin, DEVICES);
  const mqttDevices = devices.slice(0, Math.round(DEVICES * 0.75));
  const httpDevices = devices.slice(mqttDevices.length);
  log(
    `${devices.length} devices (${mqttDevices.length} over MQTT, ${httpDevices.length} over HTTPS), ${CLIENTS} API clients, ${RUN_MS / 1000} s`,
  );

  // ---------------------------------------------------------------------------------------------
  // The run.

  const startedAt = Date.now();
  /** When api-2 and gateway-2 were killed (0: not yet). */
  let killedAt = 0;
  const sampleBase = startedAt - 60_000; // a minute ago: never ahead of the clock, recent enough to be sent live
  let stopping = false;
  /** @type {Map<number, Set<number>>} acknowledged sample times per device */
  const acknowledged = new Map(devices.map((device) => [device.id, new Set()]));
  /** @type {Map<number, number>} samples sent per device (acknowledged or not) */
  const sent = new Map(devices.map((device) => [device.id, 0]));
  const counts = { mqttAcked: 0, httpAcked: 0, httpFailures: 0, httpRejected: 0 };
  const batchOf = (/** @type {number} */ round) =>
    Array.from({ length: SAMPLES_PER_MESSAGE }, (_, k) => ({
      ts: sampleBase + round * SAMPLES_PER_MESSAGE + k,
      current: 4 + (k % 3),
      temperature: 70 + k,
      door_open: false,
      state: 'heating',
    }));

  const mqttSenders = mqttDevices.map(async (device, index) => {
    await sleep((index * SEND_EVERY_MS) / mqttDevices.length); // spread over the second
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: device.controllerId,
      username: device.controllerId,
      password: device.credential,
      protocolVersion: index % 2 === 0 ? 4 : 5,
      clean: false,
      reconnectPeriod: 1_000,
    });
    client.on('error', () => undefined);
    const pending = [];
    for (let round = 0; !stopping; round += 1) {
      const batch = batchOf(round);
      sent.set(device.id, (sent.get(device.id) ?? 0) + batch.length);
      pending.push(
        client
          .publishAsync(`kontrol/v1/${device.controllerId}/telemetry`, JSON.stringify(batch), { qos: 1 })
          .then(() => {
            for (const s of batch) acknowledged.get(device.id)?.add(s.ts);
            counts.mqttAcked += batch.length;
          }),
      );
      await sleep(SEND_EVERY_MS);
    }
    await Promise.allSettled(pending);
    await client.endAsync();
  });

  const httpSenders = httpDevices.map(async (device, index) => {
    await sleep((index * SEND_EVERY_MS) / httpDevices.length);
    let round = 0;
    let counted = -1;
    while (!stopping) {
      const batch = batchOf(round);
      if (counted !== round) sent.set(device.id, (sent.get(device.id) ?? 0) + batch.length);
      counted = round;
      try {
        const res = await fetch(`${appUrl}/api/ingest/v1/telemetry`, {
          method: 'POST',
          headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
          body: JSON.stringify(batch),
        });
        if (res.status === 202) {
          const answer = /** @type {{ data: { rejected: unknown[] } }} */ (await res.json());
          counts.httpRejected += answer.data.rejected.length;
          for (const s of batch) acknowledged.get(device.id)?.add(s.ts);
          counts.httpAcked += batch.length;
          round += 1; // a device sends its next message only once this one is acknowledged
        } else {
          await res.body?.cancel();
          counts.httpFailures += 1;
        }
      } catch {
        counts.httpFailures += 1;
      }
      await sleep(SEND_EVERY_MS);
    }
  });

  /** @typedef {{ start: number, end: number, status: number, what: string, upstream: string }} Call */
  /** @type {Call[]} */
  const calls = [];
  const clientSessions = [];
  for (let i = 0; i < CLIENTS; i += 1) clientSessions.push(await apiLogin(appUrl, logins.admin));
  const READS = [
    '/api/users/auth',
    '/api/devices/?page=1',
    '/api/devices/stat',
    '/api/addresses/',
    '/api/rooms/',
    '/api/recipes/',
    '/api/notifications/unread',
  ];
  const clientLoops = clientSessions.map(async (session, index) => {
    await sleep(index * 20);
    for (let n = 0; !stopping; n += 1) {
      const post = n % 5 === 4;
      const what = post ? 'POST /api/users/balance_log' : `GET ${READS[(n + index) % READS.length]}`;
      const start = Date.now();
      let status = 0;
      let upstream = '';
      try {
        const res = await fetch(`${appUrl}${what.split(' ')[1]}`, {
          method: post ? 'POST' : 'GET',
          headers: {
            cookie: session.cookieHeader,
            'x-xsrf-token': session.xsrf,
            accept: 'application/json',
            ...(post ? { 'content-type': 'application/json' } : {}),
          },
          body: post ? JSON.stringify({ page: 1 }) : undefined,
        });
        status = res.status;
        upstream = res.headers.get('x-kontrol-upstream') ?? '';
        await res.arrayBuffer();
      } catch {
        // a connection nginx dropped: status 0
      }
      calls.push({ start, end: Date.now(), status, what, upstream });
      await sleep(50 + ((n * 37 + index * 11) % 100));
    }
  });

  const streamsEnd = new AbortController();
  /** A live-updates stream through nginx, reconnected like a browser's EventSource. */
  // One stream on each API process (nginx names the process in a header; a stream that landed on the
  // other one is closed and opened again until it lands right), so one of them loses its process.
  const watchers = [api1, api2].map(async (target) => {
    const seen = {
      before: new Set(),
      after: new Set(),
      reconnects: 0,
      /** @type {number[]} */ refused: [],
      /** @type {string[]} */ served: [],
    };
    let lastId = '';
    while (!stopping) {
      try {
        const res = await fetch(`${appUrl}/api/live`, {
          headers: {
            cookie: admin.cookieHeader,
            accept: 'text/event-stream',
            ...(lastId ? { 'last-event-id': lastId } : {}),
          },
          signal: streamsEnd.signal,
        });
        if (res.status !== 200 || !res.body) {
          seen.refused.push(res.status);
          await res.body?.cancel();
          throw new Error(`the stream answered ${res.status}`);
        }
        const upstream = res.headers.get('x-kontrol-upstream') ?? '';
        if (seen.served.length === 0 && upstream !== `127.0.0.1:${target.port}`) {
          await res.body.cancel();
          continue;
        }
        seen.served.push(upstream === `127.0.0.1:${api1.port}` ? 'api-1' : 'api-2');
        let text = '';
        for await (const chunk of res.body) {
          text += Buffer.from(chunk).toString();
          let end;
          while ((end = text.indexOf('\n\n')) !== -1) {
            const block = text.slice(0, end);
            text = text.slice(end + 2);
            const event = /^event: (.+)$/m.exec(block)?.[1];
            const id = /^id: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (id) lastId = id;
            if (event === 'devices' && data) {
              const into = killedAt === 0 ? seen.before : seen.after;
              for (const device of JSON.parse(data).data) into.add(device.id);
            }
          }
        }
      } catch {
        // the stream ended (its API process was killed, or the run is over)
      }
      if (!stopping) {
        seen.reconnects += 1;
        await sleep(500);
      }
    }
    return seen;
  });

  // The faults: one API process and one gateway killed; the gateway comes back as a supervisor would.
  /** @type {Record<string, string>} */
  const metricsBeforeKill = {};
  await sleep(KILL_AT_MS - 1_000);
  for (const proc of [api1, api2, gateway1, gateway2])
    metricsBeforeKill[proc.name] = await scrape(proc.metricsPort);
  await sleep(1_000);
  killedAt = Date.now();
  api2.child.kill('SIGKILL');
  gateway2.child.kill('SIGKILL');
  log(`killed api-2 and gateway-2 with SIGKILL at ${((killedAt - startedAt) / 1000).toFixed(1)} s`);
  await sleep(GATEWAY_BACK_AFTER_MS);
  const gateway2Again = await gateway2.restart();
  log(`gateway-2 started again at ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  await sleep(Math.max(0, RUN_MS - (Date.now() - startedAt)));

  stopping = true;
  streamsEnd.abort();
  await Promise.all([...mqttSenders, ...httpSenders, ...clientLoops]);
  const seenByWatchers = await Promise.all(watchers);

  // Sessions made before the kill, wherever they were made, still open the API.
  let sessionsValid = 0;
  for (const session of clientSessions) {
    const res = await fetch(`${appUrl}/api/users/auth`, {
      headers: { cookie: session.cookieHeader, accept: 'application/json' },
    });
    if (res.status === 200) sessionsValid += 1;
    await res.arrayBuffer();
  }

  // Everything acknowledged must be written: wait until the store stops growing (queues drained).
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const ids = devices.map((device) => device.id);
  let stored = -1;
  for (let settled = 0; settled < 3;) {
    const { rows } = await db.query(
      'select count(*)::int as n from telemetry_samples where device_id = any($1)',
      [ids],
    );
    if (rows[0].n === stored) settled += 1;
    else settled = 0;
    stored = rows[0].n;
    await sleep(1_000);
  }
  const { rows: storedRows } = await db.query(
    'select device_id, ts from telemetry_samples where device_id = any($1)',
    [ids],
  );
  const { rows: distinctRows } = await db.query(
    'select count(distinct (device_id, ts))::int as n from telemetry_samples where device_id = any($1)',
    [ids],
  );
  await db.end();
  /** @type {Map<number, Set<number>>} */
  const present = new Map();
  for (const row of storedRows) {
    let set = present.get(row.device_id);
    if (!set) present.set(row.device_id, (set = new Set()));
    set.add(Number(row.ts));
  }
  let missing = 0;
  for (const [deviceId, times] of acknowledged)
    for (const ts of times) if (!present.get(deviceId)?.has(ts)) missing += 1;
  const acked = counts.mqttAcked + counts.httpAcked;
  const totalSent = [...sent.values()].reduce((sum, n) => sum + n, 0);

  // Requests: a failure is allowed only when it was in flight on the killed API process.
  const failed = calls.filter((call) => call.status < 200 || call.status >= 300);
  // In flight on the killed process: nginx had sent it there (its answer names that upstream) when
  // it died, or sent it on a kept-alive connection of the dead process before noticing.
  const inFlightAtKill = (/** @type {Call} */ call) =>
    call.upstream.split(', ').at(-1) === `127.0.0.1:${api2.port}` && Math.abs(call.start - killedAt) < 1_000;
  const unexplained = failed.filter((call) => !inFlightAtKill(call));
  const sharesBeforeKill = ['gateway-1', 'gateway-2'].map((name) =>
    metricValue(metricsBeforeKill[name], 'kontrol_ingest_messages_total', 'transport="mqtt"'),
  );
  const metricsAfter = {
    'api-1': await scrape(api1.metricsPort),
    'gateway-1': await scrape(gateway1.metricsPort),
    'gateway-2 (restarted)': await scrape(gateway2Again.metricsPort),
  };
  const duplicatesSeen = ['gateway-1', 'gateway-2 (restarted)'].reduce(
    (sum, name) =>
      sum +
      metricValue(
        metricsAfter[/** @type {'gateway-1'} */ (name)],
        'kontrol_ingest_samples_total',
        'result="duplicate"',
      ),
    0,
  );
  const latencies = calls
    .filter((call) => call.status > 0 && call.status < 500)
    .map((call) => call.end - call.start)
    .sort((a, b) => a - b);
  const quantile = (/** @type {number} */ q) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;

  const checks = [
    [
      `login throttling counts across processes: 5 wrong passwords through nginx (${throttled.servedBy}), then the right one answered ${throttled.status}`,
      throttled.status === 429 &&
        throttled.servedBy.includes(`:${api1.port}`) &&
        throttled.servedBy.includes(`:${api2.port}`),
    ],
    [
      `every acknowledged sample stored: ${acked.toLocaleString('en')} acknowledged (${counts.mqttAcked.toLocaleString('en')} PUBACK, ${counts.httpAcked.toLocaleString('en')} HTTP 202), ${missing} missing`,
      missing === 0 && acked > 0,
    ],
    [
      `no sample stored twice: ${stored.toLocaleString('en')} rows, ${distinctRows[0].n.toLocaleString('en')} distinct (device, time); ${totalSent.toLocaleString('en')} sent; ${duplicatesSeen} redelivered samples recognised as already stored`,
      stored === distinctRows[0].n && stored <= totalSent,
    ],
    [
      `client requests: ${calls.length.toLocaleString('en')}, ${failed.length} failed, of which ${failed.length - unexplained.length} in flight on the killed API process; p50 ${quantile(0.5)} ms, p99 ${quantile(0.99)} ms`,
      unexplained.length === 0 && calls.length > 0,
    ],
    [
      `sessions still valid after the kill: ${sessionsValid} of ${clientSessions.length}`,
      sessionsValid === clientSessions.length,
    ],
    [
      `live streams got devices' updates before and after the kill: ${seenByWatchers.map((s) => `${s.served.join(' → ')}: ${s.before.size} / ${s.after.size} devices, ${s.reconnects} reconnects${s.refused.length ? `, refused ${s.refused.join(' ')}` : ''}`).join('; ')}`,
      seenByWatchers.every((s) => s.before.size > 0 && s.after.size > 0) &&
        seenByWatchers[1].served.join(' → ') === 'api-2 → api-1',
    ],
    [
      `both gateways took MQTT messages before the kill: ${sharesBeforeKill.join(' and ')}`,
      sharesBeforeKill.every((n) => n > 0),
    ],
    [
      `HTTP ingest through nginx: ${counts.httpFailures} failed attempts (retried by the devices), ${counts.httpRejected} samples rejected`,
      counts.httpRejected === 0,
    ],
    [
      `/metrics answered on every live process (${Object.keys(metricsAfter).join(', ')})`,
      Object.values(metricsAfter).every((text) => text.includes('kontrol_http_requests_total')),
    ],
  ];
  for (const [line, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'} ${line}`);
  const passed = checks.every(([, ok]) => ok);
  if (unexplained.length > 0) console.log('unexplained failures (first 10):', unexplained.slice(0, 10));

  if (process.env.BENCH_NO_DOCS !== '1') {
    const host = machine();
    writeBenchmarkSection({
      name: 'scale-out',
      script: 'bench/scale-out.mjs',
      heading: 'Scale-out',
      section: [
        `Run ${host.date} by \`npm run bench:scale-out\` at commit \`${host.commit}\` (apps/ and packages/ ${host.changed}), Node.js ${host.node}, ${host.nproc} cores (${host.cpu}). Everything on one machine: PostgreSQL 15, Mosquitto 2, nginx, 2 API and 2 gateway processes, the devices and the clients.`,
        '',
        `Load: ${devices.length} devices (${mqttDevices.length} over MQTT QoS 1, ${httpDevices.length} over HTTPS through nginx), one message of ${SAMPLES_PER_MESSAGE} samples a second each; ${CLIENTS} API clients with sessions (six reads to one POST, 50–150 ms apart); two live-update streams. ${RUN_MS / 1000} s; api-2 and gateway-2 killed with SIGKILL at ${((killedAt - startedAt) / 1000).toFixed(0)} s, gateway-2 started again ${GATEWAY_BACK_AFTER_MS / 1000} s later.`,
        '',
        '| check | result |',
        '|---|---|',
        ...checks.map(
          ([line, ok]) => `| ${String(line).replaceAll('|', '/')} | ${ok ? 'passed' : '**FAILED**'} |`,
        ),
      ].join('\n'),
    });
  }

  return passed;
}

// ---------------------------------------------------------------------------------------------

/** @param {number} port */
async function scrape(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    return await res.text();
  } catch {
    return '';
  }
}

/**
 * Five wrong passwords for one account through nginx (which spreads them over the API processes),
 * then the right one: the account's throttle lives in the database, so it must answer 429.
 * @param {string} appUrl @param {{ email: string, password: string }} login
 */
async function loginThrottleHolds(appUrl, login) {
  const attempt = async (/** @type {string} */ password) => {
    const csrf = await fetch(`${appUrl}/sanctum/csrf-cookie`);
    const cookies = csrf.headers.getSetCookie().map((line) => line.split(';')[0]);
    const xsrf = decodeURIComponent(cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice(11) ?? '');
    const res = await fetch(`${appUrl}/api/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        cookie: cookies.join('; '),
        'x-xsrf-token': xsrf,
      },
      body: JSON.stringify({ email: login.email, password }),
    });
    await res.arrayBuffer();
    return { status: res.status, upstream: res.headers.get('x-kontrol-upstream') ?? '?' };
  };
  const served = new Set();
  for (let i = 0; i < 5; i += 1) served.add((await attempt(`wrong-${i}-${login.password}`)).upstream);
  const last = await attempt(login.password);
  return { status: last.status, servedBy: [...served].join(' and ') };
}

/** The value of `name{…selector…}` in a Prometheus text answer (0 when absent). */
function metricValue(/** @type {string} */ text, /** @type {string} */ name, /** @type {string} */ selector) {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(selector));
  return line ? Number(line.split(' ').at(-1)) : 0;
}
