import { Agent } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_DEVICE_LIMITS, MAX_MESSAGE_BYTES } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { backfill } from '@kontrol/simulator';
import type { Kysely } from 'kysely';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice } from '../test/builders.js';
import {
  connectDevice,
  cookingSample,
  cookingSamples,
  listenOnce,
  postTelemetry,
  storedCount,
} from '../test/ingest-clients.js';
import { useTestGateway } from '../test/test-gateway.js';

/**
 * The device limits (docs/device-protocol.md, "Limits") through a gateway process's doors: over
 * the rate, QoS 0 is dropped and QoS 1 gets no PUBACK; the daily limit, in the language asked
 * for; the size of an HTTP message and of an MQTT packet; the simulator's backfill and an hour of
 * buffered MQTT messages pass under the default limits. What the organisation is told, and the
 * device's limits page, are tested with the API (apps/api/src/modules/telemetry/ingest-limits.test.ts).
 */

const MINUTE = 60_000;
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});

/** The organisation's notifications of a device over its limits (the gateway writes them). */
async function limitNotifications(t: { db: Kysely<Database> }, organisationId: number) {
  return t.db
    .selectFrom('notifications')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('kind', '=', 'device_limit')
    .execute();
}

async function connect(port: number, device: { controllerId: string; credential: string }, version: 4 | 5) {
  const client = await connectDevice(port, device, version);
  clients.push(client);
  return client;
}

describe('over the rate, over MQTT', () => {
  const LIMITS = { rate: 100, burst: 2_000, connections: 4 };
  const t = useTestGateway({
    mqtt: true,
    env: {
      DEVICE_SAMPLES_PER_SECOND: String(LIMITS.rate),
      DEVICE_SAMPLES_BURST: String(LIMITS.burst),
      DEVICE_MAX_CONNECTIONS: String(LIMITS.connections),
      DEVICE_MAX_IN_FLIGHT: '16',
      DEVICE_SAMPLES_PER_DAY: '1000000',
    },
  });

  it('drops a QoS 0 message over the rate and keeps the connection; a QoS 1 one gets no PUBACK (MQTT 3.1.1: the connection closes)', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const brokerPort = t.gateway.broker?.port ?? 0;
    const topic = `kontrol/v1/${device.controllerId}/telemetry`;
    const client = await connect(brokerPort, device, 4);
    await client.publishAsync(topic, JSON.stringify(cookingSamples(Date.now() - 60 * MINUTE, 2_000)), {
      qos: 1,
    });
    expect(await storedCount(t.db, device.id)).toBe(2_000);

    const rateRefusals = t.gateway.stats.limited.rate;
    await client.publishAsync(topic, JSON.stringify(cookingSamples(Date.now() - 20 * MINUTE, 1_000)), {
      qos: 0,
    });
    // A QoS 1 message after it is answered in order: by then the QoS 0 one was dealt with.
    const closed = new Promise<string>((resolve) => client.once('close', () => resolve('closed')));
    let acknowledged = false;
    client.publish(
      topic,
      JSON.stringify(cookingSamples(Date.now() - 10 * MINUTE, 1_000)),
      { qos: 1 },
      (error) => {
        acknowledged = !error;
      },
    );
    expect(await closed).toBe('closed');
    expect(acknowledged).toBe(false);
    expect(t.gateway.stats.limited.rate).toBe(rateRefusals + 2);
    expect(await storedCount(t.db, device.id)).toBe(2_000);
  });
});

describe('the daily limit', () => {
  const t = useTestGateway({
    env: {
      DEVICE_SAMPLES_PER_SECOND: '100000',
      DEVICE_SAMPLES_BURST: '10000',
      DEVICE_SAMPLES_PER_DAY: '3000',
    },
  });

  it('refuses past the day until the next UTC midnight, in the language asked for', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const port = await listenOnce(t.app);
    const agent = new Agent({ keepAlive: true });
    const start = Date.now() - 80 * MINUTE;
    expect((await postTelemetry(port, agent, device.credential, cookingSamples(start, 2_500))).status).toBe(
      202,
    );
    const over = await postTelemetry(port, agent, device.credential, cookingSamples(start + 2_500_000, 600));
    expect(over.status).toBe(429);
    expect(over.body.reason).toBe('day');
    const now = Date.now();
    const midnight = Math.ceil(now / 86_400_000) * 86_400_000;
    expect(Math.abs(Number(over.retryAfter) - (midnight - now) / 1000)).toBeLessThan(5);
    expect(over.body.message).toBe(
      `The device has sent its 3 000 samples for the day (UTC), its daily limit. Try again in ${over.retryAfter} s.`,
    );
    const russian = await postTelemetry(
      port,
      agent,
      device.credential,
      cookingSamples(start + 2_500_000, 600),
      {
        'accept-language': 'ru-RU,ru;q=0.9',
      },
    );
    expect(russian.body.message).toMatch(/^Устройство уже отправило 3 000 показаний за сутки \(UTC\)/);
    // What still fits in the day is taken.
    expect(
      (await postTelemetry(port, agent, device.credential, cookingSamples(start + 2_500_000, 500))).status,
    ).toBe(202);
    expect(await storedCount(t.db, device.id)).toBe(3_000);
    agent.destroy();
  });
});

describe('the size of an HTTP message', () => {
  const t = useTestGateway();

  it('refuses a body over 4 MB with 413, storing nothing, and frees the device for its next message', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const port = await listenOnce(t.app);
    const agent = new Agent({ keepAlive: true });
    const start = Date.now() - 60 * MINUTE;
    // 10 000 samples carrying a field of 400 characters (unknown fields are ignored): about 5.7 MB.
    const big = Array.from({ length: 10_000 }, (_, k) => ({
      ...cookingSample(start + k),
      note: 'n'.repeat(400),
    }));
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_MESSAGE_BYTES);
    const answers = await Promise.all(
      Array.from({ length: DEFAULT_DEVICE_LIMITS.maxConnections }, () =>
        postTelemetry(port, agent, device.credential, big),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 413));
    expect(await storedCount(t.db, device.id)).toBe(0);
    // Each refused body gave its connection back.
    expect((await postTelemetry(port, agent, device.credential, cookingSamples(start, 10))).status).toBe(202);
    agent.destroy();
  });
});

describe('under the default limits', () => {
  const t = useTestGateway({ mqtt: true });

  it("takes the simulator's 14-day backfill whole, with no refusal and no retry", async () => {
    const org = await buildOrganisation(t.db);
    const devices = [
      await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'combi_oven' }),
      await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'refrigerator' }),
    ];
    const port = await listenOnce(t.app);
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
    const client = await connect(t.gateway.broker?.port ?? 0, device, 4);
    const start = Date.now() - 62 * MINUTE;
    await Promise.all(
      cookingSamples(start, 3_600).map((one) =>
        client.publishAsync(`kontrol/v1/${device.controllerId}/telemetry`, JSON.stringify(one), { qos: 1 }),
      ),
    );
    expect(await storedCount(t.db, device.id)).toBe(3_600);
    expect(client.connected).toBe(true);
    expect(t.gateway.stats.limited.rate + t.gateway.stats.limited.day).toBe(0);
  });
});

describe('the size of an MQTT packet', () => {
  const t = useTestGateway({ mqtt: true });

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
      const client = await connect(t.gateway.broker?.port ?? 0, device, version);
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
    const client = await connect(t.gateway.broker?.port ?? 0, device, 5);
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
