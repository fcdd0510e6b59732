// One device credential floods the server (`npm run bench:flood`): the real server
// (test-support/server.mjs) on a fresh SQLite database with the embedded MQTT broker and the default
// device limits (docs/device-protocol.md, "Limits"). Organisation A's device sends as fast as it
// can over 8 HTTP connections (1 000 samples a request) and over MQTT 5 (1 000 samples a QoS 1
// message, reconnecting at once when the broker drops it), while A's second device announces a
// 200 MB MQTT message every second; organisation B's admin meanwhile reads `GET /api/devices/` one
// request at a time, as the console does. Measured:
//   - the server's resident memory, sampled every 50 ms: its growth over the flood against the
//     moment before it. Target: within 100 MB.
//   - B's `GET /api/devices/` latency during the flood: p99. Target: under 50 ms. Beside it, the
//     same requests before the flood, and a bare Fastify hello-world asked the same way (the raw
//     limit, same run).
//   - the samples stored for the flooding credential against what its limits allow (the bucket
//     plus the rate over the flood's time), the answers by status and reason, the refusals the
//     server counted (Prometheus) and the notifications A received.
// The load generator runs on the same machine as the server, as the ingest benchmark does.
//
// BENCH_SECONDS (default 30; 5 with BENCH_QUICK=1, which also leaves docs alone), BENCH_DEVICES
// (organisation B's fleet, default 500). BENCH_NO_DOCS=1: do not rewrite docs/benchmarks.md.
// E2E_SKIP_BUILD=1: measure the built files as they are. BENCH_CPU_PROF=<dir> profiles the server.
// Results: bench/results/device-flood.json.
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { helloWorldLatency, percentile } from './lib/baselines.mjs';
import { writeBenchmarkSection } from './lib/benchmarks-doc.mjs';
import { issueCredentials } from '../test-support/devices.mjs';
import { machine } from './lib/machine.mjs';
import { figure, setting, WRITE_DOCS, writeResults } from './lib/results.mjs';
import { apiLogin, buildIfNeeded, freePort, runCli, startServer } from '../test-support/server.mjs';

const TARGETS = { memoryMb: 100, p99Ms: 50 };
const SECONDS = Math.max(3, setting('BENCH_SECONDS', 30, 5));
const VICTIM_DEVICES = Math.max(10, setting('BENCH_DEVICES', 500, 50));
const HTTP_CONNECTIONS = 8;
const BATCH = 1_000;
/** The defaults of packages/contracts/src/device-limits.ts, which the server runs with here. */
const LIMITS = { samplesPerSecond: 2, burstSamples: 30_000 };
const QUIET_SECONDS = Math.min(10, SECONDS);

const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The server's resident memory in MB (/proc). @param {number} pid */
function rssMb(pid) {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/**
 * An organisation with its admin and `devices` devices, through the operator CLI.
 * @param {{ databaseUrl: string }} server @param {string} name @param {number} devices
 */
function seedOrganisation(server, name, devices) {
  const email = `admin-${name.toLowerCase()}@flood.kontrol.test`;
  const password = 'kontrol-flood-1234';
  const output = runCli(
    [
      'org:create',
      '--name',
      `Flood ${name}`,
      '--admin-email',
      email,
      '--admin-name',
      'Admin',
      '--password',
      password,
    ],
    server,
  );
  const id = /^Organisation (\d+) created/m.exec(output)?.[1];
  if (!id) throw new Error(`could not read the organisation id from: ${output}`);
  runCli(['seed:fleet', '--org', id, '--devices', String(devices)], server);
  return { id: Number(id), email, password };
}

/** A POST of `body` through `agent`; resolves with the status and the refusal's reason. */
function post(port, agent, credential, body) {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/ingest/v1/telemetry',
        agent,
        headers: {
          authorization: `Bearer ${credential}`,
          'content-type': 'application/json',
          'content-length': body.length,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          let reason;
          try {
            reason = JSON.parse(Buffer.concat(chunks).toString('utf8')).reason;
          } catch {
            // not JSON: counted by its status
          }
          resolve({ status: res.statusCode ?? 0, reason });
        });
      },
    );
    req.on('error', () => resolve({ status: 0, reason: 'network error' }));
    // A request unanswered this long is counted as such: the loop must end by its deadline.
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.end(body);
  });
}

