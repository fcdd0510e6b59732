// A soak that would show a leak (`npm run bench:soak`, not part of `npm run bench`): the real server
// (test-support/server.mjs: the serving process itself, its embedded MQTT broker, Prometheus metrics on
// a port of their own) under a steady, realistic load for SOAK_MINUTES (default 30), on SQLite and
// then on PostgreSQL (a database of its own, created and dropped):
//   - 200 devices with real credentials, each one MQTT connection publishing one sample a second
//     with QoS 1 to `kontrol/v1/<controller id>/telemetry` (docs/device-protocol.md), fields as
//     its type reports them; once every 15 minutes each reports a fault (an error code), so the
//     rules open and close events and write notifications as in real use, and 30 of them also in
//     their first second, so the pages of events and notifications are full from the start (see
//     HISTORY_FAULTS). Every PUBACK is counted;
//   - 20 API clients (in a worker thread of their own, bench/lib/soak-clients.mjs, so the devices'
//     work does not delay their timing), each signed in with a session of its own, each making 5
//     requests a second over real HTTP, one after another, in the mix of reads the console makes: the devices list,
//     the dashboard stat, the events and notifications pages, the unread counters, the signed-in
//     user, and a device page's chart (one publishing device's day by the minute).
// Every minute it samples the server's RSS (/proc/<pid>/status), heap used and event-loop lag p99
// and maximum (its Prometheus metrics: prom-client's default Node metrics, the lag histogram reset
// at each scrape, so each value covers the minute), and the API's p99 over the requests started in
// that minute; beside it, to tell a slow server from a stalled machine, how many of the server's
// answers took over 25 ms by its own clock and the share of the machine's CPU time the hypervisor
// took (steal, /proc/stat). RSS is also read every 5 s for the growth slope. The same load runs for a minute before
// minute 1 (shown as minute 0, its errors counted), so the first minute, every later minute's
// reference, is not the server's cold start (its first minute's p99 is several times a warm one's).
// Targets, per database: after the first 10 minutes RSS grows less than 0.5 MB/min (least squares
// over the 5-second samples from minute 10 to the end); no minute's API p99 more than 20 % above
// the first minute's (a faster minute is no miss; a minute in which the hypervisor took 5 % or more
// of the machine's CPU time is shown but not judged, see STEAL_LIMIT); no error: a non-2xx answer, a failed or
// timed-out request (10 s), a publish without its PUBACK within 10 s, a device disconnected, or a
// sample the server rejected. The events and notifications the faults made are counted at the end.
// Beside them, in the same run: a bare Fastify hello-world asked by the same 20 clients at the same
// rate (its p99), and plain batched inserts into a database of its own (the ingest's raw limit).
//
// SOAK_MINUTES (default 30; 3 with BENCH_QUICK=1, which also leaves docs alone). A run shorter than
// 30 minutes writes its section labelled as shortened. SOAK_SLOPE_FROM_MINUTE (default 10, or a third
// of a shorter run): where the RSS slope starts. SOAK_WARM_UP=0: no warm-up minute.
// BENCH_DATABASE=sqlite|postgres|both (default both; a single database is a partial run: no docs,
// results in bench/results/partial/). BENCH_POSTGRES_URL (default
// postgres://postgres@127.0.0.1:5432/test). BENCH_NO_DOCS=1: do not rewrite docs/benchmarks.md.
// E2E_SKIP_BUILD=1: measure the built files as they are. Results: bench/results/soak.json.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import { percentile, plainInsertRate, startHelloWorld } from './lib/baselines.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { issueCredentials } from '../test-support/devices.mjs';
import { machine } from './lib/machine.mjs';
import { autovacuumOn, postgresDatabase } from './lib/postgres.mjs';
import { figure, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';
import {
  apiLogin,
  buildIfNeeded,
  freePort,
  seedFleetAndSignIn,
  startServer,
} from '../test-support/server.mjs';
import { runApiClients } from './lib/soak-clients.mjs';

const FULL_MINUTES = 30;
const MINUTES = Math.max(2, setting('SOAK_MINUTES', FULL_MINUTES, 3));
const SLOPE_FROM = Math.min(
  MINUTES - 1,
  Math.max(1, setting('SOAK_SLOPE_FROM_MINUTE', MINUTES >= FULL_MINUTES ? 10 : Math.floor(MINUTES / 3), 1)),
);
/** A minute of the same load before minute 1 (shown as minute 0), so minute 1 is not a cold start. */
const WARM_UP_MS = process.env.SOAK_WARM_UP === '0' ? 0 : 60_000;
const TARGETS = { rssMbPerMinute: 0.5, p99Rise: 0.2 };
/**
 * A minute in which the hypervisor took this share of the machine's CPU time or more (steal)
 * measures the machine, not the server: it is shown but not judged by the p99 target, and when the
 * first minute is one, the first minute without is the reference. When more than a third of the
 * minutes are such, the target is not judged at all (a miss).
 */
const STEAL_LIMIT = 0.05;
const DEVICES = 200;
const SEND_EVERY_MS = 1_000;
const FAULT_EVERY_SECONDS = 15 * 60;
/**
 * Devices that also report a fault in their first second, so the organisation has events and
 * notifications before minute 1: the events page the clients read (25 a page) and the
 * notifications page (10) are full from the first minute, as later, instead of filling over the
 * first minutes of faults and making the first minute, every later one's reference, lighter.
 */
const HISTORY_FAULTS = 30;
const CLIENTS = 20;
const REQUESTS_PER_SECOND = 5;
/** The fleet seeded: about 60 % of its devices are smart (have a controller id), enough for DEVICES. */
const FLEET = 500;
const TIMEOUT_MS = 10_000;
const RATE = { clients: CLIENTS, perSecond: REQUESTS_PER_SECOND, timeoutMs: TIMEOUT_MS };
const RSS_EVERY_MS = 5_000;
/** The server's own answers slower than this (a bucket of its duration histogram) are counted per minute. */
const SLOW_SECONDS = 0.025;
const HELLO_SECONDS = setting('SOAK_HELLO_SECONDS', 30, 10);
const RAW_SECONDS = setting('SOAK_RAW_SECONDS', 5, 2);
const DATABASES = /** @type {('sqlite' | 'postgres')[]} */ (
  { both: ['sqlite', 'postgres'], sqlite: ['sqlite'], postgres: ['postgres'] }[
    process.env.BENCH_DATABASE ?? 'both'
  ]
);
if (!DATABASES) throw new Error('BENCH_DATABASE: sqlite, postgres or both');
const PARTIAL = DATABASES.length !== 2;
const LABEL = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const fmt = (/** @type {number} */ n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

/** Resident memory of a process in MB (Linux). @param {number} pid */
function rssMb(pid) {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** User plus system CPU seconds of a process (Linux, USER_HZ 100). @param {number} pid */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * One value of a Prometheus text exposition: the first series of `name` whose labels contain
 * `labels` (e.g. `result="rejected"`).
 * @param {string} text @param {string} name @param {string} [labels]
 */
function metric(text, name, labels = '') {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    if (labels && !rest.includes(labels)) continue;
    return Number(rest.slice(rest.lastIndexOf(' ') + 1));
  }
  return Number.NaN;
}

/**
 * The sum of every series of `name` whose labels contain `labels`: e.g. the server's answers in one
 * histogram bucket over all its routes. @param {string} text @param {string} name @param {string} [labels]
 */
function metricSum(text, name, labels = '') {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (labels && !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** The machine's CPU time so far in USER_HZ ticks: all of it, and what the hypervisor took (steal). */
function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { total: fields.reduce((sum, n) => sum + n, 0), steal: fields[7] ?? 0 };
}

/** Least-squares slope of y over x. @param {{ x: number, y: number }[]} points */
function slope(points) {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

/** A device type's reported fields and what it does all day (refrigeration idles, ovens cook). */
function deviceModel(/** @type {{ slug: string, telemetry: string[] }} */ type) {
  const cold = { refrigerator: 3, freezer: -18, blast_chiller: -25 }[type.slug];
  const washer = type.slug === 'dishwasher';
  return {
    temperature: type.telemetry.includes('temperature'),
    door: type.telemetry.includes('door'),
    state: cold !== undefined ? 'idle' : washer ? 'washing' : 'cooking',
    current: cold !== undefined ? 3 : washer ? 15 : 18,
    celsius: cold ?? (washer ? 60 : 180),
  };
}

/**
 * Per-minute tallies of one run: row m is minute m, counted from `start` (minute 1 is the first);
 * times before `start` (the warm-up) go to row 0, times after the last minute to the last.
 */
function minuteBook(/** @type {number} */ start, /** @type {number} */ minutes) {
  const rows = Array.from({ length: minutes + 1 }, () => ({
    latencies: /** @type {number[]} */ ([]),
    /** The read of each latency, in the same order. */
    reads: /** @type {string[]} */ ([]),
    acknowledged: 0,
    errors: 0,
  }));
  const at = (/** @type {number} */ time) =>
    rows[Math.min(minutes, Math.max(0, Math.floor((time - start) / 60_000) + 1))];
  return { rows, at };
}

/** What the hello-world answers to the same clients at the same rate: the raw limit of the p99. */
async function helloWorldUnderSameLoad() {
  const hello = await startHelloWorld(1);
  try {
    /** @type {number[]} */
    const latencies = [];
    let failed = 0;
    await runApiClients(
      { ...RATE, baseURL: hello.baseURL, reads: 'hello', until: Date.now() + HELLO_SECONDS * 1000 },
      (record) => {
        latencies.push(record.ms);
        if (!record.ok) failed += 1;
      },
    );
    latencies.sort((a, b) => a - b);
    return { p99: percentile(latencies, 99), requests: latencies.length, failed };
  } finally {
    await hello.stop();
  }
}

/** The soak on one database; see the header. @param {'sqlite' | 'postgres'} database @param {(() => Promise<void>)[]} cleanups */
async function soakOn(database, cleanups) {
  const label = LABEL[database];
  const log = (/** @type {string} */ line) => console.log(`${database}: ${line}`);
  const mqttPort = await freePort();
  const metricsPort = await freePort();
  /** @type {Record<string, string>} */
  let serverEnv = { MQTT_PORT: String(mqttPort), METRICS_PORT: String(metricsPort) };
  let rawUrl;
  let autovacuum = '';
  if (database === 'postgres') {
    const vacuum = await autovacuumOn();
    cleanups.push(vacuum.restore);
    autovacuum = vacuum.autovacuum;
    log(`autovacuum: ${autovacuum}`);
    const served = await postgresDatabase();
    cleanups.push(served.drop);
    const raw = await postgresDatabase();
    cleanups.push(raw.drop);
    serverEnv = { ...serverEnv, DATABASE_URL: served.url };
    rawUrl = raw.url;
  }
  const server = await startServer({ env: serverEnv });
  cleanups.push(() => server.stop());
  rawUrl ??= `sqlite:${join(server.dir, 'raw.db')}`;
  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
    return response.text();
  };

  const { admin, logins, seeded } = await seedFleetAndSignIn(server, FLEET);
  log(seeded);
  const devices = await issueCredentials(server.baseURL, admin, DEVICES);
  const typesAnswer = await fetch(`${server.baseURL}/api/devices/types/`, {
    headers: { cookie: admin.cookieHeader, accept: 'application/json' },
  });
  /** @type {{ data: { data: { id: number, slug: string, telemetry: string[] }[] } }} */
  const types = await typesAnswer.json();
  const models = new Map(types.data.data.map((type) => [type.id, deviceModel(type)]));

  // The raw limits first, so they do not share the machine with the soak.
  const plainInserts = await plainInsertRate(rawUrl, RAW_SECONDS);
  log(`raw limit: plain batched inserts ${fmt(plainInserts)} rows/s`);
  const hello = await helloWorldUnderSameLoad();
  log(
    `raw limit: bare Fastify hello-world, ${CLIENTS} clients at ${REQUESTS_PER_SECOND} requests/s each: ` +
      `p99 ${fmt(hello.p99, 1)} ms over ${fmt(hello.requests)} requests (${hello.failed} failed)`,
  );

  /** @type {Awaited<ReturnType<typeof apiLogin>>[]} */
  const sessions = [];
  for (let i = 0; i < CLIENTS; i += 1) sessions.push(await apiLogin(server.baseURL, logins.admin));

  // The devices connect before the soak starts, as a fleet that is already online.
  const counts = { sent: 0, acknowledged: 0, missingPuback: 0, disconnects: 0, mqttErrors: 0 };
  let running = true;
  /** @type {ReturnType<typeof minuteBook> | undefined} */
  let book;
  const noteError = (/** @type {number} */ at) => {
    if (book) book.at(at).errors += 1;
  };
  const clients = await Promise.all(
    devices.map(async (device) => {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        clientId: device.controllerId,
        username: device.controllerId,
        password: device.credential,
        reconnectPeriod: 1000,
        connectTimeout: TIMEOUT_MS,
      });
      client.on('close', () => {
        if (!running) return;
        counts.disconnects += 1;
        noteError(Date.now());
      });
      client.on('error', () => {
        if (!running) return;
        counts.mqttErrors += 1;
        noteError(Date.now());
      });
      await client.subscribeAsync(`kontrol/v1/${device.controllerId}/cmd`, { qos: 1 });
      await client.publishAsync(
        `kontrol/v1/${device.controllerId}/status`,
        JSON.stringify({ online: true, firmware: '2.1.0' }),
        { qos: 1, retain: true },
      );
      return client;
    }),
  );
  cleanups.push(async () => {
    running = false;
    await Promise.all(clients.map((client) => client.endAsync(true)));
  });
  log(`${clients.length} devices connected over MQTT, ${sessions.length} API sessions signed in`);

  let inFlight = 0;
  const rssSamples = /** @type {{ x: number, y: number }[]} */ ([]);
  const before = await scrape(); // also resets the event-loop lag histogram
  const rejectedBefore = metric(before, 'kontrol_ingest_samples_total', 'result="rejected"');
  // The server's answers so far and those that took longer than SLOW_SECONDS (its own timing, from
  // the request's arrival to the answer), and the machine's CPU ticks, for each minute's difference.
  const answered = (/** @type {string} */ text) => {
    const all = metricSum(text, 'kontrol_http_request_duration_seconds_count');
    return {
      all,
      slow: all - metricSum(text, 'kontrol_http_request_duration_seconds_bucket', `le="${SLOW_SECONDS}"`),
    };
  };
  let answeredSoFar = answered(before);
  let ticksSoFar = machineTicks();
  let rejectedSoFar = rejectedBefore;
  /** @type {Map<string, number>} */
  const failures = new Map();
  /** Latencies of the measured minutes by read, to see which set the p99. @type {Map<string, number[]>} */
  const byRead = new Map();
  const loadBefore = load();
  const cpuBefore = cpuSeconds(server.pid);
  const generatorBefore = process.cpuUsage();
  const loadStart = Date.now();
  const start = loadStart + WARM_UP_MS;
  book = minuteBook(start, MINUTES);
  const { rows, at } = book;
  const end = start + MINUTES * 60_000;
  log(
    `soak started: ${WARM_UP_MS ? 'a minute of warm-up, then ' : ''}${MINUTES} minutes, load average ${loadBefore}`,
  );

  const rssTimer = setInterval(() => {
    rssSamples.push({ x: (Date.now() - start) / 60_000, y: rssMb(server.pid) });
  }, RSS_EVERY_MS);
  /** Stops each device's publishing. @type {(() => void)[]} */
  const publishers = [];
  // Before anything else at the end: nothing may read the stopped server's /proc or publish to it.
  cleanups.push(async () => {
    running = false;
    clearInterval(rssTimer);
    for (const stop of publishers) stop();
  });

  // Each device publishes one sample a second, the fleet spread over the second.
  for (const [index, device] of devices.entries()) {
    const model = /** @type {ReturnType<typeof deviceModel>} */ (models.get(device.typeId));
    const topic = `kontrol/v1/${device.controllerId}/telemetry`;
    const client = clients[index];
    let tick = 0;
    const publish = () => {
      if (!running) return;
      tick += 1;
      const fault = (tick + index * 37) % FAULT_EVERY_SECONDS === 0 || (tick === 1 && index < HISTORY_FAULTS);
      /** @type {Record<string, unknown>} */
      const sample = {
        ts: Date.now(),
        current: fault ? 0.5 : model.current + (tick % 10) / 10,
        state: fault ? 'fault' : model.state,
      };
      if (model.temperature) sample.temperature = model.celsius + (tick % 5) / 5;
      if (model.door) sample.door_open = false;
      if (fault) sample.error_code = 'E34';
      counts.sent += 1;
      inFlight += 1;
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        counts.missingPuback += 1;
        noteError(Date.now());
      }, TIMEOUT_MS);
      client.publish(topic, JSON.stringify(sample), { qos: 1 }, (error) => {
        clearTimeout(timer);
        inFlight -= 1;
        if (settled) return;
        settled = true;
        if (error) {
          counts.missingPuback += 1;
          noteError(Date.now());
        } else {
          counts.acknowledged += 1;
          at(Date.now()).acknowledged += 1;
        }
      });
    };
    /** @type {{ interval?: NodeJS.Timeout }} */
    const handle = {};
    const first = setTimeout(
      () => {
        publish();
        handle.interval = setInterval(publish, SEND_EVERY_MS);
      },
      (index * SEND_EVERY_MS) / DEVICES,
    );
    publishers.push(() => {
      clearTimeout(first);
      clearInterval(handle.interval);
    });
  }

  const clientsDone = runApiClients(
    {
      ...RATE,
      baseURL: server.baseURL,
      reads: 'console',
      deviceIds: devices.map((device) => device.id),
      sessions,
      until: end,
    },
    (record) => {
      const row = at(record.start);
      row.latencies.push(record.ms);
      row.reads.push(record.what);
      if (record.start >= start) {
        const list = byRead.get(record.what) ?? [];
        list.push(record.ms);
        byRead.set(record.what, list);
      }
      if (!record.ok) {
        row.errors += 1;
        const key = `${record.what} → ${record.status || 'no answer'}`;
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    },
  );

  /** @type {{ minute: number, rss: number, heap: number, lag: number, lagMax: number, p99: number, serverSlow: number, serverAnswers: number, steal: number, slowest: Record<string, number>, requests: number, acknowledged: number, errors: number }[]} */
  const table = [];
  for (let minute = WARM_UP_MS ? 0 : 1; minute <= MINUTES; minute += 1) {
    const due = start + minute * 60_000;
    if (due > Date.now()) await sleep(due - Date.now());
    const text = await scrape();
    const rejected = metric(text, 'kontrol_ingest_samples_total', 'result="rejected"');
    const row = rows[minute];
    row.errors += rejected - rejectedSoFar;
    rejectedSoFar = rejected;
    const answeredNow = answered(text);
    const ticks = machineTicks();
    const serverSlow = answeredNow.slow - answeredSoFar.slow;
    const serverAnswers = answeredNow.all - answeredSoFar.all;
    const steal = (ticks.steal - ticksSoFar.steal) / Math.max(1, ticks.total - ticksSoFar.total);
    answeredSoFar = answeredNow;
    ticksSoFar = ticks;
    const sorted = [...row.latencies].sort((a, b) => a - b);
    const p99 = percentile(sorted, 99);
    // Which reads the minute's slowest 1 % are: what sets its p99.
    /** @type {Record<string, number>} */
    const slowest = {};
    row.latencies.forEach((ms, index) => {
      const what = row.reads[index] ?? '?';
      if (ms >= p99) slowest[what] = (slowest[what] ?? 0) + 1;
    });
    const entry = {
      minute,
      rss: rssMb(server.pid),
      heap: metric(text, 'kontrol_nodejs_heap_size_used_bytes') / 1024 / 1024,
      lag: metric(text, 'kontrol_nodejs_eventloop_lag_p99_seconds') * 1000,
      lagMax: metric(text, 'kontrol_nodejs_eventloop_lag_max_seconds') * 1000,
      p99,
      serverSlow,
      serverAnswers,
      steal,
      slowest,
      requests: sorted.length,
      acknowledged: row.acknowledged,
      errors: row.errors,
    };
    table.push(entry);
    log(
      `minute ${minute}: RSS ${fmt(entry.rss, 1)} MB, heap ${fmt(entry.heap, 1)} MB, lag p99 ${fmt(entry.lag, 1)} ms (max ${fmt(entry.lagMax, 1)}), ` +
        `API p99 ${fmt(entry.p99, 1)} ms over ${fmt(entry.requests)} requests, ${fmt(entry.serverSlow)} of the server's ${fmt(entry.serverAnswers)} answers over ${SLOW_SECONDS * 1000} ms by its own clock, ` +
        `CPU steal ${fmt(entry.steal * 100, 1)} %, ${fmt(entry.acknowledged)} samples acknowledged, ` +
        `${entry.errors} errors; at or above the p99: ` +
        Object.entries(slowest)
          .sort((a, b) => b[1] - a[1])
          .map(([what, count]) => `${count} ${what}`)
          .join(', '),
    );
  }

  // The end: no new requests or samples; what is in flight gets its answer or times out.
  for (const stop of publishers) stop();
  await clientsDone;
  const settleBy = Date.now() + TIMEOUT_MS + 1000;
  while (inFlight > 0 && Date.now() < settleBy) await sleep(100);
  running = false;
  clearInterval(rssTimer);
  const serverCores = (cpuSeconds(server.pid) - cpuBefore) / ((Date.now() - loadStart) / 1000);
  const generator = process.cpuUsage(generatorBefore);
  const generatorCores = (generator.user + generator.system) / 1e6 / ((Date.now() - loadStart) / 1000);
  const after = await scrape();
  const rejectedTotal = metric(after, 'kontrol_ingest_samples_total', 'result="rejected"') - rejectedBefore;
  // Rejections counted after the last minute's scrape belong to the last minute.
  rows[MINUTES].errors += rejectedTotal - (rejectedSoFar - rejectedBefore);
  table[table.length - 1].errors = rows[MINUTES].errors;
  const loadAfter = load();
  // What the faults left: the organisation's events and the admin's notifications.
  const total = async (/** @type {string} */ path) => {
    const response = await fetch(`${server.baseURL}${path}`, {
      headers: { cookie: sessions[0].cookieHeader, accept: 'application/json' },
    });
    /** @type {{ meta?: { total?: number } }} */
    const page = await response.json();
    return page.meta?.total ?? Number.NaN;
  };
  const events = await total('/api/devices/events?page=1');
  const notifications = await total('/api/notifications?page=1');

  const measured = table.filter((row) => row.minute >= 1);
  const requests = measured.reduce((sum, row) => sum + row.requests, 0);
  const nonOk = [...failures.values()].reduce((sum, n) => sum + n, 0);
  const errors = {
    failedRequests: nonOk,
    missingPuback: counts.missingPuback,
    disconnects: counts.disconnects + counts.mqttErrors,
    rejectedSamples: rejectedTotal,
  };
  const errorTotal = Object.values(errors).reduce((sum, n) => sum + n, 0);
  const window = rssSamples.filter((point) => point.x >= SLOPE_FROM);
  const rssSlope = slope(window);
  const stalled = measured.filter((row) => row.steal >= STEAL_LIMIT);
  const judgeable = stalled.length * 3 <= measured.length;
  const judged = judgeable ? measured.filter((row) => row.steal < STEAL_LIMIT) : measured;
  const first = judged[0];
  const firstP99 = first.p99;
  const later = judged.slice(1);
  const worst = later.reduce((w, row) => (row.p99 > w.p99 ? row : w), later[0] ?? first);
  const best = later.reduce((b, row) => (row.p99 < b.p99 ? row : b), later[0] ?? first);
  const rise = worst.p99 / firstP99 - 1;
  // Over every minute, stalled ones included, against minute 1: shown beside the verdict.
  const worstOfAll = measured.slice(1).reduce((w, row) => (row.p99 > w.p99 ? row : w), measured[0]);
  const worstLag = measured.reduce((w, row) => (row.lag > w.lag ? row : w), measured[0]);
  const result = {
    database,
    label,
    autovacuum,
    table,
    minutes: MINUTES,
    requests,
    scheduled: CLIENTS * REQUESTS_PER_SECOND * MINUTES * 60,
    counts,
    errors,
    errorTotal,
    failures: [...failures].sort((a, b) => b[1] - a[1]),
    rssSlope,
    rssSamples: window.length,
    rssFrom: window[0]?.y ?? Number.NaN,
    rssTo: window.at(-1)?.y ?? Number.NaN,
    first,
    firstP99,
    worst,
    best,
    rise,
    stalled,
    judgeable,
    worstOfAll,
    worstLag,
    plainInserts,
    hello,
    serverCores,
    generatorCores,
    loadBefore,
    loadAfter,
    events,
    notifications,
    reads: [...byRead].map(([what, list]) => {
      list.sort((a, b) => a - b);
      return { what, requests: list.length, p50: percentile(list, 50), p99: percentile(list, 99) };
    }),
    samplesPerSecond: counts.acknowledged / ((MINUTES * 60_000 + WARM_UP_MS) / 1000),
  };
  log(
    `done: ${fmt(requests)} requests, ${fmt(counts.acknowledged)} of ${fmt(counts.sent)} samples acknowledged, ` +
      `${errorTotal} errors ${JSON.stringify(errors)}, ${events} device events, ${notifications} notifications; server ${fmt(serverCores, 2)} cores, load generator ${fmt(generatorCores, 2)} cores; load average ${loadAfter}`,
  );
  for (const [key, n] of result.failures) log(`  ${n} × ${key}`);
  return result;
}

