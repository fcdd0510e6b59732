import { LIVE_PATH, liveSamplesEventSchema, type TelemetrySampleInput } from '@kontrol/contracts';
import { connect as connectSocket, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { connectLive } from '../../test/live-client.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * docs/live-updates.md "Reconnects": a reader that stops reading is cut off, and it cannot take
 * the server down. One user opens a stream of 50 devices' samples on a socket that never reads,
 * while the 50 devices send 100 samples a second each over HTTP; another user's stream of the same
 * devices reads normally. For two minutes (`LIVE_STALL_TEST_SECONDS`): the server stays up and
 * ready, destroys the stalled socket within 30 s of its unsent data passing the limit, and the
 * reading stream keeps getting every device's samples.
 */

const DURATION_MS = Number(process.env.LIVE_STALL_TEST_SECONDS ?? 120) * 1000;
const DEVICES = 50;
const SAMPLES_PER_SECOND = 100;
/** The hub's limit of unsent bytes per stream (live.hub.ts). */
const LIMIT_BYTES = 1 << 20;

const t = useTestApp();
let origin = '';
let port = 0;
const reading = new AbortController();
let stalled: Socket | undefined;

beforeAll(async () => {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  reading.abort();
  stalled?.destroy();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signedIn(email: string, password: string) {
  const client = new TestClient(t.app);
  await client.login(email, password);
  return client;
}

/** `GET /api/live` written on a raw socket that is never read from after the request is sent. */
function openStalled(client: TestClient, query: string): Promise<Socket> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return new Promise((resolve, reject) => {
    const socket = connectSocket(port, '127.0.0.1', () => {
      socket.pause();
      socket.write(`GET ${LIVE_PATH}${query} HTTP/1.1\r\nHost: kontrol.test\r\nCookie: ${cookie}\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

it(
  'a reader that never reads is cut off within 30 s of passing the limit; the server and the other streams go on',
  async () => {
    const org = await buildOrganisation(t.db);
    const devices = [];
    for (let n = 0; n < DEVICES; n += 1) devices.push(await buildSmartDevice(t.db, org.organisationId));
    const query = `?devices=${devices.map((device) => device.id).join(',')}`;
    const staller = await buildUser(t.db, org.organisationId, { modules: ['telemetry'] });
    const reader = await buildUser(t.db, org.organisationId, { modules: ['telemetry'] });

    const stream = await connectLive(origin, reading, await signedIn(reader.email, reader.password), query);
    expect(stream.status).toBe(200);
    stalled = await openStalled(await signedIn(staller.email, staller.password), query);

    // What the reading stream got: the newest sample time per device.
    const newestSeen = new Map<number, number>();
    const takeEvents = () => {
      for (const event of stream.events.splice(0)) {
        if (event.event !== 'samples') continue;
        for (const series of liveSamplesEventSchema.parse(event.data).data) {
          const last = series.t.at(-1);
          if (last !== undefined)
            newestSeen.set(series.device_id, Math.max(newestSeen.get(series.device_id) ?? 0, last));
        }
      }
    };

    // The stalled stream as the server sees it: when its unsent data passed the limit, when it went.
    let passedLimitAt: number | undefined;
    let goneAt: number | undefined;
    const watch = setInterval(() => {
      const own = t.app.live.streams().find((each) => each.userId === staller.id);
      if (own && own.bufferedBytes > LIMIT_BYTES) passedLimitAt ??= Date.now();
      if (!own && goneAt === undefined && passedLimitAt !== undefined) goneAt = Date.now();
    }, 100);

    const started = Date.now();
    let clock = started - 60_000;
    const newestSent = new Map<number, number>();
    let readyChecks = 0;
    try {
      while (Date.now() - started < DURATION_MS) {
        const second = Date.now();
        const samples = (ts: number): TelemetrySampleInput[] =>
          Array.from({ length: SAMPLES_PER_SECOND }, (_, n) => ({
            ts: ts + n * 10,
            current: 10 + (n % 7),
            temperature: 180 + (n % 5),
            door_open: false,
            state: 'cooking',
          }));
        const batch = samples(clock);
        clock += 1_000;
        const answers = await Promise.all(
          devices.map((device) =>
            fetch(`${origin}/api/ingest/v1/telemetry`, {
              method: 'POST',
              headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
              body: JSON.stringify(batch),
            }),
          ),
        );
        for (const [n, answer] of answers.entries()) {
          expect(answer.status).toBe(202);
          await answer.body?.cancel();
          newestSent.set(devices[n]!.id, Number(batch.at(-1)!.ts));
        }
        if (readyChecks % 5 === 0) expect((await fetch(`${origin}/readyz`)).status).toBe(200);
        readyChecks += 1;
        takeEvents();
        await sleep(Math.max(0, 1_000 - (Date.now() - second)));
      }
      // The reading stream catches up with what was sent last.
      const deadline = Date.now() + 15_000;
      for (;;) {
        takeEvents();
        const behind = devices.filter(
          (device) => (newestSeen.get(device.id) ?? 0) < newestSent.get(device.id)!,
        );
        if (behind.length === 0) break;
        if (Date.now() > deadline)
          throw new Error(`no recent samples of ${behind.length} devices on the reading stream`);
        await sleep(200);
      }
    } finally {
      clearInterval(watch);
    }

    expect(passedLimitAt, 'the stalled stream never passed the limit: the test proved nothing').toBeDefined();
    expect(goneAt, 'the server kept the stalled stream').toBeDefined();
    expect(goneAt! - passedLimitAt!).toBeLessThan(30_000);
    expect(stream.endedAt).toBeUndefined();
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);

    // The client side of the stalled socket sees the server's close once it reads again.
    const closed = new Promise<void>((resolve) => stalled!.once('close', () => resolve()));
    stalled.on('data', () => undefined);
    stalled.resume();
    await closed;
  },
  DURATION_MS + 120_000,
);
