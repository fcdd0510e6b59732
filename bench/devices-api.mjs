// API list endpoints under load (`npm run bench:api`): starts the real server (test-support/server.mjs)
// on a fresh SQLite database, seeds an organisation with 10 000 devices through the operator CLI
// and its other lists through the API and the database (bench/lib/org-lists.mjs: device groups,
// device events, the admin's notifications, recipes, complaints, users), signs in as its admin and
// loads the first page of each paged list (the session cookie on every request, as the console
// sends it) with autocannon, 50 connections. A bare Fastify hello-world is measured in the same
// run on the same machine, so each figure can be read against what Node and Fastify alone do here.
// Hello-world and the devices page run as one process and as two (node:cluster; Kontrol with
// API_WORKERS=2, one per core of this machine, as docs/operations.md advises for production); the
// other lists on two processes.
// Targets: `GET /api/devices/?page=1` at least 8 000 requests/s with p99 under 20 ms,
// judged on the two-process run. The other lists have no target (they are to be
// measured): their figures are reported as such, beside the hello-world.
//
// BENCH_SECONDS (default 15): duration of each measured load, after a 3 s warm-up. BENCH_DEVICES
// (default 10000). BENCH_LISTS=devices,addresses,… measures only those lists (a partial run: no
// docs). BENCH_QUICK=1: 1 000 devices, smaller lists, 3 s loads after 1 s, docs left alone.
// BENCH_NO_DOCS=1: do not rewrite docs/benchmarks.md. E2E_SKIP_BUILD=1: measure the built files as
// they are. Results: bench/results/devices-api.json (bench/lib/results.mjs).
import autocannon from 'autocannon';
import { startHelloWorld } from './lib/baselines.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { machine } from './lib/machine.mjs';
import { seedLists } from './lib/org-lists.mjs';
import { figure, QUICK, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';
import { buildIfNeeded, seedFleetAndSignIn, startServer } from '../test-support/server.mjs';

const TARGETS = { requestsPerSecond: 8000, p99Ms: 20 };
const SECONDS = Math.max(1, setting('BENCH_SECONDS', 15, 3));
const WARM_UP_SECONDS = QUICK ? 1 : 3;
const DEVICES = Math.max(1, setting('BENCH_DEVICES', 10_000, 1000));
const CONNECTIONS = 50;
/** @type {import('./lib/org-lists.mjs').ListAmounts} */
const AMOUNTS = QUICK
  ? { groups: 10, recipes: 20, complaints: 40, users: 20, notifications: 2000 }
  : { groups: 100, recipes: 300, complaints: 1000, users: 200, notifications: 20_000 };

/** The paged lists of docs/api.md, first page (25 rows), as the console asks for them. */
const LISTS = [
  { key: 'devices', path: '/api/devices/?page=1' },
  { key: 'addresses', path: '/api/addresses/?page=1' },
  { key: 'rooms', path: '/api/rooms/?page=1' },
  { key: 'groups', path: '/api/devices/client/groups?page=1' },
  { key: 'events', path: '/api/devices/events?page=1' },
  { key: 'notifications', path: '/api/notifications?page=1' },
  { key: 'recipes', path: '/api/recipes/?page=1' },
  { key: 'complaints', path: '/api/alerts/?page=1' },
  { key: 'users', path: '/api/users/?page=1' },
];
const CHOSEN = (() => {
  const value = process.env.BENCH_LISTS?.trim();
  if (!value) return LISTS;
  const keys = value.split(',').map((key) => key.trim());
  const unknown = keys.filter((key) => !LISTS.some((list) => list.key === key));
  if (unknown.length)
    throw new Error(
      `BENCH_LISTS: unknown ${unknown.join(', ')} (one of ${LISTS.map((l) => l.key).join(', ')})`,
    );
  return LISTS.filter((list) => keys.includes(list.key));
})();
const PARTIAL = CHOSEN.length !== LISTS.length;

/** One autocannon load; a short warm-up first so JIT and caches are hot. */
async function load(url, headers = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
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
const pct = (part, whole) => `${fmt((part / whole) * 100)} %`;

/**
 * @param {ReturnType<typeof machine>} env
 * @param {{ hello: any, hello2: any, devices1?: any, lists: { key: string, path: string, total: number, bytes: number, result: any }[] }} results
 * @param {Awaited<ReturnType<typeof seedLists>>} seeded
 */
function markdown(env, results, seeded) {
  const { hello, hello2, devices1, lists } = results;
  const devices = lists.find((list) => list.key === 'devices');
  const row = (name, r, share = '') =>
    `| ${name} | ${fmt(r.requestsPerSecond)} | ${share} | ${r.p50} | ${r.p90} | **${r.p99}** | ${r.max} | ${fmt(r.total)} | ${r.non2xx} | ${r.errors} |`;
  const lines = [
    `Measured ${env.date} by \`node bench/devices-api.mjs\` at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}).`,
    '',
    `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}. Server and load generator share the machine.`,
    '',
    `Load: autocannon, ${CONNECTIONS} connections, ${SECONDS} s after a ${WARM_UP_SECONDS} s warm-up, the admin's session cookie on every request; SQLite (the default database). ` +
      `The organisation holds ${fmt(seeded.devices)} devices at ${fmt(seeded.addresses)} addresses in ${fmt(seeded.rooms)} rooms, ${fmt(seeded.groups)} device groups, ` +
      `${fmt(seeded.events)} device events (a day of the fleet's life), ${fmt(seeded.notifications)} notifications (the admin's), ${fmt(seeded.recipes)} recipes, ` +
      `${fmt(seeded.complaints)} complaints and ${fmt(seeded.users)} users. Each list answers its first page (25 rows).`,
    '',
    '| endpoint | requests/s | of the hello-world | p50 ms | p90 ms | p99 ms | max ms | requests | non-2xx | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('bare Fastify hello-world (`GET /`), one process', hello),
    row('bare Fastify hello-world (`GET /`), two processes', hello2),
  ];
  if (devices1)
    lines.push(
      row(
        '`GET /api/devices/?page=1`, one process',
        devices1,
        pct(devices1.requestsPerSecond, hello.requestsPerSecond),
      ),
    );
  for (const list of lists)
    lines.push(
      row(
        `\`GET ${list.path}\` (${fmt(list.total)} in the list; the page ${fmt(list.bytes)} bytes of JSON), two processes`,
        list.result,
        pct(list.result.requestsPerSecond, hello2.requestsPerSecond),
      ),
    );
  lines.push('');
  if (devices) {
    const r = devices.result;
    const rpsOk = r.requestsPerSecond >= TARGETS.requestsPerSecond;
    const p99Ok = r.p99 < TARGETS.p99Ms && r.non2xx === 0 && r.errors === 0;
    lines.push(
      `Targets, for the devices page on two processes (\`API_WORKERS=2\`): at least ${fmt(TARGETS.requestsPerSecond)} requests/s — ${rpsOk ? 'met' : '**MISSED**'}; ` +
        `p99 under ${TARGETS.p99Ms} ms with no errors — ${p99Ok ? 'met' : '**MISSED**'}. ` +
        'The other lists have no target set: their figures are measured, not judged.',
    );
  }
  return lines.join('\n');
}

/** The figures for bench/results/ (bench/lib/results.mjs). */
function figures(results) {
  const { hello2, lists } = results;
  const raw = (/** @type {number} */ requestsPerSecond) => ({
    name: 'bare Fastify hello-world, two processes',
    value: hello2.requestsPerSecond,
    unit: 'req/s',
    share: requestsPerSecond / hello2.requestsPerSecond,
  });
  return lists.flatMap((list) => {
    const r = list.result;
    const clean = r.non2xx === 0 && r.errors === 0;
    const failures = clean ? '' : `, ${r.non2xx} non-2xx and ${r.errors} errors of ${fmt(r.total)}`;
    const detail = `p50 ${r.p50} ms, p99 ${r.p99} ms${failures}`;
    if (list.key === 'devices')
      return [
        figure({
          name: `\`GET /api/devices/?page=1\` (${fmt(list.total)} devices), two processes: requests/s`,
          value: r.requestsPerSecond,
          unit: 'req/s',
          detail,
          target: `≥ ${fmt(TARGETS.requestsPerSecond)} req/s`,
          met: r.requestsPerSecond >= TARGETS.requestsPerSecond,
          raw: raw(r.requestsPerSecond),
        }),
        figure({
          name: '`GET /api/devices/?page=1`, two processes: p99 latency',
          value: r.p99,
          unit: 'ms',
          detail: clean ? 'no errors' : failures.slice(2),
          target: `p99 < ${TARGETS.p99Ms} ms, no errors`,
          met: r.p99 < TARGETS.p99Ms && clean,
          raw: { name: 'bare Fastify hello-world, two processes: p99', value: hello2.p99, unit: 'ms' },
        }),
      ];
    return [
      figure({
        name: `\`GET ${list.path}\` (${fmt(list.total)} in the list), two processes: requests/s`,
        value: r.requestsPerSecond,
        unit: 'req/s',
        detail,
        raw: raw(r.requestsPerSecond),
      }),
    ];
  });
}

const env = machine();
console.log(
  `API lists — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
);
buildIfNeeded();
// The users list is seeded through the invitation endpoint, far past a public server's limits.
const server = await startServer({ env: { INVITES_PER_HOUR: '100000', INVITES_PER_DAY: '1000000' } });
/** @type {Awaited<ReturnType<typeof startHelloWorld>> | undefined} */
let hello;
/** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
let cluster;
try {
  const { admin, logins, seeded: fleet } = await seedFleetAndSignIn(server, DEVICES);
  console.log(fleet.trim());
  const seeded = await seedLists(server, admin, logins, AMOUNTS);
  console.log(
    `lists seeded in ${fmt(seeded.seconds, 1)} s: ${JSON.stringify({ ...seeded, seconds: undefined })}`,
  );
  // What Chromium sends with the console's requests: the session cookie, JSON, and its encodings.
  const headers = {
    cookie: admin.cookieHeader,
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br, zstd',
  };
  /** Each list's first page, checked once: 200, a paged body, its total and its size. */
  const probed = [];
  for (const list of CHOSEN) {
    const probe = await fetch(`${server.baseURL}${list.path}`, { headers });
    const body = await probe.text();
    if (probe.status !== 200)
      throw new Error(`GET ${list.path} answered ${probe.status}: ${body.slice(0, 300)}`);
    const page = JSON.parse(body);
    if (typeof page.meta?.total !== 'number' || !Array.isArray(page.data))
      throw new Error(`GET ${list.path} is not a paged list: ${body.slice(0, 300)}`);
    if (list.key === 'devices' && page.meta.total !== DEVICES)
      throw new Error(`expected ${DEVICES} devices, the page says ${page.meta.total}`);
    probed.push({ ...list, total: page.meta.total, bytes: Buffer.byteLength(body) });
    console.log(
      `GET ${list.path}: ${page.meta.total} rows, ${page.data.length} on the page, ${Buffer.byteLength(body)} bytes`,
    );
  }

  const measureHello = async (/** @type {number} */ workers) => {
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
  const measure = async (/** @type {{ baseURL: string }} */ target, /** @type {string} */ path, label) => {
    const result = await load(`${target.baseURL}${path}`, headers);
    console.log(
      `GET ${path}, ${label}: ${fmt(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, ` +
        `p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, ` +
        `autocannon used ${fmt(result.loadGeneratorCores, 2)} cores`,
    );
    return result;
  };
  const helloResult = await measureHello(1);
  const hello2Result = await measureHello(2);
  const devicesList = probed.find((list) => list.key === 'devices');
  const devices1 = devicesList ? await measure(server, devicesList.path, 'one process') : undefined;
  // The same database and session, served by two processes (the one-process server stays idle).
  cluster = await startServer({ env: { DATABASE_URL: server.databaseUrl, API_WORKERS: '2' } });
  const lists = [];
  for (const list of probed)
    lists.push({ ...list, result: await measure(cluster, list.path, 'two processes') });
  const results = { hello: helloResult, hello2: hello2Result, devices1, lists };
  const section = markdown(env, results, seeded);
  console.log(`\n${section}`);
  const docsWritten = WRITE_DOCS && !PARTIAL;
  if (docsWritten)
    writeBenchmarkSection({
      name: 'devices-api',
      script: 'bench/devices-api.mjs',
      heading: 'API list endpoints',
      section,
    });
  writeResults('devices-api', {
    script: 'bench/devices-api.mjs',
    title: 'API list endpoints (autocannon, 50 connections)',
    env,
    figures: figures(results),
    partial: PARTIAL,
    docsWritten,
    settings: { seconds: SECONDS, devices: DEVICES, lists: CHOSEN.map((l) => l.key), amounts: AMOUNTS },
  });
} finally {
  await hello?.stop();
  await cluster?.stop();
  await server.stop();
}
