import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  DEFAULT_DEVICE_LIMITS,
  MAX_MESSAGE_BYTES,
  type DeviceLimits,
  type Notification,
  type TelemetrySampleInput,
} from '@kontrol/contracts';
import { DeviceLimiter, UsageRecorder } from '@kontrol/gateway';
import { backfill } from '@kontrol/simulator';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp, type TestContext } from '../../test/test-app.js';

/**
 * The device limits (docs/device-protocol.md, "Limits") through the real doors: a flood from one
 * credential over 8 HTTP connections and over MQTT at once stores no more than the limits allow,
 * gets 429 with Retry-After (HTTP) or no PUBACK (MQTT), while another organisation's device is
 * served; the organisation is told once a day, whatever restarts; the simulator's backfill and an
 * hour of buffered MQTT messages pass under the default limits.
 */

const MINUTE = 60_000;
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});

const sample = (ts: number): TelemetrySampleInput => ({
  ts,
  current: 12.5,
  temperature: 180,
  door_open: false,
  state: 'cooking',
});

/** `count` samples one second apart from `start`. */
const samples = (start: number, count: number) =>
  Array.from({ length: count }, (_, k) => sample(start + k * 1000));

async function listen(t: TestContext) {
  if (!t.app.server.listening) await t.app.listen({ host: '127.0.0.1', port: 0 });
  return (t.app.server.address() as AddressInfo).port;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { message?: string; reason?: string; data?: { accepted: number } };
}

/**
 * A real HTTP request to the ingest, through `agent` (its sockets are the "connections"). With
 * `trickleMs`, the body goes in two halves that far apart, as over a slow link.
 */
function post(
  port: number,
  agent: Agent,
  credential: string,
  body: unknown,
  headers: Record<string, string> = {},
  trickleMs = 0,
) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise<Answer>((resolve, reject) => {
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
          'content-length': payload.length,
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            body: text ? (JSON.parse(text) as Answer['body']) : {},
          });
        });
      },
    );
    req.on('error', reject);
    if (trickleMs === 0) return req.end(payload);
    req.write(payload.subarray(0, payload.length >> 1));
    setTimeout(() => req.end(payload.subarray(payload.length >> 1)), trickleMs);
  });
}

async function storedCount(t: TestContext, deviceId: number) {
  const row = await t.db
    .selectFrom('telemetry_samples')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function limitNotifications(t: TestContext, organisationId: number) {
  return t.db
    .selectFrom('notifications')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('kind', '=', 'device_limit')
    .execute();
}

async function connectDevice(
  port: number,
  device: { controllerId: string; credential: string },
  version: 4 | 5,
) {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    clientId: device.controllerId,
    username: device.controllerId,
    password: device.credential,
    protocolVersion: version,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
  });
  clients.push(client);
  return client;
}