// ---------------------------------------------------------------------------------------------

/** @type {(() => Promise<void>)[]} run in reverse order when a database's soak ends or is interrupted */
const cleanups = [];
const cleanUp = async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error) => console.error(error));
};
/** @type {Promise<void> | undefined} the clean-up a signal started; the process exits when it ends */
let interrupted;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    console.error(`soak: ${signal}: stopping the server and dropping its database`);
    interrupted = cleanUp().finally(() => process.exit(130));
  });

const env = machine();
console.log(
  `soak — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed}); ` +
    `${MINUTES} minutes per database (${DATABASES.join(', ')}), RSS slope from minute ${SLOPE_FROM}`,
);
buildIfNeeded();
const results = [];
for (const database of DATABASES) {
  try {
    results.push(await soakOn(database, cleanups));
  } catch (error) {
    // Interrupted: what failed is the server being stopped; the signal's clean-up ends the process.
    if (interrupted) await new Promise(() => {});
    throw error;
  } finally {
    if (!interrupted) await cleanUp();
  }
}

const met = (/** @type {boolean} */ ok) => (ok ? 'met' : '**MISSED**');
const rssOk = (/** @type {any} */ r) => r.rssSlope < TARGETS.rssMbPerMinute;
const p99Ok = (/** @type {any} */ r) => r.judgeable && r.rise <= TARGETS.p99Rise;
/** What the p99 verdict left out, and the slowest minute of all against minute 1. */
const stalledNote = (/** @type {any} */ r) => {
  if (r.stalled.length === 0) return '';
  const list = r.stalled
    .map((/** @type {any} */ row) => `${row.minute} (${fmt(row.steal * 100, 1)} %)`)
    .join(', ');
  const all = `over every minute the slowest is minute ${r.worstOfAll.minute}, ${fmt(r.worstOfAll.p99, 1)} ms (${pct(r.worstOfAll.p99 / r.table.find((/** @type {any} */ row) => row.minute === 1).p99 - 1)} against minute 1)`;
  return r.judgeable
    ? ` Not judged: minute${r.stalled.length > 1 ? 's' : ''} ${list}, in which the hypervisor took ${fmt(STEAL_LIMIT * 100)} % or more of the machine's CPU time (steal); ${all}.`
    : ` Not judged at all: in ${r.stalled.length} of ${r.table.length - 1} minutes the hypervisor took ${fmt(STEAL_LIMIT * 100)} % or more of the machine's CPU time (steal: ${list}); ${all}.`;
};
const pct = (/** @type {number} */ share) => `${share >= 0 ? '+' : ''}${fmt(share * 100)} %`;
const short = MINUTES < FULL_MINUTES;
const lines = [
  `Run ${env.date} by \`npm run bench:soak\` (\`bench/soak.mjs\`) at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}); ` +
    `Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}. Server, devices and clients share the machine.`,
  '',
  short
    ? `**A shortened validation run: ${MINUTES} minutes per database (\`SOAK_MINUTES=${MINUTES}\`), not the ${FULL_MINUTES} minutes the targets are set for; the RSS slope is taken from minute ${SLOPE_FROM}, not 10. Its verdicts say the benchmark works, not that the targets hold.**`
    : `${MINUTES} minutes per database; the RSS slope from minute ${SLOPE_FROM} to the end.`,
  '',
  `Load: ${DEVICES} devices over MQTT (embedded broker, QoS 1), one sample a second each, a fault (error code) once every ${FAULT_EVERY_SECONDS / 60} minutes per device, and ${HISTORY_FAULTS} of them also in their first second, so the pages of events and notifications the clients read are full from minute 1; ` +
    `${CLIENTS} API clients with sessions of their own (in a worker thread, apart from the devices), ${REQUESTS_PER_SECOND} requests a second each, one at a time: the devices list, the dashboard stat, ` +
    `the events and notifications pages, the unread counters, the signed-in user, a device's chart of 24 hours by the minute. ` +
    `The fleet: ${fmt(FLEET)} devices with the templates \`seed:fleet\` gives them. ` +
    (WARM_UP_MS
      ? 'The same load runs for a minute before minute 1 (minute 0, its errors counted), so that minute 1, the reference of the p99, is not the cold start.'
      : 'No warm-up (`SOAK_WARM_UP=0`): minute 1 is the cold start.'),
];
for (const r of results) {
  const failed = r.failures.length
    ? ` (${r.failures
        .slice(0, 5)
        .map(([key, n]) => `${n} × ${key}`)
        .join('; ')})`
    : '';
  lines.push(
    '',
    `### ${r.label}`,
    '',
    `| minute | RSS MB | heap used MB | event-loop lag p99 / max ms | API p99 ms | requests | server answers over ${SLOW_SECONDS * 1000} ms | CPU steal | samples acknowledged | errors |`,
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.table.map(
      (/** @type {any} */ row) =>
        `| ${row.minute || '0 (warm-up)'} | ${fmt(row.rss, 1)} | ${fmt(row.heap, 1)} | ${fmt(row.lag, 1)} / ${fmt(row.lagMax, 1)} | ${fmt(row.p99, 1)} | ${fmt(row.requests)} | ${fmt(row.serverSlow)} | ${fmt(row.steal * 100, 1)} % | ${fmt(row.acknowledged)} | ${row.errors} |`,
    ),
    '',
    `- RSS growth from minute ${SLOPE_FROM} to ${MINUTES}: **${fmt(r.rssSlope, 2)} MB/min** (least squares over ${r.rssSamples} samples 5 s apart; ` +
      `${fmt(r.rssFrom, 1)} → ${fmt(r.rssTo, 1)} MB); target < ${TARGETS.rssMbPerMinute} MB/min — ${met(rssOk(r))}.`,
    `- API p99: first minute${r.first.minute === 1 ? '' : ` judged (minute ${r.first.minute})`} ${fmt(r.firstP99, 1)} ms; the slowest later minute is minute ${r.worst.minute}, **${fmt(r.worst.p99, 1)} ms (${pct(r.rise)})**, ` +
      `the fastest minute ${r.best.minute}, ${fmt(r.best.p99, 1)} ms (${pct(r.best.p99 / r.firstP99 - 1)}); target: no minute more than ${fmt(TARGETS.p99Rise * 100)} % above the first — ${met(p99Ok(r))}.${stalledNote(r)}`,
    `- Errors: **${r.errorTotal}** (failed or non-2xx requests ${r.errors.failedRequests}, publishes without PUBACK within 10 s ${r.errors.missingPuback}, ` +
      `device disconnects or MQTT errors ${r.errors.disconnects}, samples rejected ${r.errors.rejectedSamples})${failed}; target 0 — ${met(r.errorTotal === 0)}.`,
    `- Load held: ${fmt(r.requests)} requests of ${fmt(r.scheduled)} scheduled; ${fmt(r.counts.acknowledged)} of ${fmt(r.counts.sent)} samples acknowledged ` +
      `(${fmt(r.samplesPerSecond)} samples/s); the faults left ${fmt(r.events)} device events and ${fmt(r.notifications)} notifications of the admin. Worst minute's event-loop lag p99: ${fmt(r.worstLag.lag, 1)} ms (minute ${r.worstLag.minute}; prom-client samples the loop every 10 ms, which the figure includes). ` +
      `The server used ${fmt(r.serverCores, 2)} cores on average, the load generator ${fmt(r.generatorCores, 2)}; load average ${r.loadBefore} → ${r.loadAfter}.`,
    ...(r.autovacuum
      ? [
          `- PostgreSQL's autovacuum: ${r.autovacuum}${r.autovacuum === 'on' ? '' : " (the server's own setting was off; every default PostgreSQL runs it)"}.`,
        ]
      : []),
    `- Raw limits, same run: a bare Fastify hello-world asked by the same ${CLIENTS} clients at the same rate for ${HELLO_SECONDS} s: p99 ${fmt(r.hello.p99, 1)} ms; ` +
      `plain batched inserts into a ${r.label} database of its own: ${fmt(r.plainInserts)} rows/s (the soak's ${fmt(r.samplesPerSecond)} samples/s are ${fmt((r.samplesPerSecond / r.plainInserts) * 100, 2)} % of it).`,
    '',
    `Each read over minutes 1–${MINUTES}:`,
    '',
    '| read | requests | p50 ms | p99 ms |',
    '|---|---:|---:|---:|',
    ...r.reads.map(
      (/** @type {any} */ read) =>
        `| \`${read.what}\` | ${fmt(read.requests)} | ${fmt(read.p50, 1)} | ${fmt(read.p99, 1)} |`,
    ),
  );
}
const section = lines.join('\n');
console.log(`\n${section}\n`);
const docsWritten = WRITE_DOCS && !PARTIAL;
if (docsWritten) writeBenchmarkSection({ name: 'soak', script: 'bench/soak.mjs', heading: 'Soak', section });
writeResults('soak', {
  script: 'bench/soak.mjs',
  title: `Soak (${MINUTES} minutes per database)`,
  env,
  figures: results.flatMap((r) => [
    figure({
      name: `Soak, ${r.label}: RSS growth from minute ${SLOPE_FROM} to ${MINUTES}`,
      value: r.rssSlope,
      unit: 'MB/min',
      detail: `${fmt(r.rssFrom, 1)} → ${fmt(r.rssTo, 1)} MB`,
      target: `< ${TARGETS.rssMbPerMinute} MB/min`,
      met: rssOk(r),
      rawNote: 'none applies (the server’s own memory over time)',
    }),
    figure({
      name: `Soak, ${r.label}: API p99 of the slowest minute against the first`,
      value: r.rise * 100,
      unit: '%',
      detail: `minute ${r.first.minute} ${fmt(r.firstP99, 1)} ms, minute ${r.worst.minute} ${fmt(r.worst.p99, 1)} ms${r.stalled.length ? `; not judged (steal ≥ ${fmt(STEAL_LIMIT * 100)} %): minutes ${r.stalled.map((/** @type {any} */ row) => row.minute).join(', ')}` : ''}`,
      target: `≤ +${fmt(TARGETS.p99Rise * 100)} % every minute`,
      met: p99Ok(r),
      raw: {
        name: `bare Fastify hello-world, ${CLIENTS} clients at ${REQUESTS_PER_SECOND} requests/s: p99`,
        value: r.hello.p99,
        unit: 'ms',
      },
    }),
    figure({
      name: `Soak, ${r.label}: errors`,
      value: r.errorTotal,
      unit: 'errors',
      detail: `requests ${r.errors.failedRequests}, missing PUBACKs ${r.errors.missingPuback}, disconnects ${r.errors.disconnects}, rejected samples ${r.errors.rejectedSamples}`,
      target: '0',
      met: r.errorTotal === 0,
      rawNote: 'none applies (a count)',
    }),
    figure({
      name: `Soak, ${r.label}: samples acknowledged`,
      value: r.samplesPerSecond,
      unit: 'samples/s',
      detail: `${fmt(r.counts.acknowledged)} of ${fmt(r.counts.sent)} sent; ${fmt(r.requests)} API requests`,
      raw: {
        name: `plain batched inserts, ${r.label}`,
        value: r.plainInserts,
        unit: 'rows/s',
        share: r.samplesPerSecond / r.plainInserts,
      },
    }),
  ]),
  partial: PARTIAL,
  docsWritten,
  notes: short ? [`a shortened run: ${MINUTES} minutes per database`] : [],
  settings: {
    minutes: MINUTES,
    slopeFromMinute: SLOPE_FROM,
    warmUpSeconds: WARM_UP_MS / 1000,
    databases: DATABASES,
    devices: DEVICES,
    clients: CLIENTS,
    requestsPerSecond: REQUESTS_PER_SECOND,
    perMinute: Object.fromEntries(results.map((r) => [r.database, r.table])),
  },
});