/** `GET /api/devices/` one request at a time until `until` (epoch ms); latencies in ms, sorted. */
async function readDevices(baseURL, cookieHeader, until, expected) {
  const headers = {
    cookie: cookieHeader,
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br',
  };
  const times = [];
  let failures = 0;
  while (Date.now() < until) {
    const started = performance.now();
    const response = await fetch(`${baseURL}/api/devices/`, { headers });
    const body = await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200 || JSON.parse(body).data.length !== expected) failures += 1;
  }
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    failures,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times[times.length - 1],
  };
}

/** Refusals counted by the server (Prometheus), by reason. @param {number} port */
async function refusals(port) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  /** @type {Record<string, number>} */
  const counts = {};
  for (const match of text.matchAll(
    /^kontrol_device_limit_refusals_total\{[^}]*reason="(\w+)"[^}]*\} (\d+)/gm,
  ))
    counts[match[1]] = (counts[match[1]] ?? 0) + Number(match[2]);
  return counts;
}

/**
 * @typedef {object} FloodOutcome
 * @property {Record<string, number>} http  answers by status (and the 429's reason)
 * @property {{ acknowledged: number, unacknowledged: number, connections: number, refusedConnections: number }} overMqtt
 * @property {{ attempts: number, cut: number }} huge  announced 200 MB messages, and those the broker cut
 */

/**
 * The flood, in a worker thread: organisation A's first device over 8 HTTP connections and MQTT 5,
 * its second announcing 200 MB messages, until `deadline`. Posts its {@link FloodOutcome}.
 * @param {{ port: number, mqttPort: number, deadline: number,
 *   flooder: { controllerId: string, credential: string }, oversized: { controllerId: string, credential: string } }} options
 */
