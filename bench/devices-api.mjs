// API list endpoints under load (`npm run bench:api`): starts the real server (test-support/server.mjs)
// on a fresh SQLite database, seeds an organisation with 10 000 devices through the operator CLI
// and its other lists through the API and the database (bench/lib/org-lists.mjs: 200 device groups
// of 10 to 500 devices, 50 000 device events, 20 000 notifications of the admin, 1 000 recipes,
// 5 000 complaints, 500 users, 2 000 access roles), signs in as its admin and loads each paged
// list's first page, and a filtered first page, with autocannon, 50 connections (the session
// cookie on every request, as the console sends it; the access roles, which the contract lists by
// POST, with the CSRF token too). A bare Fastify hello-world is measured in the same run on the
// same machine, so each figure can be read against what Node and Fastify alone do here.
// Hello-world and the devices page run as one process and as two (node:cluster; Kontrol with
// API_WORKERS=2, one per core of this machine, as docs/operations.md advises for production); the
// lists on two processes.
// Targets, each list and filtered page on two processes: at least 40 % of the two-process
// hello-world's requests/s, p99 under 20 ms, no errors; and `GET /api/devices/?page=1` at least
// 8 000 requests/s.
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

const TARGETS = { requestsPerSecond: 8000, p99Ms: 20, shareOfHello: 0.4 };
const SECONDS = Math.max(1, setting('BENCH_SECONDS', 15, 3));
const WARM_UP_SECONDS = QUICK ? 1 : 3;
const DEVICES = Math.max(1, setting('BENCH_DEVICES', 10_000, 1000));
const CONNECTIONS = 50;
/** @type {import('./lib/org-lists.mjs').ListAmounts} */
const AMOUNTS = QUICK
  ? { groups: 10, recipes: 20, complaints: 40, users: 20, roles: 50, events: 2000, notifications: 2000 }
  : {
      groups: 200,
      recipes: 1000,
      complaints: 5000,
      users: 500,
      roles: 2000,
      events: 50_000,
      notifications: 20_000,
    };

/** `filters` as the console sends it (JSON in the query), URL-encoded. */
const filters = (/** @type {object} */ value) => `filters=${encodeURIComponent(JSON.stringify(value))}`;

/**
 * @typedef {{ path: string, body?: object }} Ask  a GET of `path`, or a POST of `body` to it
 * @typedef {{ key: string, first: Ask, filtered: Ask | ((row: any) => Ask) }} List
 */
/**
 * The paged lists of docs/api.md as the console asks for them: the first page (25 rows), and the
 * first page of a filter a user would set (from the first row when it needs a value of the data).
 * @type {List[]}
 */
