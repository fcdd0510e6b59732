// Devices API throughput (`npm run bench:api`): starts the real server (bench/lib/server.mjs) on a
// fresh SQLite database, seeds an organisation with 10 000 devices through the operator CLI, signs
// in as its admin and loads `GET /api/devices/?page=1` (one page, the session cookie on every
// request, as the console sends it) with autocannon, 50 connections. A bare Fastify hello-world is
// measured in the same run on the same machine, so the figure can be read against what Node and
// Fastify alone do here. Both run as one process and as two (node:cluster; Kontrol with
// API_WORKERS=2, one per core of this machine, as docs/operations.md advises for production).
// Targets (issue #4): at least 8 000 requests/s with p99 under 20 ms, judged on the two-process
// run; the one-process figures are printed beside it.
//
// BENCH_SECONDS (default 15): duration of each measured load, after a 3 s warm-up.
// BENCH_DEVICES (default 10000). BENCH_NO_DOCS=1: do not rewrite docs/benchmarks.md.
// E2E_SKIP_BUILD=1: measure the built files as they are.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  buildIfNeeded,
  freePort,
  ROOT,
  seedFleetAndSignIn,
  startServer,
  stopProcess,
  waitForReady,
} from './lib/server.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { machine } from './lib/machine.mjs';

const TARGETS = { requestsPerSecond: 8000, p99Ms: 20 };
const SECONDS = Math.max(3, Number(process.env.BENCH_SECONDS ?? 15) || 15);
const DEVICES = Math.max(1, Number(process.env.BENCH_DEVICES ?? 10_000) || 10_000);
const CONNECTIONS = 50;

/** A bare Fastify answering `{hello: 'world'}`, in its own process like the real server (`workers` > 1: node:cluster). */
async function startHelloWorld(workers = 1) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bench/lib/hello-world.mjs')], {
    env: { ...process.env, PORT: String(port), WORKERS: String(workers) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForReady(baseURL, { isAlive: () => child.exitCode === null });
  return { baseURL, stop: () => stopProcess(/** @type {number} */ (child.pid), exited) };
}

/** One autocannon load; a short warm-up first so JIT and caches are hot. */
async function load(url, headers = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: 3, headers });
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    /** Cores the load generator itself used (this process: autocannon runs in it). */
    loadGeneratorCores: (cpu.user + cpu.system) / 1e6 / SECONDS,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerSecond: result.throughput.average,
  };
}

const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function markdown(env, results, pageBytes) {
  const { hello, hello2, devices1, devices } = results;
  const rpsOk = devices.requestsPerSecond >= TARGETS.requestsPerSecond;
  const p99Ok = devices.p99 < TARGETS.p99Ms && devices.non2xx === 0 && devices.errors === 0;
  const row = (name, r) =>
    `| ${name} | ${fmt(r.requestsPerSecond)} | ${r.p50} | ${r.p90} | **${r.p99}** | ${r.max} | ${fmt(r.total)} | ${r.non2xx} | ${r.errors} |`;
  return [
    `Measured ${env.date} by \`node bench/devices-api.mjs\` at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}).`,
    '',
    `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}. Server and load generator share the machine.`,
    '',
    `Load: autocannon, ${CONNECTIONS} connections, ${SECONDS} s after a 3 s warm-up; the organisation holds ${fmt(DEVICES)} devices; ` +
      `\`GET /api/devices/?page=1\` answers 25 devices (${fmt(pageBytes)} bytes of JSON) with the admin's session cookie; SQLite (the default database).`,
    '',
    '| endpoint | requests/s | p50 ms | p90 ms | p99 ms | max ms | requests | non-2xx | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('bare Fastify hello-world (`GET /`), one process', hello),
    row('bare Fastify hello-world (`GET /`), two processes', hello2),
    row('`GET /api/devices/?page=1`, one process', devices1),
    row('`GET /api/devices/?page=1`, two processes (`API_WORKERS=2`)', devices),
    '',
    `Targets, on two processes: at least ${fmt(TARGETS.requestsPerSecond)} requests/s — ${rpsOk ? 'met' : '**MISSED**'}; ` +
      `p99 under ${TARGETS.p99Ms} ms with no errors — ${p99Ok ? 'met' : '**MISSED**'}. ` +
      `The devices page runs at ${fmt((devices.requestsPerSecond / hello2.requestsPerSecond) * 100)} % of the two-process hello-world's rate ` +
      `(one process: ${fmt((devices1.requestsPerSecond / hello.requestsPerSecond) * 100)} %).`,
  ].join('\n');
}

function writeDocs(section) {
  writeBenchmarkSection({
    name: 'devices-api',
    script: 'bench/devices-api.mjs',
    heading: 'Devices API throughput',
    section,
  });
}

const env = machine();
console.log(
  `devices API — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
);
buildIfNeeded();
const server = await startServer();
let hello;
/** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
let cluster;
try {
  const { admin, seeded } = await seedFleetAndSignIn(server, DEVICES);
  console.log(seeded);
  // What Chromium sends with the console's requests: the session cookie, JSON, and its encodings.
  const headers = {
    cookie: admin.cookieHeader,
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br, zstd',
  };
  const url = `${server.baseURL}/api/devices/?page=1`;
  const probe = await fetch(url, { headers });
  const body = await probe.text();
  if (probe.status !== 200)
    throw new Error(`GET /api/devices/?page=1 answered ${probe.status}: ${body.slice(0, 300)}`);
  const page = JSON.parse(body);
  if (page.meta?.total !== DEVICES)
    throw new Error(`expected ${DEVICES} devices, the page says ${page.meta?.total}`);

  const measureHello = async (workers) => {
    hello = await startHelloWorld(workers);
    const result = await load(`${hello.baseURL}/`);
    await hello.stop();
    hello = undefined;
    console.log(
      `hello-world, ${workers} process(es): ${fmt(result.requestsPerSecond)} req/s, p99 ${result.p99} ms, ` +
        `autocannon used ${fmt(result.loadGeneratorCores, 2)} cores`,
    );
    return result;
  };
  const measureDevices = async (target, label) => {
    const result = await load(`${target.baseURL}/api/devices/?page=1`, headers);
    console.log(
      `GET /api/devices/?page=1, ${label}: ${fmt(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, ` +
        `p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, ` +
        `autocannon used ${fmt(result.loadGeneratorCores, 2)} cores`,
    );
    return result;
  };
  const helloResult = await measureHello(1);
  const hello2Result = await measureHello(2);
  const devices1Result = await measureDevices(server, 'one process');
  // The same database and session, served by two processes (the one-process server stays idle).
  cluster = await startServer({ env: { DATABASE_URL: server.databaseUrl, API_WORKERS: '2' } });
  const devicesResult = await measureDevices(cluster, 'two processes');
  const results = {
    hello: helloResult,
    hello2: hello2Result,
    devices1: devices1Result,
    devices: devicesResult,
  };
  const section = markdown(env, results, Buffer.byteLength(body));
  console.log(`\n${section}`);
  if (process.env.BENCH_NO_DOCS !== '1') writeDocs(section);
} finally {
  await hello?.stop();
  await cluster?.stop();
  await server.stop();
}
