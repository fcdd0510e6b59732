// The soak's API clients (bench/soak.mjs) on an event loop of their own: a worker thread that sends
// the requests and times them, and hands each answer's record to the soak. In the soak's own
// thread the 200 MQTT devices (their publishes, PUBACKs and timers) would hold an answer that has
// arrived until the loop is free, and that wait, the load generator's and not the server's, would
// be counted in the API's p99.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';

/** @typedef {{ start: number, ms: number, ok: boolean, what: string, status: number }} ClientRecord */

/**
 * Runs the clients in a worker thread until `until` (epoch ms) and calls `done` with each
 * request's record, in batches as they come in. `reads`: 'console' (the console's reads of the
 * devices `deviceIds`, with `sessions`) or 'hello' (`GET /`, no cookies).
 * @param {{ baseURL: string, reads: 'console' | 'hello', deviceIds?: number[], sessions?: { cookieHeader: string, xsrf: string }[] | null, clients: number, perSecond: number, timeoutMs: number, until: number }} options
 * @param {(record: ClientRecord) => void} done
 * @returns {Promise<void>}
 */
export function runApiClients(options, done) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { soakClients: options } });
    let finished = false;
    worker.on('message', (/** @type {{ records: ClientRecord[], finished: boolean }} */ message) => {
      for (const record of message.records) done(record);
      // Its fetch keeps idle connections open for a while: end the thread now, not when they close.
      if (message.finished) {
        finished = true;
        void worker.terminate().then(() => resolve());
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (!finished) reject(new Error(`the API clients' worker stopped before the end (${code})`));
    });
  });
}

/**
 * The console's reads, in the proportions one console session makes them (20 slots: the lists and
 * counters it polls, the stat the dashboard refreshes, a device page's chart).
 * @param {number[]} deviceIds  the publishing devices, whose charts have data
 * @returns {((n: number) => { what: string, path: string })[]}
 */
export function consoleReads(deviceIds) {
  const chart = (/** @type {number} */ n) => {
    // A device page: its last 24 hours by the minute, up to the next whole minute.
    const now = Date.now();
    const finish = now - (now % 60_000) + 60_000;
    const id = deviceIds[(n * 7) % deviceIds.length];
    return {
      what: 'GET /api/telemetry/?devices=…&resolution=minute (24 h)',
      path: `/api/telemetry/?devices=${id}&start=${finish - 86_400_000}&finish=${finish}&metrics=current,temperature&resolution=minute`,
    };
  };
  const get = (/** @type {string} */ path) => () => ({ what: `GET ${path}`, path });
  const devices = get('/api/devices/?page=1');
  const stat = get('/api/devices/stat');
  const events = get('/api/devices/events?page=1');
  const notifications = get('/api/notifications?page=1&per_page=10');
  const unread = get('/api/notifications/unread');
  const auth = get('/api/users/auth');
  const support = get('/api/messages/unread');
  return [
    devices,
    stat,
    unread,
    chart,
    events,
    auth,
    devices,
    stat,
    notifications,
    chart,
    events,
    unread,
    devices,
    stat,
    support,
    chart,
    events,
    unread,
    notifications,
    auth,
  ];
}

/**
 * `rate.clients` clients, each sending its next request at its next slot (`rate.perSecond` a
 * second, one at a time: a slow answer delays the next), until `running()` is false.
 * @param {{ clients: number, perSecond: number, timeoutMs: number }} rate
 * @param {string} baseURL
 * @param {{ cookieHeader: string, xsrf: string }[] | null} sessions  null: no cookies (the hello-world)
 * @param {(n: number, client: number) => { what: string, path: string }} next
 * @param {(record: { start: number, ms: number, ok: boolean, what: string, status: number }) => void} done
 * @param {() => boolean} running
 */
async function apiClients(rate, baseURL, sessions, next, done, running) {
  const interval = 1000 / rate.perSecond;
  const origin = Date.now();
  await Promise.all(
    Array.from({ length: rate.clients }, async (_, client) => {
      const session = sessions?.[client];
      const headers = {
        accept: 'application/json',
        'accept-encoding': 'gzip, deflate, br',
        ...(session ? { cookie: session.cookieHeader, 'x-xsrf-token': session.xsrf } : {}),
      };
      // Spread over the first interval, so the clients do not all ask at the same moment.
      const offset = (client * interval) / rate.clients;
      for (let n = 0; running(); n += 1) {
        const due = origin + offset + n * interval;
        if (due > Date.now()) await sleep(due - Date.now());
        if (!running()) break;
        const { what, path } = next(n, client);
        const start = Date.now();
        const started = performance.now();
        let status = 0;
        try {
          const response = await fetch(`${baseURL}${path}`, {
            headers,
            signal: AbortSignal.timeout(rate.timeoutMs),
          });
          status = response.status;
          await response.arrayBuffer();
        } catch {
          // refused, reset or timed out: status 0
        }
        const ms = performance.now() - started;
        done({ start, ms, ok: status >= 200 && status < 300, what, status });
      }
    }),
  );
}

if (!isMainThread && workerData?.soakClients && parentPort) {
  const port = parentPort;
  const options = workerData.soakClients;
  const reads = options.reads === 'console' ? consoleReads(options.deviceIds) : null;
  /** @type {ClientRecord[]} */
  let batch = [];
  const flush = (finished = false) => {
    if (batch.length === 0 && !finished) return;
    port.postMessage({ records: batch, finished });
    batch = [];
  };
  const timer = setInterval(flush, 250);
  await apiClients(
    options,
    options.baseURL,
    options.sessions ?? null,
    reads
      ? (n, client) => reads[(n + client * 3) % reads.length](n + client)
      : () => ({ what: 'GET /', path: '/' }),
    (record) => batch.push(record),
    () => Date.now() < options.until,
  );
  clearInterval(timer);
  flush(true);
}