describe('a flood from one credential, over HTTP and MQTT', () => {
  const LIMITS = { rate: 100, burst: 2_000, connections: 4 };
  const t = useTestApp({
    runsMqtt: true,
    env: {
      DEVICE_SAMPLES_PER_SECOND: String(LIMITS.rate),
      DEVICE_SAMPLES_BURST: String(LIMITS.burst),
      DEVICE_MAX_CONNECTIONS: String(LIMITS.connections),
      DEVICE_MAX_IN_FLIGHT: '16',
      DEVICE_SAMPLES_PER_DAY: '1000000',
    },
  });
  let port = 0;
  beforeAll(async () => {
    port = await listen(t);
  });

  it('stores no more than the limits allow, answers 429 with Retry-After and drops the connection without PUBACK, while another organisation is served', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const other = await buildOrganisation(t.db);
    const neighbour = await buildSmartDevice(t.db, other.organisationId);
    const brokerPort = t.gateway.broker?.port ?? 0;
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const answers: Answer[] = [];
    const mqttOutcomes = { acknowledged: 0, dropped: 0, refusedConnects: 0, reasonCodes: new Set<number>() };
    // One millisecond apart: however many messages the flood makes, none is in the future.
    let clock = Date.now() - 80 * MINUTE;
    const nextBatch = (count: number) => {
      const batch = Array.from({ length: count }, (_, k) => sample(clock + k));
      clock += count;
      return batch;
    };

    const started = Date.now();
    const deadline = started + 2_500;
    const http = Array.from({ length: 8 }, async () => {
      while (Date.now() < deadline)
        answers.push(await post(port, agent, device.credential, nextBatch(200), {}, 20));
    });
    const overMqtt = (async () => {
      while (Date.now() < deadline) {
        let client: MqttClient;
        try {
          client = await connectDevice(brokerPort, device, 5);
        } catch (error) {
          // HTTP requests hold every connection the credential may have: "server unavailable" (0x88).
          expect(error).toMatchObject({ code: 0x88 });
          mqttOutcomes.refusedConnects += 1;
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        client.on('packetreceive', (packet) => {
          if (packet.cmd === 'disconnect') mqttOutcomes.reasonCodes.add(packet.reasonCode ?? 0);
        });
        // mqtt.js keeps an unacknowledged message for the next connection: a close ends the wait.
        const closed = new Promise<'closed'>((resolve) => client.once('close', () => resolve('closed')));
        while (Date.now() < deadline && client.connected) {
          const message = JSON.stringify(nextBatch(200));
          const topic = `kontrol/v1/${device.controllerId}/telemetry`;
          const outcome = await Promise.race([client.publishAsync(topic, message, { qos: 1 }), closed]);
          if (outcome === 'closed') mqttOutcomes.dropped += 1;
          else mqttOutcomes.acknowledged += 1;
        }
        await client.endAsync(true);
      }
    })();
    // Meanwhile another organisation's device sends as usual.
    const neighbourAnswer = post(
      port,
      new Agent(),
      neighbour.credential,
      samples(Date.now() - 10 * MINUTE, 10),
    );
    await Promise.all([...http, overMqtt]);
    const elapsedS = (Date.now() - started) / 1000;
    agent.destroy();

    const stored = await storedCount(t, device.id);
    expect(stored).toBeGreaterThanOrEqual(LIMITS.burst);
    expect(stored).toBeLessThanOrEqual(LIMITS.burst + LIMITS.rate * elapsedS);
    expect((await neighbourAnswer).status).toBe(202);
    expect(await storedCount(t, neighbour.id)).toBe(10);

    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.every((answer) => answer.status === 202 || answer.status === 429)).toBe(true);
    expect(new Set(refused.map((answer) => answer.body.reason))).toEqual(new Set(['connections', 'rate']));
    for (const answer of refused) expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.find((answer) => answer.body.reason === 'rate')?.body.message).toMatch(
      /^The device sends more than 100 samples per second on average \(at most 2 000 at once\)\. Try again in \d+ s\.$/,
    );
    expect(refused.find((answer) => answer.body.reason === 'connections')?.body.message).toBe(
      'Too many connections with this device credential at once (at most 4). Try again in 1 s.',
    );
    // Over MQTT, a message over the rate is not acknowledged: DISCONNECT 0x96, "message rate too high".
    expect(mqttOutcomes.dropped).toBeGreaterThanOrEqual(1);
    expect(mqttOutcomes.reasonCodes).toContain(0x96);
    expect(t.gateway.stats.limited.rate).toBeGreaterThanOrEqual(refused.length > 0 ? 1 : 0);
    expect(t.gateway.stats.limited.connections).toBeGreaterThanOrEqual(1);

    // The organisation is told once, in its admin's language, and the device's limits page shows it.
    // Everything: samples taken after the last refusal are not due yet (device-limiter.ts, dueDeltas).
    await t.gateway.usage.flush(true);
    const told = await limitNotifications(t, org.organisationId);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      user_id: org.admin.id,
      device_id: device.id,
      severity: 'warning',
      title: 'The device sends more than its limit',
    });
    expect(told[0]?.body).toMatch(
      /: more than (100 samples per second|4 connections at once)\. Messages over the limit/,
    );
    expect(await limitNotifications(t, other.organisationId)).toEqual([]);

    const admin = new TestClient(t.app);
    await admin.login(org.admin.email, org.admin.password);
    const page = await admin.get(`/api/devices/${device.id}/limits`);
    expect(page.statusCode).toBe(200);
    const { data } = page.json<{ data: DeviceLimits }>();
    expect(data.limits).toEqual({
      connections: 4,
      in_flight: 16,
      samples_per_second: 100,
      burst_samples: 2_000,
      samples_per_day: 1_000_000,
    });
    expect(data.days).toHaveLength(1);
    expect(data.days[0]?.refused).toBeGreaterThanOrEqual(refused.length);
    expect(data.days[0]?.samples).toBe(stored);
    expect(['rate', 'connections']).toContain(data.days[0]?.last_reason);
    // Another organisation's device is not found.
    expect((await admin.get(`/api/devices/${neighbour.id}/limits`)).statusCode).toBe(404);
    const notified = await admin.get('/api/notifications?page=1');
    expect(notified.json<{ data: Notification[] }>().data.map((n) => n.kind)).toContain('device_limit');
  });

  it('tells the organisation once per device and day, across processes and restarts', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const agent = new Agent({ keepAlive: true });
    const flood = async () => {
      let answer: Answer;
      do answer = await post(port, agent, device.credential, samples(Date.now() - 70 * MINUTE, 1_000));
      while (answer.status === 202);
      expect(answer.status).toBe(429);
    };
    await flood();
    await t.gateway.usage.flush();
    expect(await limitNotifications(t, org.organisationId)).toHaveLength(1);
    // Delivered as any notification is: e-mailed, with a link to the device's connection tab.
    await t.app.notifier.dispatch();
    const mails = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', org.admin.email)
      .execute();
    // The subject is fixed words (docs/security.md, "Invitations and names"); the text names it.
    expect(mails.map((mail) => mail.subject)).toEqual(['Kontrol: new notification (Warning)']);
    expect(mails[0]?.text_body).toContain('The device sends more than its limit');
    expect(mails[0]?.text_body).toContain(`/account/devices/${device.id}?tab=connection`);
    await flood();
    await t.gateway.usage.flush();

    // Another process (or this one after a restart): its own limiter, the same database.
    const restarted = new DeviceLimiter(t.gateway.limiter.settings);
    const recorder = new UsageRecorder({ db: t.db, limiter: restarted, log: t.app.log, everyMs: 0 });
    const gatewayDevice = await t.gateway.directory.byCredential(device.credential);
    if (!gatewayDevice) throw new Error('the device is not found by its credential');
    restarted.take(gatewayDevice, 2_000);
    expect(() => restarted.take(gatewayDevice, 1_000)).toThrow(/rate/);
    await recorder.close();

    expect(await limitNotifications(t, org.organisationId)).toHaveLength(1);
    const day = await t.db
      .selectFrom('device_ingest_days')
      .selectAll()
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(Number(day.refused)).toBeGreaterThanOrEqual(3);
    expect(day.notified_at).not.toBeNull();
    agent.destroy();
  });

  it('drops a QoS 0 message over the rate and keeps the connection; a QoS 1 one gets no PUBACK (MQTT 3.1.1: the connection closes)', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const brokerPort = t.gateway.broker?.port ?? 0;
    const topic = `kontrol/v1/${device.controllerId}/telemetry`;
    const client = await connectDevice(brokerPort, device, 4);
    await client.publishAsync(topic, JSON.stringify(samples(Date.now() - 60 * MINUTE, 2_000)), { qos: 1 });
    expect(await storedCount(t, device.id)).toBe(2_000);

    const rateRefusals = t.gateway.stats.limited.rate;
    await client.publishAsync(topic, JSON.stringify(samples(Date.now() - 20 * MINUTE, 1_000)), { qos: 0 });
    // A QoS 1 message after it is answered in order: by then the QoS 0 one was dealt with.
    const closed = new Promise<string>((resolve) => client.once('close', () => resolve('closed')));
    let acknowledged = false;
    client.publish(topic, JSON.stringify(samples(Date.now() - 10 * MINUTE, 1_000)), { qos: 1 }, (error) => {
      acknowledged = !error;
    });
    expect(await closed).toBe('closed');
    expect(acknowledged).toBe(false);
    expect(t.gateway.stats.limited.rate).toBe(rateRefusals + 2);
    expect(await storedCount(t, device.id)).toBe(2_000);
  });
});