async function runFlood({ port, mqttPort, deadline, flooder, oversized }) {
  // Messages made once and sent in turn, so making them costs the flood next to nothing: 100 000
  // distinct samples, more than the limits let through; a message sent again holds duplicates.
  const start = Date.now() - 80 * 60_000;
  const bodies = Array.from({ length: 100 }, (_, m) =>
    Buffer.from(
      JSON.stringify(
        Array.from({ length: BATCH }, (_, k) => ({
          ts: start + m * BATCH + k,
          current: 12.5,
          temperature: 180,
          door_open: false,
          state: 'cooking',
        })),
      ),
    ),
  );
  let sent = 0;
  const nextBatch = () => bodies[sent++ % bodies.length];
  /** @type {Record<string, number>} */
  const http = {};
  const agent = new Agent({ keepAlive: true, maxSockets: HTTP_CONNECTIONS });
  const overHttp = Array.from({ length: HTTP_CONNECTIONS }, async () => {
    while (Date.now() < deadline) {
      const answer = await post(port, agent, flooder.credential, nextBatch());
      const key = answer.status === 429 ? `429 ${answer.reason}` : String(answer.status);
      http[key] = (http[key] ?? 0) + 1;
    }
  });
  const overMqtt = { acknowledged: 0, unacknowledged: 0, connections: 0, refusedConnections: 0 };
  const mqttFlood = (async () => {
    while (Date.now() < deadline) {
      let client;
      try {
        client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
          clientId: flooder.controllerId,
          username: flooder.controllerId,
          password: flooder.credential,
          protocolVersion: 5,
          reconnectPeriod: 0,
          connectTimeout: 5_000,
        });
      } catch {
        overMqtt.refusedConnections += 1;
        continue;
      }
      overMqtt.connections += 1;
      client.on('error', () => undefined);
      const closed = new Promise((resolve) => client.once('close', () => resolve('closed')));
      const topic = `kontrol/v1/${flooder.controllerId}/telemetry`;
      while (Date.now() < deadline && client.connected) {
        const outcome = await Promise.race([client.publishAsync(topic, nextBatch(), { qos: 1 }), closed]);
        if (outcome === 'closed') overMqtt.unacknowledged += 1;
        else overMqtt.acknowledged += 1;
      }
      await client.endAsync(true);
    }
  })();
  const huge = { attempts: 0, cut: 0 };
  const hugeMessages = (async () => {
    while (Date.now() < deadline) {
      const client = await mqtt
        .connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
          clientId: oversized.controllerId,
          username: oversized.controllerId,
          password: oversized.credential,
          protocolVersion: 4,
          reconnectPeriod: 0,
          connectTimeout: 5_000,
        })
        .catch(() => undefined);
      if (client) {
        client.on('error', () => undefined);
        huge.attempts += 1;
        const socket = client.stream;
        const closed = new Promise((resolve) => socket.once('close', () => resolve(true)));
        const topic = Buffer.from(`kontrol/v1/${oversized.controllerId}/telemetry`);
        // PUBLISH QoS 1 announcing 200 MB (remaining length 0x80 0x80 0x80 0x64), then its first megabyte.
        socket.write(
          Buffer.concat([
            Buffer.from([0x32, 0x80, 0x80, 0x80, 0x64, topic.length >> 8, topic.length & 0xff]),
            topic,
            Buffer.from([0x00, 0x01]),
          ]),
        );
        for (let sent = 0; sent < 1024 * 1024 && !socket.destroyed; sent += 64 * 1024)
          socket.write(Buffer.alloc(64 * 1024, 0x20));
        if (await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000, false))]))
          huge.cut += 1;
        client.end(true);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();
  await Promise.all([...overHttp, mqttFlood, hugeMessages]);
  agent.destroy();
  parentPort?.postMessage({ http, overMqtt, huge });
}