const LISTS = [
  {
    key: 'devices',
    first: { path: '/api/devices/?page=1' },
    filtered: (row) => ({
      path: `/api/devices/?page=1&${filters({ type_id: { operator: '=', value: row.type_id } })}`,
    }),
  },
  {
    key: 'addresses',
    first: { path: '/api/addresses/?page=1' },
    filtered: (row) => ({
      path: `/api/addresses/?page=1&${filters({ city: { operator: '=', value: row.city } })}`,
    }),
  },
  {
    key: 'rooms',
    first: { path: '/api/rooms/?page=1' },
    filtered: (row) => ({
      path: `/api/rooms/?page=1&${filters({ address_id: { operator: '=', value: row.address_id } })}`,
    }),
  },
  {
    key: 'groups',
    first: { path: '/api/devices/client/groups?page=1' },
    filtered: {
      path: `/api/devices/client/groups?page=1&${filters({ name: { operator: 'like', value: 'Группа 1' } })}`,
    },
  },
  {
    key: 'events',
    first: { path: '/api/devices/events?page=1' },
    filtered: { path: `/api/devices/events?page=1&${filters({ ended_at: { operator: '=', value: null } })}` },
  },
  {
    key: 'notifications',
    first: { path: '/api/notifications?page=1' },
    filtered: { path: `/api/notifications?page=1&${filters({ read_at: { operator: '=', value: null } })}` },
  },
  {
    key: 'recipes',
    first: { path: '/api/recipes/?page=1' },
    filtered: { path: `/api/recipes/?page=1&${filters({ category: { operator: '=', value: 'Выпечка' } })}` },
  },
  {
    key: 'complaints',
    first: { path: '/api/alerts/?page=1' },
    filtered: {
      path: `/api/alerts/?page=1&${filters({ status: { operator: 'in', value: ['new', 'in_progress'] } })}`,
    },
  },
  {
    key: 'users',
    first: { path: '/api/users/?page=1' },
    filtered: { path: `/api/users/?page=1&${filters({ role: { operator: '=', value: 'admin' } })}` },
  },
  {
    key: 'roles',
    first: { path: '/api/acl/roles', body: { page: 1 } },
    filtered: {
      path: '/api/acl/roles',
      body: { page: 1, filters: { name: { operator: 'like', value: 'Роль 1' } } },
    },
  },
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
async function load(url, headers = {}, body = undefined) {
  const options = {
    url,
    connections: CONNECTIONS,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(body ? { method: 'POST', body: JSON.stringify(body) } : {}),
  };
  await autocannon({ ...options, duration: WARM_UP_SECONDS });
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({ ...options, duration: SECONDS });
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

/** How an ask reads in the docs: `GET path`, or `POST path {body}`. */
const describe = (/** @type {Ask} */ ask) =>
  ask.body ? `POST ${ask.path} ${JSON.stringify(ask.body)}` : `GET ${decodeURIComponent(ask.path)}`;

/**
 * Whether a two-process result meets the targets: its share of the hello-world, p99, no errors
 * (and the devices page's own requests/s).
 */
function verdict(/** @type {string} */ key, r, hello2) {
  const share = r.requestsPerSecond / hello2.requestsPerSecond;
  const clean = r.non2xx === 0 && r.errors === 0;
  const devicesOk = key !== 'devices' || r.requestsPerSecond >= TARGETS.requestsPerSecond;
  return {
    share,
    clean,
    met: share >= TARGETS.shareOfHello && r.p99 < TARGETS.p99Ms && clean && devicesOk,
  };
}

/**
 * @param {ReturnType<typeof machine>} env
 * @param {{ hello: any, hello2: any, devices1?: any, measured: { key: string, kind: string, ask: Ask, total: number, bytes: number, result: any }[] }} results
 * @param {Awaited<ReturnType<typeof seedLists>>} seeded
 */
function markdown(env, results, seeded) {
  const { hello, hello2, devices1, measured } = results;
  const row = (name, r, share = '', met = '') =>
    `| ${name} | ${fmt(r.requestsPerSecond)} | ${share} | ${r.p50} | ${r.p90} | **${r.p99}** | ${r.max} | ${fmt(r.total)} | ${r.non2xx} | ${r.errors} | ${met} |`;
  const lines = [
    `Measured ${env.date} by \`node bench/devices-api.mjs\` at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}).`,
    '',
    `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}. Server and load generator share the machine.`,
    '',
    `Load: autocannon, ${CONNECTIONS} connections, ${SECONDS} s after a ${WARM_UP_SECONDS} s warm-up, the admin's session cookie on every request; SQLite (the default database). ` +
      `The organisation holds ${fmt(seeded.devices)} devices at ${fmt(seeded.addresses)} addresses in ${fmt(seeded.rooms)} rooms, ${fmt(seeded.groups)} device groups (of 10 to 500 devices), ` +
      `${fmt(seeded.events)} device events (a day of the fleet's life and closed ones before it), ${fmt(seeded.notifications)} notifications (the admin's), ${fmt(seeded.recipes)} recipes, ` +
      `${fmt(seeded.complaints)} complaints, ${fmt(seeded.users)} users and ${fmt(seeded.roles)} access roles. Each list answers its first page (25 rows), then the first page of a filter.`,
    '',
    '| endpoint | requests/s | of the hello-world | p50 ms | p90 ms | p99 ms | max ms | requests | non-2xx | errors | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
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
  for (const m of measured) {
    const v = verdict(m.key, m.result, hello2);
    lines.push(
      row(
        `\`${describe(m.ask)}\` (${m.kind}: ${fmt(m.total)} rows; the page ${fmt(m.bytes)} bytes of JSON), two processes`,
        m.result,
        pct(m.result.requestsPerSecond, hello2.requestsPerSecond),
        v.met ? 'met' : '**MISSED**',
      ),
    );
  }
  lines.push('');
  const missed = measured.filter((m) => !verdict(m.key, m.result, hello2).met);
  lines.push(
    `Targets, each on two processes (\`API_WORKERS=2\`): at least ${fmt(TARGETS.shareOfHello * 100)} % of the two-process hello-world's requests/s, ` +
      `p99 under ${TARGETS.p99Ms} ms, no errors; the devices page also at least ${fmt(TARGETS.requestsPerSecond)} requests/s. ` +
      (missed.length === 0
        ? `Met by all ${measured.length}.`
        : `**Missed** by ${missed.map((m) => `\`${describe(m.ask)}\``).join(', ')}.`),
  );
  return lines.join('\n');
}

/** The figures for bench/results/ (bench/lib/results.mjs). */
function figures(results) {
  const { hello2, measured } = results;
  return measured.map((m) => {
    const r = m.result;
    const v = verdict(m.key, r, hello2);
    const failures = v.clean ? '' : `, ${r.non2xx} non-2xx and ${r.errors} errors of ${fmt(r.total)}`;
    return figure({
      name: `\`${describe(m.ask)}\` (${m.kind}, ${fmt(m.total)} rows), two processes: requests/s`,
      value: r.requestsPerSecond,
      unit: 'req/s',
      detail: `p50 ${r.p50} ms, p99 ${r.p99} ms${failures}`,
      target:
        `≥ ${fmt(TARGETS.shareOfHello * 100)} % of the hello-world, p99 < ${TARGETS.p99Ms} ms, no errors` +
        (m.key === 'devices' ? `, ≥ ${fmt(TARGETS.requestsPerSecond)} req/s` : ''),
      met: v.met,
      raw: {
        name: 'bare Fastify hello-world, two processes',
        value: hello2.requestsPerSecond,
        unit: 'req/s',
        share: v.share,
      },
    });
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
  // What Chromium sends with the console's requests: the session cookie, JSON, and its encodings
  // (and the CSRF token, which the access roles' POST needs).
  const headers = {
    cookie: admin.cookieHeader,
    'x-xsrf-token': admin.xsrf,
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br, zstd',
  };
  /** Asks once: 200, a paged body; returns its total, size and first row. */
  const probe = async (/** @type {Ask} */ ask) => {
    const response = await fetch(`${server.baseURL}${ask.path}`, {
      headers: ask.body ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(ask.body ? { method: 'POST', body: JSON.stringify(ask.body) } : {}),
    });
    const body = await response.text();
    if (response.status !== 200)
      throw new Error(`${describe(ask)} answered ${response.status}: ${body.slice(0, 300)}`);
    const page = JSON.parse(body);
    if (typeof page.meta?.total !== 'number' || !Array.isArray(page.data))
      throw new Error(`${describe(ask)} is not a paged list: ${body.slice(0, 300)}`);
    console.log(
      `${describe(ask)}: ${page.meta.total} rows, ${page.data.length} on the page, ${Buffer.byteLength(body)} bytes`,
    );
    return { total: page.meta.total, bytes: Buffer.byteLength(body), first: page.data[0] };
  };
  /** Each chosen list's first page and filtered first page, checked once. */
  const asks = [];
  for (const list of CHOSEN) {
    const first = await probe(list.first);
    if (list.key === 'devices' && first.total !== DEVICES)
      throw new Error(`expected ${DEVICES} devices, the page says ${first.total}`);
    if (!first.first) throw new Error(`${describe(list.first)} is empty`);
    const filteredAsk = typeof list.filtered === 'function' ? list.filtered(first.first) : list.filtered;
    const filtered = await probe(filteredAsk);
    if (filtered.total === 0 || filtered.total >= first.total)
      throw new Error(
        `${describe(filteredAsk)}: ${filtered.total} of ${first.total} rows, not a narrower list`,
      );
    asks.push({ key: list.key, kind: 'first page', ask: list.first, total: first.total, bytes: first.bytes });
    asks.push({
      key: list.key,
      kind: 'filtered',
      ask: filteredAsk,
      total: filtered.total,
      bytes: filtered.bytes,
    });
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
  const measure = async (/** @type {{ baseURL: string }} */ target, /** @type {Ask} */ ask, label) => {
    const result = await load(`${target.baseURL}${ask.path}`, headers, ask.body);
    console.log(
      `${describe(ask)}, ${label}: ${fmt(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, ` +
        `p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, ` +
        `autocannon used ${fmt(result.loadGeneratorCores, 2)} cores`,
    );
    return result;
  };
  const helloResult = await measureHello(1);
  const hello2Result = await measureHello(2);
  const devicesList = CHOSEN.find((list) => list.key === 'devices');
  const devices1 = devicesList ? await measure(server, devicesList.first, 'one process') : undefined;
  // The same database and session, served by two processes (the one-process server stays idle).
  cluster = await startServer({ env: { DATABASE_URL: server.databaseUrl, API_WORKERS: '2' } });
  const measured = [];
  for (const ask of asks) measured.push({ ...ask, result: await measure(cluster, ask.ask, 'two processes') });
  const results = { hello: helloResult, hello2: hello2Result, devices1, measured };
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