describe('the daily limit', () => {
  const t = useTestApp({
    env: {
      DEVICE_SAMPLES_PER_SECOND: '100000',
      DEVICE_SAMPLES_BURST: '10000',
      DEVICE_SAMPLES_PER_DAY: '3000',
    },
  });

  it('refuses past the day until the next UTC midnight, in the language asked for', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const port = await listen(t);
    const agent = new Agent({ keepAlive: true });
    const start = Date.now() - 80 * MINUTE;
    expect((await post(port, agent, device.credential, samples(start, 2_500))).status).toBe(202);
    const over = await post(port, agent, device.credential, samples(start + 2_500_000, 600));
    expect(over.status).toBe(429);
    expect(over.body.reason).toBe('day');
    const now = Date.now();
    const midnight = Math.ceil(now / 86_400_000) * 86_400_000;
    expect(Math.abs(Number(over.retryAfter) - (midnight - now) / 1000)).toBeLessThan(5);
    expect(over.body.message).toBe(
      `The device has sent its 3 000 samples for the day (UTC), its daily limit. Try again in ${over.retryAfter} s.`,
    );
    const russian = await post(port, agent, device.credential, samples(start + 2_500_000, 600), {
      'accept-language': 'ru-RU,ru;q=0.9',
    });
    expect(russian.body.message).toMatch(/^Устройство уже отправило 3 000 показаний за сутки \(UTC\)/);
    // What still fits in the day is taken.
    expect((await post(port, agent, device.credential, samples(start + 2_500_000, 500))).status).toBe(202);
    expect(await storedCount(t, device.id)).toBe(3_000);
    agent.destroy();
  });
});

