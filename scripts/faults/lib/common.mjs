// What every fault scenario shares: PASS/FAIL lines and the exit code, HTTP calls that never hang,
// an organisation with devices and a signed-in admin, samples, and MQTT devices that remember what
// was acknowledged.
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import { issueCredentials } from '../../../test-support/devices.mjs';
import { apiLogin, runCli } from '../../../test-support/server.mjs';

/**
 * A scenario's checks: each prints `PASS <scenario>: <what>` or `FAIL …`, and `finish` exits 1 when
 * one failed. A scenario that throws (its setup failed) exits 2 through {@link runScenario}.
 * @param {string} name
 */
export function checks(name) {
  /** @type {string[]} */
  const failed = [];
  const started = Date.now();
  return {
    name,
    failed,
    /**
     * @param {string} what what holds when it passes
     * @param {boolean} ok
     * @param {string} [detail] figures shown either way
     */
    check(what, ok, detail) {
      console.log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${what}${detail ? ` — ${detail}` : ''}`);
      if (!ok) failed.push(what);
      return ok;
    },
    /** @param {string} line */
    note(line) {
      console.log(`     ${name}: ${line}`);
    },
    finish() {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (failed.length > 0) {
        console.log(`FAIL ${name}: ${failed.length} check(s) failed (${seconds} s)`);
        process.exitCode = process.exitCode || 1;
      } else {
        console.log(`PASS ${name}: all checks passed (${seconds} s)`);
      }
    },
  };
}

/**
 * Runs a scenario's body with its cleanup; an exception (a setup that failed, not a check) is
 * printed as a FAIL line and exits 2, and so does a scenario that runs past its time limit or is
 * interrupted. Cleanup (servers, clusters, brokers, mounts) runs in every case, once, and a failing
 * cleanup fails the scenario too.
 * @param {ReturnType<typeof checks>} t
 * @param {() => Promise<void>} body
 * @param {(() => Promise<void> | void)[]} cleanups run in reverse order of registration
 */
export async function runScenario(t, body, cleanups) {
  /** @type {Promise<void> | undefined} */
  let cleaning;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const cleanup of [...cleanups].reverse()) {
        try {
          await cleanup();
        } catch (error) {
          t.check('cleanup', false, String(error));
        }
      }
    })());
  const abandon = async (/** @type {string} */ why) => {
    t.check('the scenario ran to its end', false, why);
    await cleanUp();
    t.finish();
    process.exit(2);
  };
  const watchdog = setTimeout(
    () => void abandon(`still running after ${SCENARIO_TIMEOUT_MS / 1000} s`),
    SCENARIO_TIMEOUT_MS,
  );
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
    process.once(signal, () => void abandon(signal));
  // Whatever goes wrong, the servers, clusters, brokers and mounts started here are stopped.
  process.once('uncaughtException', (error) => void abandon(`uncaught: ${error.stack ?? String(error)}`));
  process.once('unhandledRejection', (error) => void abandon(`unhandled rejection: ${String(error)}`));
  // Output piped into a reader that went away (| head) must not end the scenario before its cleanup.
  process.stdout.on('error', () => undefined);
  try {
    await body();
  } catch (error) {
    t.check('the scenario ran to its end', false, /** @type {Error} */ (error).stack ?? String(error));
    process.exitCode = 2;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
    t.finish();
  }
  // Everything this scenario started is stopped; what is left is timers such as stopProcess's
  // 15-second SIGKILL grace (test-support/server.mjs), which would keep Node waiting for nothing.
  process.exit();
}

const SCENARIO_TIMEOUT_MS = 120_000;

/**
 * @typedef {object} Answer
 * @property {number} status  0 when there was no answer (refused, reset, timed out)
 * @property {any} body       parsed JSON, or the text
 * @property {Headers | undefined} headers
 * @property {number} ms      how long it took
 * @property {string} [error] why there was no answer
 */

/**
 * An HTTP call that gives up after `timeoutMs` (a hang is a failure, not a stuck suite).
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: unknown, timeoutMs?: number }} [options]
 * @returns {Promise<Answer>}
 */
export async function call(url, { method = 'GET', headers = {}, body, timeoutMs = 10_000 } = {}) {
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, body: parsed, headers: response.headers, ms: Date.now() - started };
  } catch (error) {
    const failure = /** @type {Error & { cause?: { code?: string } }} */ (error);
    return {
      status: 0,
      body: undefined,
      headers: undefined,
      ms: Date.now() - started,
      error: failure.cause?.code ?? failure.name,
    };
  }
}

/** A short description of an answer for a check's detail. */
export function describe(/** @type {Answer} */ answer) {
  if (answer.status === 0) return `no answer (${answer.error}) after ${answer.ms} ms`;
  const body = typeof answer.body === 'string' ? answer.body.slice(0, 160) : JSON.stringify(answer.body);
  return `${answer.status} ${body?.slice(0, 200)} in ${answer.ms} ms`;
}

/**
 * An error answer a person can read: JSON `{message}` with a non-empty message, no stack trace.
 * @param {Answer} answer
 */
export function isClearError(answer) {
  const json = (answer.headers?.get('content-type') ?? '').startsWith('application/json');
  const message = answer.body && typeof answer.body === 'object' ? answer.body.message : undefined;
  return (
    json &&
    typeof message === 'string' &&
    message.length > 10 &&
    !/\bat .+:\d+:\d+/.test(JSON.stringify(answer.body)) && // no stack frames
    !('stack' in answer.body)
  );
}

/**
 * @typedef {object} Fleet
 * @property {number} organisationId
 * @property {{ cookieHeader: string, xsrf: string }} admin  the organisation admin's session
 * @property {{ id: number, controllerId: string, credential: string, typeId: number }[]} devices
 * @property {(path: string, options?: { method?: string, body?: unknown, locale?: string, timeoutMs?: number }) => Promise<Answer>} api
 *   a signed-in call to the API (session cookie, CSRF token, `Accept-Language`)
 * @property {(baseURL: string) => Fleet['api']} apiAt  the same session against another server on
 *   the same database (a session is a row)
 */

/**
 * One organisation through the operator CLI (`org:create`, `seed:fleet`), its admin signed in and
 * `devices` of its devices given credentials through the API (as the console does).
 * @param {{ baseURL: string, databaseUrl: string }} server
 * @param {number} devices
 * @returns {Promise<Fleet>}
 */
export async function seedOrganisation(server, devices) {
  const login = { email: 'faults@kontrol.test', password: 'kontrol-faults-1234' };
  const created = runCli(
    ['org:create', '--name', 'Faults', '--admin-email', login.email, '--password', login.password],
    server,
  );
  const organisationId = Number(/^Organisation (\d+) created/m.exec(created)?.[1]);
  if (!organisationId) throw new Error(`org:create said: ${created}`);
  runCli(['seed:fleet', '--org', String(organisationId), '--devices', String(Math.max(devices, 4))], server);
  const admin = await apiLogin(server.baseURL, login);
  /** @type {Fleet['apiAt']} */
  const apiAt =
    (baseURL) =>
    (path, { method = 'GET', body, locale = 'ru', timeoutMs } = {}) =>
      call(`${baseURL}${path}`, {
        method,
        body,
        timeoutMs,
        headers: { cookie: admin.cookieHeader, 'x-xsrf-token': admin.xsrf, 'accept-language': locale },
      });
  return {
    organisationId,
    admin,
    devices: await issueCredentials(server.baseURL, admin, devices),
    api: apiAt(server.baseURL),
    apiAt,
  };
}

/** How long a request may take while a fault lasts before it counts as a hang. */
export const ANSWER_WITHIN_MS = 5_000;
/** A message in Russian (the API answers in the reader's language). */
export const CYRILLIC = /[а-яё]/i;

/** Samples start an hour ago, a millisecond apart per device: all new, valid and in the past. */
export const SAMPLES_FROM = Date.now() - 60 * 60_000;

/**
 * `count` samples from `first` (a running number per device; the sample's ts is SAMPLES_FROM + n).
 * @param {number} first
 * @param {number} count
 */
export function samples(first, count) {
  return Array.from({ length: count }, (_, k) => ({
    ts: SAMPLES_FROM + first + k,
    current: 3,
    temperature: 80,
    door_open: false,
    state: 'heating',
  }));
}

/**
 * The HTTP ingest: one message of a device.
 * @param {string} baseURL
 * @param {{ credential: string }} device
 * @param {unknown[]} batch
 * @param {number} [timeoutMs]
 */
export function sendHttp(baseURL, device, batch, timeoutMs = 10_000) {
  return call(`${baseURL}/api/ingest/v1/telemetry`, {
    method: 'POST',
    headers: { authorization: `Bearer ${device.credential}` },
    body: batch,
    timeoutMs,
  });
}

/**
 * A device over HTTP that remembers which of its samples were acknowledged (202).
 * @param {string} baseURL
 * @param {{ credential: string }} device
 */
export function httpDevice(baseURL, device) {
  /** @type {Set<number>} */
  const acknowledged = new Set();
  let next = 0;
  let target = baseURL;
  /** @param {{ ts: number }[]} batch @param {number} [timeoutMs] */
  const send = async (batch, timeoutMs = 10_000) => {
    const answer = await sendHttp(target, device, batch, timeoutMs);
    if (answer.status === 202) for (const s of batch) acknowledged.add(s.ts);
    return { answer, batch };
  };
  return {
    acknowledged,
    /**
     * Sends the next `count` samples (continuing the device's running number).
     * @param {number} count
     * @param {number} [timeoutMs]
     */
    sendNext(count, timeoutMs) {
      const batch = samples(next, count);
      next += count;
      return send(batch, timeoutMs);
    },
    /** Sends a batch again (after a refusal, as a device does). */
    resend: send,
    /** From now on, talk to another server (Kontrol restarted on another port). */
    moveTo(/** @type {string} */ url) {
      target = url;
    },
  };
}

/**
 * A device over MQTT (QoS 1) that remembers, per sample time, when its message was acknowledged.
 * It reconnects by itself (mqtt.js keeps unacknowledged messages and sends them again).
 * @param {string} url         `mqtt://127.0.0.1:<port>`
 * @param {{ controllerId: string, credential: string }} device
 * @param {{ protocolVersion?: 4 | 5, clean?: boolean, reconnectPeriod?: number, from?: number }} [options]
 *   `from`: the running number of its first sample (a device that sent before, on another connection)
 */
export async function mqttDevice(
  url,
  device,
  { protocolVersion = 4, clean = false, reconnectPeriod = 500, from = 0 } = {},
) {
  const client = await mqtt.connectAsync(url, {
    clientId: device.controllerId,
    username: device.controllerId,
    password: device.credential,
    protocolVersion,
    clean,
    ...(protocolVersion === 5 && !clean ? { properties: { sessionExpiryInterval: 3600 } } : {}),
    reconnectPeriod,
    // A CONNACK "server unavailable" (the database is down) is a reason to try again, as devices do.
    reconnectOnConnackError: true,
    connectTimeout: 5_000,
  });
  client.on('error', () => undefined); // refused reconnects while a fault lasts: expected
  /** @type {Map<number, number>} sample ts → when its message was acknowledged */
  const acknowledged = new Map();
  /** @type {Set<number>} every sample ts published */
  const published = new Set();
  let next = from;
  const topic = `kontrol/v1/${device.controllerId}/telemetry`;
  return {
    client,
    acknowledged,
    published,
    /**
     * Publishes the next `count` samples (continuing the device's running number) without waiting
     * for the acknowledgement; resolves when it comes (mqtt.js may send it again meanwhile).
     * @param {number} count
     */
    publish(count) {
      const batch = samples(next, count);
      next += count;
      for (const s of batch) published.add(s.ts);
      return client.publishAsync(topic, JSON.stringify(batch), { qos: 1 }).then(
        () => {
          const now = Date.now();
          for (const s of batch) acknowledged.set(s.ts, now);
          return true;
        },
        () => false,
      );
    },
    /** The running number the next sample gets. */
    get next() {
      return next;
    },
    end: () => client.endAsync(true).catch(() => undefined),
  };
}

/**
 * Polls `probe` until it answers true or `timeoutMs` passes; answers whether it did.
 * @param {() => Promise<boolean> | boolean} probe
 * @param {number} timeoutMs
 * @param {number} [everyMs]
 */
export async function waitFor(probe, timeoutMs, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/**
 * What `promise` resolves to, or `fallback` when it takes longer than `ms`.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {T} fallback
 * @returns {Promise<T>}
 */
export function within(promise, ms, fallback) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, late])).finally(() => clearTimeout(timer));
}

/** Whether the process `pid` is alive. */
export function alive(/** @type {number} */ pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
