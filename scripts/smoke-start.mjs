// Proves the README's `npm start` on a fresh database: the launcher builds and starts, /readyz
// answers, the demo user signs in through the Sanctum flow, the console is served, the sandbox
// payment provider is off (its page and callback are 404), and SIGTERM ends the process cleanly. Uses a free port and a temporary SQLite file. Then the same with
// API_WORKERS=2, where one API process is killed and must be replaced and the first process's
// /metrics counts both. Both runs put the embedded MQTT broker on a free port of their own and check
// that it answers. The default run also kills its serving process, which must be started again with
// a device's MQTT session reconnecting to it. Last, `npm run start:gateway` alone.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** @returns {Promise<number>} */
const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(free));
    });
  });
const port = await freePort();
const mqttPort = await freePort();
/**
 * One `npm start` on a fresh database, with `env` added: ready, demo login, console served, then
 * `check(server)` if given, then SIGTERM ends it with exit 0.
 * @param {string} label
 * @param {Record<string, string>} env
 * @param {(server: import('node:child_process').ChildProcess, base: string, fail: (m: string) => never, output: () => string) => Promise<void>} [check]
 */
async function smoke(label, env, check) {
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-smoke-'));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'k.db')}`,
      NODE_ENV: 'development',
      DEMO: '1',
      SMTP_URL: '',
      MQTT_PORT: String(mqttPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));

  /** @param {string} message @returns {never} */
  function fail(message) {
    console.error(`smoke (${label}): FAILED — ${message}\n--- server output ---\n${output.slice(-4000)}`);
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  }

  const deadline = Date.now() + 180_000;
  for (;;) {
    if (Date.now() > deadline) fail('the server did not become ready within 180 s');
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }

  const csrf = await fetch(`${base}/sanctum/csrf-cookie`);
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
  const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length);
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-xsrf-token': xsrf ?? '' },
    body: JSON.stringify({ email: 'demo@example.com', password: 'demo1234' }),
  });
  if (login.status !== 200) fail(`demo login answered ${login.status}`);
  if (!output.includes('demo@example.com / demo1234')) fail('the demo login was not printed');

  const page = await fetch(`${base}/auth/login`);
  const html = await page.text();
  if (!page.ok || !html.includes('<div id="root">')) fail('the console is not served at /auth/login');
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!asset) fail('index.html names no script under /assets/');
  const js = await fetch(`${base}${asset}`, { headers: { 'accept-encoding': 'br' } });
  if (!js.headers.get('cache-control')?.includes('immutable'))
    fail('hashed assets are not cached as immutable');
  if ((await js.arrayBuffer()).byteLength === 0) fail('the script is empty');

  const broker = await new Promise((resolve) => {
    const socket = connect(mqttPort, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
  if (!broker) fail(`the embedded MQTT broker does not listen on MQTT_PORT ${mqttPort}`);

  if (check) await check(server, base, fail, () => output);

  server.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) fail(`SIGTERM did not end the server cleanly (exit ${code})`);
}

/** The pids of the processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid) {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A signed-in session of the demo user: `call(method, path, body)` answers the parsed JSON. */
/** @param {string} base @param {(m: string) => never} fail */
async function demoSession(base, fail) {
  const csrf = await fetch(`${base}/sanctum/csrf-cookie`);
  const cookies = new Map(csrf.headers.getSetCookie().map((c) => c.split(';')[0].split('=')));
  const header = () => ({
    'content-type': 'application/json',
    cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    'x-xsrf-token': decodeURIComponent(cookies.get('XSRF-TOKEN') ?? ''),
  });
  /** @param {string} method @param {string} path @param {unknown} [body] */
  const call = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: header(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [name, value] = c.split(';')[0].split('=');
      cookies.set(name, value);
    }
    if (!res.ok) fail(`${method} ${path} answered ${res.status}`);
    return res.json();
  };
  await call('POST', '/api/login', { email: 'demo@example.com', password: 'demo1234' });
  return call;
}

