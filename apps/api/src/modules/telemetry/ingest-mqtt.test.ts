import type { TelemetrySampleInput } from '@kontrol/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { buildOrganisation, buildSmartDevice } from '../../test/builders.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ runsMqtt: true });
const clients: MqttClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});

function brokerUrl() {
  const broker = t.app.gateway.broker;
  if (!broker) throw new Error('the test app runs no embedded broker');
  return `mqtt://127.0.0.1:${broker.port}`;
}

/** Connects as a device; resolves once connected, rejects with the broker's refusal. */
async function connect(controllerId: string, password: string) {
  const client = await mqtt.connectAsync(brokerUrl(), {
    clientId: controllerId,
    username: controllerId,
    password,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
  });
  clients.push(client);
  return client;
}

const sample = (ts: number, extra: Partial<TelemetrySampleInput> = {}): TelemetrySampleInput => ({
  ts,
  current: 2,
  temperature: 30,
  door_open: false,
  state: 'idle',
  ...extra,
});

function samplesOf(deviceId: number) {
  return t.db
    .selectFrom('telemetry_samples')
    .selectAll()
    .where('device_id', '=', deviceId)
    .orderBy('ts')
    .execute();
}

const recent = () => Date.now() - (Date.now() % 60_000) - 30 * 60_000;

describe('embedded MQTT broker', () => {
  it('refuses a wrong credential, an unknown controller and a client id that is not the user name', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    await expect(connect(device.controllerId, 'kdc_wrong')).rejects.toThrow(/Bad username or password/i);
    await expect(connect('no-such-controller', device.credential)).rejects.toThrow(
      /Bad username or password/i,
    );
    const mismatch = mqtt.connectAsync(brokerUrl(), {
      clientId: 'someone-else',
      username: device.controllerId,
      password: device.credential,
      reconnectPeriod: 0,
    });
    await expect(mismatch).rejects.toThrow(/Bad username or password/i);
  });

  it('acknowledges a QoS 1 message only once its samples are stored, and keeps valid neighbours of a bad one', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await connect(device.controllerId, device.credential);
    const ts = recent();
    await client.publishAsync(
      `kontrol/v1/${device.controllerId}/telemetry`,
      JSON.stringify([
        sample(ts),
        sample(ts + 1000, { current: 5000 }),
        sample(ts + 2000, { state: 'heating' }),
      ]),
      { qos: 1 },
    );
    // The PUBACK has arrived: the samples are in the database now, not "soon".
    expect((await samplesOf(device.id)).map((row) => Number(row.ts) - ts)).toEqual([0, 2000]);
    expect(t.app.gateway.stats.rejectedSamples).toBeGreaterThanOrEqual(1);

    // One sample object (not an array) is accepted too; a status message is kept.
    await client.publishAsync(
      `kontrol/v1/${device.controllerId}/telemetry`,
      JSON.stringify(sample(ts + 3000)),
      {
        qos: 1,
      },
    );
    await client.publishAsync(
      `kontrol/v1/${device.controllerId}/status`,
      JSON.stringify({ online: true, firmware: '2.1' }),
      { qos: 1 },
    );
    expect(await samplesOf(device.id)).toHaveLength(3);
    const live = await t.db
      .selectFrom('device_live')
      .select(['status', 'last_online_at'])
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(live.status ?? '{}')).toEqual({ online: true, firmware: '2.1' });
    expect(live.last_online_at).toBe(new Date(ts + 3000).toISOString());
  });

  it("drops and counts a publish to another device's topic, changing nothing there", async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const victim = await buildSmartDevice(t.db, other.organisationId);
    const victimClient = await connect(victim.controllerId, victim.credential);
    const received: string[] = [];
    victimClient.on('message', (topic) => received.push(topic));
    await victimClient.subscribeAsync(`kontrol/v1/${victim.controllerId}/cmd`, { qos: 1 });

    const client = await connect(device.controllerId, device.credential);
    const dropped = t.app.gateway.stats.droppedPublishes;
    await client.publishAsync(
      `kontrol/v1/${victim.controllerId}/telemetry`,
      JSON.stringify(sample(recent())),
      { qos: 1 },
    );
    await client.publishAsync(`kontrol/v1/${victim.controllerId}/cmd`, JSON.stringify({ type: 'reboot' }), {
      qos: 1,
    });
    await client.publishAsync('kontrol/v1/elsewhere', 'hello', { qos: 1 });
    expect(t.app.gateway.stats.droppedPublishes - dropped).toBe(3);
    expect(client.connected).toBe(true);
    expect(await samplesOf(victim.id)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([]);
  });

  it('grants only the own command topic and delivers commands there', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await connect(device.controllerId, device.credential);
    const granted = await client.subscribeAsync(`kontrol/v1/${device.controllerId}/cmd`, { qos: 1 });
    expect(granted.map((grant) => grant.qos)).toEqual([1]);
    // Any other topic is refused in the SUBACK (0x80); the connection stays.
    for (const topic of ['kontrol/v1/+/cmd', `kontrol/v1/${device.controllerId}/telemetry`, '#']) {
      await expect(client.subscribeAsync(topic, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    }
    expect(client.connected).toBe(true);
    const message = new Promise<string>((resolve) =>
      client.once('message', (_topic, payload) => resolve(payload.toString())),
    );
    expect(await t.app.gateway.broker?.publishCommand(device.controllerId, { type: 'ping' })).toBe(true);
    expect(JSON.parse(await message)).toEqual({ type: 'ping' });
  });

  it('closes the session of a device whose credential was rotated', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await connect(device.controllerId, device.credential);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await t.db
      .updateTable('devices')
      .set({ credential_hash: sha256('kdc_rotated') })
      .where('id', '=', device.id)
      .execute();
    await t.app.gateway.broker?.revalidateNow();
    await closed;
    await expect(connect(device.controllerId, device.credential)).rejects.toThrow(
      /Bad username or password/i,
    );
  });
});