describe('the size of an HTTP message', () => {
  const t = useTestApp();

  it('refuses a body over 4 MB with 413, storing nothing, and frees the device for its next message', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const port = await listen(t);
    const agent = new Agent({ keepAlive: true });
    const start = Date.now() - 60 * MINUTE;
    // 10 000 samples carrying a field of 400 characters (unknown fields are ignored): about 5.7 MB.
    const big = Array.from({ length: 10_000 }, (_, k) => ({ ...sample(start + k), note: 'n'.repeat(400) }));
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_MESSAGE_BYTES);
    const answers = await Promise.all(
      Array.from({ length: DEFAULT_DEVICE_LIMITS.maxConnections }, () =>
        post(port, agent, device.credential, big),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 413));
    expect(await storedCount(t, device.id)).toBe(0);
    // Each refused body gave its connection back.
    expect((await post(port, agent, device.credential, samples(start, 10))).status).toBe(202);
    agent.destroy();
  });
});

describe('under the default limits', () => {
  const t = useTestApp({ runsMqtt: true });

  it("takes the simulator's 14-day backfill whole, with no refusal and no retry", async () => {
    const org = await buildOrganisation(t.db);
    const devices = [
      await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'combi_oven' }),
      await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'refrigerator' }),
    ];
    const port = await listen(t);
    const result = await backfill({
      devices: devices.map((device, index) => ({
        controllerId: device.controllerId,
        credential: device.credential,
        type: index === 0 ? 'combi_oven' : 'refrigerator',
      })),
      httpUrl: `http://127.0.0.1:${port}`,
      days: 14,
    });
    // 14 days of one sample a minute per device (less its offline spells), 4 requests of 5 000 at a time.
    expect(result.samples).toBeGreaterThan(2 * 14 * 1440 * 0.9);
    expect(result.samples).toBeLessThanOrEqual(2 * 14 * 1440);
    expect(result).toMatchObject({ accepted: result.samples, rejected: 0, retries: 0, unauthorized: [] });
    expect(Object.values(t.gateway.stats.limited).every((count) => count === 0)).toBe(true);
    expect(14 * 1440).toBeLessThanOrEqual(DEFAULT_DEVICE_LIMITS.burstSamples);
  });

  it('takes an hour of one-second samples buffered offline, sent over MQTT all at once as one message each', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await connectDevice(t.gateway.broker?.port ?? 0, device, 4);
    const start = Date.now() - 62 * MINUTE;
    await Promise.all(
      samples(start, 3_600).map((one) =>
        client.publishAsync(`kontrol/v1/${device.controllerId}/telemetry`, JSON.stringify(one), { qos: 1 }),
      ),
    );
    expect(await storedCount(t, device.id)).toBe(3_600);
    expect(client.connected).toBe(true);
    expect(t.gateway.stats.limited.rate + t.gateway.stats.limited.day).toBe(0);
  });
});