if (!isMainThread) {
  await runFlood(workerData);
} else {
  const env = machine();
  console.log(
    `device flood — ${env.date}, node ${env.node}, ${env.nproc} cores, ${env.cpu}, ${env.commit} (${env.changed})`,
  );
  buildIfNeeded();
  const mqttPort = await freePort();
  const metricsPort = await freePort();
  // BENCH_CPU_PROF=<dir>: the server runs under V8's profiler, its profile left in <dir>.
  const profileDir = process.env.BENCH_CPU_PROF;
  const server = await startServer({
    env: { MQTT_PORT: String(mqttPort), METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' },
    nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
  });
  try {
    const a = seedOrganisation(server, 'A', 4);
    const b = seedOrganisation(server, 'B', VICTIM_DEVICES);
    const adminA = await apiLogin(server.baseURL, a);
    const adminB = await apiLogin(server.baseURL, b);
    const [flooder, oversized] = await issueCredentials(server.baseURL, adminA, 2);
    const port = Number(new URL(server.baseURL).port);
    console.log(
      `seeded: A (${a.id}) floods with device ${flooder.id}; B (${b.id}) has ${VICTIM_DEVICES} devices`,
    );

    const hello = await helloWorldLatency(300);
    console.log(
      `hello-world, one request at a time: p50 ${fmt(hello.p50, 2)} ms, p99 ${fmt(hello.p99, 2)} ms`,
    );
    const quiet = await readDevices(
      server.baseURL,
      adminB.cookieHeader,
      Date.now() + QUIET_SECONDS * 1000,
      VICTIM_DEVICES,
    );
    console.log(
      `B's GET /api/devices/ before the flood: p50 ${fmt(quiet.p50, 2)} ms, p99 ${fmt(quiet.p99, 2)} ms`,
    );

    // The flood.
    const before = rssMb(server.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 50);
    const started = Date.now();
    const deadline = started + SECONDS * 1000;
    // The flood runs in a thread of its own, so its work never delays B's requests in this one.
    const flood = new Worker(new URL(import.meta.url), {
      workerData: { port, mqttPort, deadline, flooder, oversized },
    });
    const flooded = new Promise((resolve, reject) => {
      flood.once('message', resolve);
      flood.once('error', reject);
      setTimeout(
        () => reject(new Error('the flood did not end within 60 s of its deadline')),
        deadline + 60_000 - Date.now(),
      ).unref();
    });
    /** @type {Awaited<ReturnType<typeof readDevices>>} */
    let during;
    /** @type {FloodOutcome} */
    let outcome;
    try {
      during = await readDevices(server.baseURL, adminB.cookieHeader, deadline, VICTIM_DEVICES);
      outcome = /** @type {FloodOutcome} */ (await flooded);
    } finally {
      await flood.terminate();
    }
    const { http, overMqtt, huge } = outcome;
    const floodSeconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    const after = rssMb(server.pid);

    // What was stored, refused and told (the gateway writes its counts every 2 s).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const db = new Database(server.databaseUrl.slice('sqlite:'.length), { readonly: true });
    const stored = db
      .prepare('select count(*) as n from telemetry_samples where device_id = ?')
      .get(flooder.id).n;
    const told = db
      .prepare("select count(*) as n from notifications where organisation_id = ? and kind = 'device_limit'")
      .get(a.id).n;
    const day = db
      .prepare(
        'select refused, last_reason from device_ingest_days where device_id = ? order by day desc limit 1',
      )
      .get(flooder.id);
    db.close();
    const counted = await refusals(metricsPort);
    const allowed = LIMITS.burstSamples + LIMITS.samplesPerSecond * floodSeconds;
    const growth = peak - before;
    console.log(
      `flood: ${fmt(floodSeconds, 1)} s; HTTP ${JSON.stringify(http)}; MQTT ${JSON.stringify(overMqtt)}; ` +
        `200 MB messages ${huge.cut} of ${huge.attempts} cut; stored ${fmt(stored)} of at most ${fmt(allowed)}; ` +
        `memory ${fmt(before)} MB before, peak ${fmt(peak)} MB, ${fmt(after)} MB after; ` +
        `B's p99 ${fmt(during.p99, 2)} ms (${during.requests} requests, ${during.failures} failed); ` +
        `refusals ${JSON.stringify(counted)}; notifications to A ${told}`,
    );

    const memoryOk = growth <= TARGETS.memoryMb;
    const p99Ok = during.p99 < TARGETS.p99Ms && during.failures === 0;
    const storedOk = stored <= allowed;
    const verdict = (/** @type {boolean} */ ok) => (ok ? 'met' : '**MISSED**');
    const httpAnswers = Object.entries(http)
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([key, count]) => `${fmt(count)} × ${key}`)
      .join(', ');
    const section = [
      `Measured ${env.date} by \`node bench/device-flood.mjs\` at commit \`${env.commit}\` (apps/ and packages/ ${env.changed}).`,
      '',
      `Machine: Node.js ${env.node}, ${env.nproc} CPU cores (\`nproc\`), ${env.cpu}. Server and load generator share the machine.`,
      '',
      `The server on SQLite with the embedded broker and the default device limits (2 samples per second, 30 000 at once, 4 connections, 16 messages in flight, 150 000 a day). ` +
        `For ${fmt(floodSeconds, 1)} s, organisation A's device sent ${fmt(BATCH)}-sample messages as fast as it could over ${HTTP_CONNECTIONS} HTTP connections and over MQTT 5 (QoS 1, reconnecting at once when dropped), ` +
        `and A's second device announced a 200 MB MQTT message every second; organisation B's admin read \`GET /api/devices/\` (${fmt(VICTIM_DEVICES)} devices) one request at a time, before and during the flood.`,
      '',
      '| figure | measured | raw limit or reference, same run | target | verdict |',
      '|---|---:|---|---|---|',
      `| server memory (RSS) growth during the flood | **${fmt(growth)} MB** (${fmt(before)} MB before, peak ${fmt(peak)} MB, ${fmt(after)} MB after) | — | ≤ ${TARGETS.memoryMb} MB | ${verdict(memoryOk)} |`,
      `| B's \`GET /api/devices/\` during the flood, p99 | **${fmt(during.p99, 1)} ms** (p50 ${fmt(during.p50, 1)} ms, max ${fmt(during.max, 1)} ms, ${fmt(during.requests)} requests, ${during.failures} failed) | before the flood: p99 ${fmt(quiet.p99, 1)} ms (p50 ${fmt(quiet.p50, 1)} ms); bare hello-world: p99 ${fmt(hello.p99, 2)} ms | < ${TARGETS.p99Ms} ms, no failure | ${verdict(p99Ok)} |`,
      `| samples stored for the flooding credential | **${fmt(stored)}** | its limits over the flood: 30 000 + 2 × ${fmt(floodSeconds, 1)} s = ${fmt(allowed)} | ≤ the limits | ${verdict(storedOk)} |`,
      '',
      `Answers: HTTP ${httpAnswers}; MQTT ${fmt(overMqtt.acknowledged)} messages acknowledged, ${fmt(overMqtt.unacknowledged)} left unacknowledged (the connection dropped with 0x96), ` +
        `${fmt(overMqtt.connections)} connections, ${fmt(overMqtt.refusedConnections)} refused; ${huge.cut} of ${huge.attempts} announced 200 MB messages cut after their header. ` +
        `Refusals the server counted (\`kontrol_device_limit_refusals_total\`): ${Object.entries(counted)
          .map(([reason, count]) => `${reason} ${fmt(count)}`)
          .join(
            ', ',
          )}. The day's row of the flooding device: ${fmt(day?.refused ?? 0)} refusals, the last for \`${day?.last_reason ?? '—'}\`; ` +
        `organisation A received ${told} notification(s) of kind \`device_limit\` (one per device and day).`,
    ].join('\n');
    console.log(`\n${section}`);
    if (WRITE_DOCS)
      writeBenchmarkSection({
        name: 'device-flood',
        script: 'bench/device-flood.mjs',
        heading: 'Device flood',
        section,
      });
    writeResults('device-flood', {
      script: 'bench/device-flood.mjs',
      title: 'One device credential floods over HTTP and MQTT',
      env,
      docsWritten: WRITE_DOCS,
      settings: {
        seconds: SECONDS,
        victimDevices: VICTIM_DEVICES,
        batch: BATCH,
        httpConnections: HTTP_CONNECTIONS,
      },
      figures: [
        figure({
          name: 'server memory growth during a one-credential flood',
          value: growth,
          unit: 'MB',
          detail: `${fmt(before)} MB before, peak ${fmt(peak)} MB`,
          target: `≤ ${TARGETS.memoryMb} MB`,
          met: memoryOk,
          rawNote: `none applies (the server's own memory before the flood: ${fmt(before)} MB)`,
        }),
        figure({
          name: "another organisation's `GET /api/devices/` during the flood: p99",
          value: during.p99,
          unit: 'ms',
          detail: `before the flood p99 ${fmt(quiet.p99, 1)} ms; ${during.failures} failed of ${fmt(during.requests)}`,
          target: `p99 < ${TARGETS.p99Ms} ms, no failure`,
          met: p99Ok,
          raw: { name: 'bare Fastify hello-world, one request at a time: p99', value: hello.p99, unit: 'ms' },
        }),
        figure({
          name: 'samples stored for the flooding credential',
          value: stored,
          unit: 'samples',
          detail: `its limits allowed ${fmt(allowed)} over ${fmt(floodSeconds, 1)} s`,
          target: '≤ 30 000 + 2 per second',
          met: storedOk,
          rawNote: 'none applies (the bound is the device limits)',
        }),
      ],
    });
  } finally {
    await server.stop();
  }
}