await smoke('one process', {}, async (server, base, fail, output) => {
  // Out of the box there is no online payment: the sandbox's pages and callback do not exist.
  const page = await fetch(`${base}/api/payment/sandbox/${'a'.repeat(32)}`);
  if (page.status !== 404)
    fail(`the sandbox's payment page answered ${page.status} without PAYMENT_PROVIDER`);
  const callback = await fetch(`${base}/api/payment/callback/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (callback.status !== 404)
    fail(`the sandbox's callback answered ${callback.status} without PAYMENT_PROVIDER`);

  // A device on the embedded broker, with a credential issued for this test.
  const call = await demoSession(base, fail);
  const devices = await call('GET', '/api/devices/?per_page=100');
  // The simulator plays the first 12 smart devices with credentials of its own: take the last one.
  const smart = devices.data.filter((each) => each.controller_id).sort((a, b) => a.id - b.id);
  if (smart.length <= 12) fail('the demo has no smart device the simulator leaves alone');
  const device = smart.at(-1);
  const issued = await call('POST', `/api/devices/${device.id}/credential`, {});
  const client = mqtt.connect(`mqtt://127.0.0.1:${mqttPort}`, {
    clientId: device.controller_id,
    username: device.controller_id,
    password: issued.data.credential,
    reconnectPeriod: 500,
    connectTimeout: 5_000,
  });
  const topic = `kontrol/v1/${device.controller_id}/telemetry`;
  const publish = (ts) =>
    new Promise((resolve, reject) =>
      client.publish(topic, JSON.stringify([{ ts, current: 1.5, state: 'idle' }]), { qos: 1 }, (error) =>
        error ? reject(error) : resolve(undefined),
      ),
    );
  await publish(Date.now() - 2_000);

  // The serving process dies: the supervisor starts it again, and the device reconnects to it.
  const [serving] = childrenOf(/** @type {number} */ (server.pid));
  if (!serving) fail('npm start has no serving process under its supervisor');
  process.kill(serving, 'SIGKILL');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = childrenOf(/** @type {number} */ (server.pid));
    let ready = false;
    try {
      ready = (await fetch(`${base}/readyz`)).ok;
    } catch {
      // not listening yet
    }
    if (ready && now.length === 1 && now[0] !== serving) break;
    if (Date.now() > deadline) fail('the killed serving process was not started again within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  const acknowledged = await Promise.race([
    publish(Date.now() - 1_000).then(() => true),
    new Promise((r) => setTimeout(() => r(false), 30_000)),
  ]);
  client.end(true);
  if (!acknowledged) fail('the device did not get its sample acknowledged after the restart');
  if (!output().includes('starting it again')) fail('the supervisor did not log the restart');
});
console.log(
  'smoke: npm start works — ready, demo login, console served, no sandbox payments, a killed serving process started again with its MQTT device reconnecting, graceful shutdown',
);

const metricsPort = await freePort();
await smoke(
  'API_WORKERS=2',
  { API_WORKERS: '2', METRICS_PORT: String(metricsPort) },
  async (server, base, fail) => {
    const workers = childrenOf(/** @type {number} */ (server.pid));
    if (workers.length !== 2) fail(`expected 2 API processes, found ${workers.length}`);
    process.kill(workers[0], 'SIGKILL');
    const deadline = Date.now() + 30_000;
    for (;;) {
      const now = childrenOf(/** @type {number} */ (server.pid));
      if (now.length === 2 && !now.includes(workers[0])) break;
      if (Date.now() > deadline) fail('a killed API process was not replaced within 30 s');
      await new Promise((r) => setTimeout(r, 250));
    }
    for (let i = 0; i < 20; i += 1) {
      const res = await fetch(`${base}/readyz`);
      if (!res.ok) fail(`/readyz answered ${res.status} after a process was replaced`);
    }
    // The primary answers /metrics for both workers: every /readyz above is counted, wherever it ran.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const readyz =
      /^kontrol_http_requests_total\{method="GET",route="\/readyz",status="200"[^}]*\} (\d+)$/m.exec(metrics);
    if (!readyz || Number(readyz[1]) < 20)
      fail(`/metrics does not count the workers' requests:\n${metrics.slice(0, 2000)}`);
  },
);
console.log('smoke: API_WORKERS=2 works — two processes, a killed one replaced, graceful shutdown of all');

// `npm run start:gateway`: a gateway process of its own (docs/deployment.md), here with the embedded
// broker: ready, devices' HTTP answering, the broker listening, metrics served, SIGTERM clean.
{
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-smoke-gateway-'));
  const gatewayPort = await freePort();
  const gatewayMetrics = await freePort();
  const gateway = spawn(process.execPath, [join(root, 'scripts/start-gateway.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'k.db')}`,
      MQTT_PORT: String(mqttPort),
      METRICS_PORT: String(gatewayMetrics),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  gateway.stdout.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => gateway.on('exit', (code) => resolve(code)));
  /** @param {string} message */
  const fail = (message) => {
    console.error(`smoke (gateway): FAILED — ${message}\n--- gateway output ---\n${output.slice(-4000)}`);
    gateway.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  };
  const base = `http://127.0.0.1:${gatewayPort}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (Date.now() > deadline) fail('the gateway did not become ready within 120 s');
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const ingest = await fetch(`${base}/api/ingest/v1/telemetry`, {
    method: 'POST',
    headers: { authorization: 'Bearer kdc_unknown', 'content-type': 'application/json' },
    body: '[]',
  });
  if (ingest.status !== 401) fail(`an unknown device credential answered ${ingest.status}, not 401`);
  const brokerUp = await new Promise((resolve) => {
    const socket = connect(mqttPort, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
  if (!brokerUp) fail(`the gateway's MQTT broker does not listen on ${mqttPort}`);
  const metrics = await (await fetch(`http://127.0.0.1:${gatewayMetrics}/metrics`)).text();
  if (!metrics.includes('role="gateway"') || !metrics.includes('kontrol_ingest_queue_samples'))
    fail('the gateway serves no metrics');
  gateway.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) fail(`SIGTERM did not end the gateway cleanly (exit ${code})`);
  console.log(
    "smoke: npm run start:gateway works — ready, devices' HTTP, MQTT broker, metrics, graceful shutdown",
  );
}