describe('the size of an MQTT packet', () => {
  const t = useTestApp({ runsMqtt: true });

  /** MQTT's variable-length integer (the "remaining length" of a fixed header). */
  function remainingLength(value: number) {
    const bytes = [];
    do {
      let byte = value % 128;
      value = Math.floor(value / 128);
      if (value > 0) byte |= 0x80;
      bytes.push(byte);
    } while (value > 0);
    return Buffer.from(bytes);
  }

  it.each([4, 5] as const)(
    'cuts a device announcing a 200 MB message (MQTT %s) once it has read the header, not the body',
    async (version) => {
      const org = await buildOrganisation(t.db);
      const device = await buildSmartDevice(t.db, org.organisationId);
      const client = await connectDevice(t.gateway.broker?.port ?? 0, device, version);
      const reasonCodes: number[] = [];
      client.on('packetreceive', (packet) => {
        if (packet.cmd === 'disconnect') reasonCodes.push(packet.reasonCode ?? 0);
      });
      const before = t.gateway.stats.limited.packet_size;
      // Written by hand on the client's own socket: a PUBLISH (QoS 1) whose fixed header announces
      // 200 MB, then the first megabyte of it.
      const socket = client.stream as Socket;
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const topic = Buffer.from(`kontrol/v1/${device.controllerId}/telemetry`);
      const variableHeader = Buffer.concat([
        Buffer.from([topic.length >> 8, topic.length & 0xff]),
        topic,
        Buffer.from([0x00, 0x01]), // packet id
        ...(version === 5 ? [Buffer.from([0x00])] : []), // no properties
      ]);
      const announced = 200 * 1024 * 1024;
      socket.write(Buffer.concat([Buffer.from([0x32]), remainingLength(announced), variableHeader]));
      for (let sent = 0; sent < 1024 * 1024 && !socket.destroyed; sent += 64 * 1024)
        socket.write(Buffer.alloc(64 * 1024, 0x20));
      // The broker closes the connection without waiting for the other 199 MB.
      await expect(Promise.race([closed, new Promise((r) => setTimeout(r, 3_000, 'open'))])).resolves.toBe(
        undefined,
      );
      if (version === 5) expect(reasonCodes).toEqual([0x95]); // "packet too large"
      expect(t.gateway.stats.limited.packet_size).toBe(before + 1);
      await t.gateway.usage.flush();
      const day = await t.db
        .selectFrom('device_ingest_days')
        .select(['refused', 'last_reason'])
        .where('device_id', '=', device.id)
        .executeTakeFirstOrThrow();
      expect({ refused: Number(day.refused), reason: day.last_reason }).toEqual({
        refused: 1,
        reason: 'packet_size',
      });
      expect(await limitNotifications(t, org.organisationId)).toHaveLength(1);
    },
  );

  it('takes a packet of just under 4 MB', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await connectDevice(t.gateway.broker?.port ?? 0, device, 5);
    const topic = `kontrol/v1/${device.controllerId}/telemetry`;
    const rejected = t.gateway.stats.rejectedMessages;
    // Not samples at all (counted, and answered with PUBACK 0x99), but the size is what matters here.
    await expect(
      client.publishAsync(topic, Buffer.alloc(MAX_MESSAGE_BYTES - 200, 0x20), { qos: 1 }),
    ).rejects.toMatchObject({ code: 0x99 });
    expect(t.gateway.stats.rejectedMessages).toBe(rejected + 1);
    expect(client.connected).toBe(true);
  });
});
