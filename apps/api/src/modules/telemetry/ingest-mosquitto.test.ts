import type { Socket } from 'node:net';
import type { DeviceWithCredential, TelemetrySampleInput } from '@kontrol/contracts';
import { Gateway } from '@kontrol/gateway';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation, buildRoom } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { mosquittoAvailable, startMosquitto, type TestMosquitto } from '../../test/mosquitto.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The gateway against a real Mosquitto 2 (MQTT_URL): device accounts kept in its dynamic-security
 * plugin as devices are created, rotated and deleted; the broker enforcing the topics; telemetry
 * taken through a shared subscription by two gateways, each message stored once.
 */
const LIMITS = { rate: 100, burst: 3_000 };

describe.skipIf(!mosquittoAvailable())('external MQTT broker (Mosquitto 2, dynamic security)', () => {
  let mosquitto: TestMosquitto;
  let t: TestApp;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    t = await buildTestApp(
      {
        MQTT_URL: mosquitto.url,
        MQTT_CLIENT_ID: `kontrol-test-${process.pid}`,
        // Small device limits, so a flood meets them within a test.
        DEVICE_SAMPLES_PER_SECOND: String(LIMITS.rate),
        DEVICE_SAMPLES_BURST: String(LIMITS.burst),
      },
      { runsMqtt: true },
    );
  });
  afterAll(async () => {
    await t?.close();
    await mosquitto?.stop();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  });

  const brokerAddress = () => `mqtt://127.0.0.1:${mosquitto.port}`;

  async function connectDevice(controllerId: string, password: string, extra: IClientOptions = {}) {
    const client = await mqtt.connectAsync(brokerAddress(), {
      clientId: controllerId,
      username: controllerId,
      password,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      ...extra,
    });
    clients.push(client);
    return client;
  }

  /** A smart device created through the API, so its account is made in the broker. */
  async function createDevice() {
    const org = await buildOrganisation(t.database.handle.db);
    const room = await buildRoom(t.database.handle.db, org.organisationId);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    const type = await t.database.handle.db
      .selectFrom('device_types')
      .select('id')
      .where('slug', '=', 'combi_oven')
      .executeTakeFirstOrThrow();
    const controllerId = `mosq-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const res = await client.post('/api/devices/', {
      name: 'Combi',
      type_id: type.id,
      room_id: room.id,
      controller_id: controllerId,
    });
    expect(res.statusCode).toBe(201);
    const device = res.json<{ data: DeviceWithCredential }>().data;
    return { client, device, controllerId, credential: device.credential ?? '' };
  }

  const sample = (ts: number, extra: Partial<TelemetrySampleInput> = {}) => ({
    ts,
    current: 2,
    temperature: 40,
    door_open: false,
    state: 'idle',
    ...extra,
  });

  async function storedCount(deviceId: number) {
    const rows = await t.database.handle.db
      .selectFrom('telemetry_samples')
      .select('ts')
      .where('device_id', '=', deviceId)
      .execute();
    return rows.length;
  }

  async function waitFor(check: () => Promise<boolean>, what: string) {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const recent = () => Math.floor(Date.now() / 60_000) * 60_000 - 20 * 60_000;

  it('gives a new device an account: MQTT 3.1.1 and 5 connect, samples reach the database', async () => {
    const { device, controllerId, credential } = await createDevice();
    const ts = recent();
    const v4 = await connectDevice(controllerId, credential, { protocolVersion: 4 });
    await v4.publishAsync(
      `kontrol/v1/${controllerId}/telemetry`,
      JSON.stringify([sample(ts), sample(ts + 1000)]),
      {
        qos: 1,
      },
    );
    await v4.endAsync();
    const v5 = await connectDevice(controllerId, credential, { protocolVersion: 5 });
    await v5.publishAsync(`kontrol/v1/${controllerId}/telemetry`, JSON.stringify(sample(ts + 2000)), {
      qos: 1,
    });
    await waitFor(async () => (await storedCount(device.id)) === 3, 'three samples');
    await expect(connectDevice(controllerId, 'kdc_wrong')).rejects.toThrow(/not authori[sz]ed|Bad user/i);
  });

  it("lets the broker refuse a publish to another device's topic; nothing is stored there", async () => {
    const mine = await createDevice();
    const victim = await createDevice();
    const client = await connectDevice(mine.controllerId, mine.credential);
    await client.publishAsync(
      `kontrol/v1/${victim.controllerId}/telemetry`,
      JSON.stringify(sample(recent())),
      {
        qos: 1,
      },
    );
    await client.publishAsync(`kontrol/v1/${mine.controllerId}/telemetry`, JSON.stringify(sample(recent())), {
      qos: 1,
    });
    await waitFor(async () => (await storedCount(mine.device.id)) === 1, 'the own sample');
    expect(await storedCount(victim.device.id)).toBe(0);
  });

  it('replaces the password on rotation and removes the account on delete', async () => {
    const { client, device, controllerId, credential } = await createDevice();
    const rotated = await client.post(`/api/devices/${device.id}/credential`, {});
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json<{ data: DeviceWithCredential }>().data.credential ?? '';
    await expect(connectDevice(controllerId, credential)).rejects.toThrow(/not authori[sz]ed|Bad user/i);
    await (await connectDevice(controllerId, fresh)).endAsync();

    expect((await client.delete(`/api/devices/${device.id}`)).statusCode).toBe(204);
    await expect(connectDevice(controllerId, fresh)).rejects.toThrow(/not authori[sz]ed|Bad user/i);
  });

  it('disconnects a device announcing a packet over 4 MB, before the broker reads its body', async () => {
    const { controllerId, credential } = await createDevice();
    const client = await connectDevice(controllerId, credential, { protocolVersion: 5 });
    const socket = client.stream as Socket;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const topic = Buffer.from(`kontrol/v1/${controllerId}/telemetry`);
    // PUBLISH, QoS 1, "remaining length" 200 MB (0xC8 0x80 0x80 0x64 = 200 × 2^20), then a bit of it.
    socket.write(
      Buffer.concat([
        Buffer.from([0x32, 0x80, 0x80, 0x80, 0x64, topic.length >> 8, topic.length & 0xff]),
        topic,
        Buffer.from([0x00, 0x01, 0x00]),
        Buffer.alloc(256 * 1024, 0x20),
      ]),
    );
    await expect(Promise.race([closed, new Promise((r) => setTimeout(r, 3_000, 'open'))])).resolves.toBe(
      undefined,
    );
  });

  it('drops what a device sends over its limits: the broker acknowledges it, the gateway stores what the limits allow', async () => {
    const { device, controllerId, credential } = await createDevice();
    const client = await connectDevice(controllerId, credential);
    const before = { messages: t.gateway.stats.mqttMessages, rate: t.gateway.stats.limited.rate };
    const start = Date.now() - 70 * 60_000;
    const started = Date.now();
    const messages = 20;
    await Promise.all(
      Array.from({ length: messages }, (_, k) =>
        client.publishAsync(
          `kontrol/v1/${controllerId}/telemetry`,
          JSON.stringify(Array.from({ length: 500 }, (_, i) => sample(start + k * 500 + i))),
          { qos: 1 },
        ),
      ),
    );
    await waitFor(
      async () => t.gateway.stats.mqttMessages - before.messages >= messages,
      'the gateway to take every message',
    );
    const elapsedS = (Date.now() - started) / 1000;
    const stored = await storedCount(device.id);
    expect(stored).toBeGreaterThanOrEqual(LIMITS.burst);
    expect(stored).toBeLessThanOrEqual(LIMITS.burst + LIMITS.rate * elapsedS);
    expect(t.gateway.stats.limited.rate - before.rate).toBe(messages - stored / 500);
  });

  it('splits the load between two gateways and stores each message once', async () => {
    const second = await Gateway.start({
      database: t.database.handle,
      log: t.app.log,
      rawRetentionDays: 90,
      mqtt: {
        mode: 'external',
        url: mosquitto.url,
        consume: true,
        clientIdBase: `kontrol-test-second-${process.pid}`,
        connections: 4,
      },
    });
    try {
      const { device, controllerId, credential } = await createDevice();
      const client = await connectDevice(controllerId, credential);
      const ts = recent();
      const messages = 200;
      await Promise.all(
        Array.from({ length: messages }, (_, k) =>
          client.publishAsync(
            `kontrol/v1/${controllerId}/telemetry`,
            JSON.stringify([sample(ts + k * 100), sample(ts + k * 100 + 50)]),
            { qos: 1 },
          ),
        ),
      );
      await waitFor(async () => (await storedCount(device.id)) === messages * 2, `${messages * 2} samples`);
      expect(second.stats.mqttMessages).toBeGreaterThan(0);
      expect(t.gateway.stats.mqttMessages).toBeGreaterThan(0);
      expect(second.stats.duplicateSamples + t.gateway.stats.duplicateSamples).toBe(0);
    } finally {
      await second.close();
    }
  });

  // Last: it stops the broker.
  it('refuses to change device credentials while the broker cannot be told: 503, nothing changed', async () => {
    const { client, device } = await createDevice();
    const before = await t.database.handle.db
      .selectFrom('devices')
      .select(['credential_hash', 'controller_id'])
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    await mosquitto.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rotated = await client.post(`/api/devices/${device.id}/credential`, {});
    expect(rotated.statusCode).toBe(503);
    expect(rotated.json<{ message: string }>().message).toMatch(/MQTT broker/);
    const after = await t.database.handle.db
      .selectFrom('devices')
      .select(['credential_hash', 'controller_id'])
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await client.delete(`/api/devices/${device.id}`)).statusCode).toBe(503);
  });
});
