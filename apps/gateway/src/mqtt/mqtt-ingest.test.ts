import type { TelemetrySampleInput } from '@kontrol/contracts';
import mqtt, { type IClientOptions, type MqttClient, type Packet } from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { credentialHash } from '../devices/device-directory.js';
import { buildOrganisation, buildSmartDevice } from '../test/builders.js';
import { buildTestGateway, useTestGateway } from '../test/test-gateway.js';

const t = useTestGateway({ mqtt: true });
const clients: MqttClient[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});

function brokerUrl(port = t.gateway.broker?.port) {
  if (!port) throw new Error('the test app runs no embedded broker');
  return `mqtt://127.0.0.1:${port}`;
}

type ProtocolVersion = 4 | 5;

/** Connects as a device; resolves once connected, rejects with the broker's refusal. */
async function connect(
  controllerId: string,
  password: string,
  protocolVersion: ProtocolVersion,
  options: IClientOptions = {},
) {
  const client = await mqtt.connectAsync(brokerUrl(), {
    clientId: controllerId,
    username: controllerId,
    password,
    protocolVersion,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    ...options,
  });
  clients.push(client);
  return client;
}

/**
 * Resolves once the broker has the device as connected (aedes finishes a connection a little
 * after its CONNACK; until then it closes without an MQTT 5 DISCONNECT).
 */
async function ready(client: MqttClient, controllerId: string) {
  await client.subscribeAsync(`kontrol/v1/${controllerId}/cmd`, { qos: 1 });
  return client;
}

/** The packets a client receives from now on. */
function received(client: MqttClient) {
  const packets: Packet[] = [];
  client.on('packetreceive', (packet) => packets.push(packet));
  return packets;
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

const recent = () => Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000;

/** How the broker refuses, by protocol: CONNACK, PUBACK and SUBACK codes. */
const CODES = {
  4: { badCredential: 4, publishRefused: undefined, subscribeRefused: 0x80 },
  5: { badCredential: 0x86, publishRefused: 0x87, subscribeRefused: 0x87 },
} as const;

describe.each([
  { protocolVersion: 4 as const, protocol: 'MQTT 3.1.1' },
  { protocolVersion: 5 as const, protocol: 'MQTT 5' },
])('embedded MQTT broker, $protocol', ({ protocolVersion }) => {
  const codes = CODES[protocolVersion];
  const connectAs = (controllerId: string, password: string, options?: IClientOptions) =>
    connect(controllerId, password, protocolVersion, options);

  it('refuses a wrong credential, an unknown controller and a client id that is not the user name', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const refused = {
      message: expect.stringMatching(/Bad user ?name or password/i) as string,
      code: codes.badCredential,
    };
    await expect(connectAs(device.controllerId, 'kdc_wrong')).rejects.toMatchObject(refused);
    await expect(connectAs('no-such-controller', device.credential)).rejects.toMatchObject(refused);
    await expect(
      connectAs(device.controllerId, device.credential, { clientId: 'someone-else' }),
    ).rejects.toMatchObject(refused);
  });

  it('acknowledges a QoS 1 message only once its samples are stored, and keeps valid neighbours of a bad one', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await connectAs(device.controllerId, device.credential);
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
    expect(t.gateway.stats.rejectedSamples).toBeGreaterThanOrEqual(1);

    // One sample object (not an array) is accepted too; a status message is kept.
    await client.publishAsync(
      `kontrol/v1/${device.controllerId}/telemetry`,
      JSON.stringify(sample(ts + 3000)),
      { qos: 1 },
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

  it('sends no PUBACK for a message that was not committed: the connection closes and the message sent again is stored once', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const topic = `kontrol/v1/${device.controllerId}/telemetry`;
    const message = JSON.stringify([sample(recent()), sample(recent() + 1000)]);
    vi.spyOn(t.gateway.pipeline, 'submit').mockRejectedValueOnce(new Error('disk I/O error'));

    const client = await ready(await connectAs(device.controllerId, device.credential), device.controllerId);
    const packets = received(client);
    // The connection closes; a PUBACK (MQTT 5: one with a failure code) would tell the device the
    // message is done with.
    const outcome = new Promise<string>((resolve) => {
      client.once('close', () => resolve('closed'));
      client.on('packetreceive', (packet) => {
        if (packet.cmd === 'puback') resolve(`PUBACK ${packet.reasonCode ?? 0}`);
      });
    });
    let acknowledged = false;
    client.publish(topic, message, { qos: 1 }, (error) => {
      acknowledged ||= !error;
    });
    expect(await outcome).toBe('closed');
    expect(acknowledged).toBe(false);
    expect(packets.map((packet) => packet.cmd)).not.toContain('puback');
    if (protocolVersion === 5)
      expect(packets).toContainEqual(expect.objectContaining({ cmd: 'disconnect', reasonCode: 0x80 }));
    expect(await samplesOf(device.id)).toEqual([]);

    // What a device does: connect again and send what was not acknowledged.
    const again = await connectAs(device.controllerId, device.credential);
    await again.publishAsync(topic, message, { qos: 1 });
    await again.publishAsync(topic, message, { qos: 1 }); // the PUBACK was lost: sent once more
    expect(await samplesOf(device.id)).toHaveLength(2);
  });

  it("drops and counts a publish to another device's topic, changing nothing there", async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const victim = await buildSmartDevice(t.db, other.organisationId);
    const victimClient = await connectAs(victim.controllerId, victim.credential);
    const delivered: string[] = [];
    victimClient.on('message', (_topic, payload) => delivered.push(payload.toString()));
    await victimClient.subscribeAsync(`kontrol/v1/${victim.controllerId}/cmd`, { qos: 1 });

    const client = await connectAs(device.controllerId, device.credential);
    const dropped = t.gateway.stats.droppedPublishes;
    const attempts: Array<[string, string]> = [
      [`kontrol/v1/${victim.controllerId}/telemetry`, JSON.stringify(sample(recent()))],
      [`kontrol/v1/${victim.controllerId}/cmd`, JSON.stringify({ type: 'reboot' })],
      ['kontrol/v1/elsewhere', 'hello'],
    ];
    for (const [topic, payload] of attempts) {
      const publish = client.publishAsync(topic, payload, { qos: 1 });
      // MQTT 3.1.1 has no way to refuse a publish: it is acknowledged; MQTT 5 says "not authorized".
      if (codes.publishRefused === undefined) await publish;
      else await expect(publish).rejects.toMatchObject({ code: codes.publishRefused });
    }
    await client.publishAsync(`kontrol/v1/${victim.controllerId}/cmd`, 'qos 0', { qos: 0 });
    await client.publishAsync(`kontrol/v1/${device.controllerId}/status`, JSON.stringify({ online: true }), {
      qos: 1,
    }); // after the QoS 0 one: it has been handled
    expect(t.gateway.stats.droppedPublishes - dropped).toBe(4);
    expect(client.connected).toBe(true);
    expect(await samplesOf(victim.id)).toEqual([]);
    // A command sent now reaches the victim after anything the publishes above could have sent it.
    const ping = JSON.stringify({ type: 'ping' });
    const pinged = new Promise<void>((resolve) =>
      victimClient.on('message', (_topic, payload) => payload.toString() === ping && resolve()),
    );
    expect(await t.gateway.broker?.publishCommand(victim.controllerId, { type: 'ping' })).toBe(true);
    await pinged;
    expect(delivered).toEqual([ping]);
  });

  it('grants only the own command topic and delivers commands there', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await connectAs(device.controllerId, device.credential);
    const granted = await client.subscribeAsync(`kontrol/v1/${device.controllerId}/cmd`, { qos: 1 });
    expect(granted.map((grant) => grant.qos)).toEqual([1]);
    // Any other topic is refused in the SUBACK (0x80; MQTT 5: 0x87); the connection stays.
    for (const topic of ['kontrol/v1/+/cmd', `kontrol/v1/${device.controllerId}/telemetry`, '#']) {
      await expect(client.subscribeAsync(topic, { qos: 1 })).rejects.toMatchObject({
        message: expect.stringMatching(/Subscribe error/) as string,
        packet: { granted: [codes.subscribeRefused] },
      });
    }
    expect(client.connected).toBe(true);
    const message = new Promise<string>((resolve) =>
      client.once('message', (_topic, payload) => resolve(payload.toString())),
    );
    expect(await t.gateway.broker?.publishCommand(device.controllerId, { type: 'ping' })).toBe(true);
    expect(JSON.parse(await message)).toEqual({ type: 'ping' });
  });

  it('closes the session of a device whose credential was rotated', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await ready(await connectAs(device.controllerId, device.credential), device.controllerId);
    const packets = received(client);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await t.db
      .updateTable('devices')
      .set({ credential_hash: credentialHash('kdc_rotated') })
      .where('id', '=', device.id)
      .execute();
    await t.gateway.broker?.revalidateNow();
    await closed;
    if (protocolVersion === 5)
      expect(packets).toContainEqual(expect.objectContaining({ cmd: 'disconnect', reasonCode: 0x87 }));
    await expect(connectAs(device.controllerId, device.credential)).rejects.toMatchObject({
      code: codes.badCredential,
    });
  });

  it('survives topics named like the properties of every object (aedes 2.0.0-beta.1 crashed on them)', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await connectAs(device.controllerId, device.credential);
    const own = `kontrol/v1/${device.controllerId}/cmd`;
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      await client.unsubscribeAsync(name);
      await client.unsubscribeAsync([name, own, name]);
      await expect(client.subscribeAsync(name, { qos: 1 })).rejects.toMatchObject({
        packet: { granted: [codes.subscribeRefused] },
      });
      await expect(client.subscribeAsync([name, own, 'kontrol/v1/#'], { qos: 1 })).rejects.toMatchObject({
        packet: { granted: [codes.subscribeRefused, 1, codes.subscribeRefused] },
      });
    }
    expect(client.connected).toBe(true);
    const message = new Promise<string>((resolve) =>
      client.once('message', (_topic, payload) => resolve(payload.toString())),
    );
    expect(await t.gateway.broker?.publishCommand(device.controllerId, { type: 'ping' })).toBe(true);
    expect(JSON.parse(await message)).toEqual({ type: 'ping' });
  });
});

describe('embedded MQTT broker, MQTT 5 only', () => {
  it('refuses a bad credential with CONNACK reason code 0x86 (bad user name or password)', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    for (const [clientId, password] of [
      [device.controllerId, 'kdc_wrong'],
      ['someone-else', device.credential],
    ]) {
      const client = mqtt.connect(brokerUrl(), {
        clientId,
        username: device.controllerId,
        password,
        protocolVersion: 5,
        reconnectPeriod: 0,
      });
      const connack = new Promise<Packet>((resolve) =>
        client.on('packetreceive', (packet) => packet.cmd === 'connack' && resolve(packet)),
      );
      client.on('error', () => undefined);
      expect(await connack).toMatchObject({ cmd: 'connack', reasonCode: 0x86, sessionPresent: false });
      await client.endAsync(true);
    }
  });

  it('refuses a controller id named like a property of every object before aedes registers it', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId, { controllerId: 'constructor' });
    await expect(connect(device.controllerId, device.credential, 5)).rejects.toMatchObject({ code: 0x86 });
    await expect(connect(device.controllerId, device.credential, 4)).rejects.toMatchObject({ code: 4 });
    // The broker is still there.
    const other = await buildSmartDevice(t.db, org.organisationId);
    expect((await connect(other.controllerId, other.credential, 5)).connected).toBe(true);
  });
});

describe('embedded MQTT broker: a message of which nothing is stored', () => {
  /** The PUBACK a QoS 1 publish got: its reason code (0 for success) and reason string. */
  async function pubackOf(client: MqttClient, topic: string, payload: string) {
    const packets = received(client);
    await client.publishAsync(topic, payload, { qos: 1 }).catch(() => undefined);
    const puback = packets.find((packet) => packet.cmd === 'puback') as
      (Packet & { reasonCode?: number; properties?: { reasonString?: string } }) | undefined;
    expect(puback, 'a PUBACK').toBeDefined();
    return { code: puback?.reasonCode ?? 0, reason: puback?.properties?.reasonString };
  }

  it('MQTT 5 tells why in the PUBACK: 0x83 for samples outside the time kept (a wrong clock), 0x99 for what is not a valid sample; a partial success is a success', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await ready(await connect(device.controllerId, device.credential, 5), device.controllerId);
    const topic = `kontrol/v1/${device.controllerId}/telemetry`;
    const hourAhead = Date.now() + 3_600_000;

    const future = await pubackOf(
      client,
      topic,
      JSON.stringify([sample(hourAhead), sample(hourAhead + 1000)]),
    );
    expect(future.code).toBe(0x83);
    expect(future.reason).toMatch(/2 more than 5 minutes ahead of the server's clock.*clock/);
    const ancient = await pubackOf(
      client,
      topic,
      JSON.stringify([sample(Date.parse('2001-01-01T00:00:00Z'))]),
    );
    expect(ancient.code).toBe(0x83);
    expect(ancient.reason).toMatch(/older than the server keeps/);

    const notJson = await pubackOf(client, topic, '{"ts": 1');
    expect(notJson).toEqual({ code: 0x99, reason: 'The payload is not JSON.' });
    const invalid = await pubackOf(client, topic, JSON.stringify([sample(recent(), { current: 5000 })]));
    expect(invalid.code).toBe(0x99);
    expect(invalid.reason).toMatch(/^No sample stored: 1 invalid \(sample 0: current: /);
    expect((await pubackOf(client, topic, '[]')).code).toBe(0x99);
    expect(await samplesOf(device.id)).toHaveLength(0);

    const ts = recent();
    const partial = await pubackOf(client, topic, JSON.stringify([sample(ts), sample(hourAhead)]));
    expect(partial.code).toBe(0);
    expect((await samplesOf(device.id)).map((row) => Number(row.ts))).toEqual([ts]);
    // The connection stays: the device learns and goes on.
    expect(client.connected).toBe(true);
  });

  it('MQTT 3.1.1 keeps its answer: the PUBACK, nothing stored, the connection open', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const client = await ready(await connect(device.controllerId, device.credential, 4), device.controllerId);
    const topic = `kontrol/v1/${device.controllerId}/telemetry`;
    expect(await pubackOf(client, topic, JSON.stringify([sample(Date.now() + 3_600_000)]))).toEqual({
      code: 0,
      reason: undefined,
    });
    expect(await pubackOf(client, topic, 'not json')).toEqual({ code: 0, reason: undefined });
    expect(await samplesOf(device.id)).toHaveLength(0);
    expect(client.connected).toBe(true);
  });
});

describe('embedded MQTT broker, closing', () => {
  it('closes with devices connected; MQTT 5 ones are told the server is shutting down', async () => {
    const app = await buildTestGateway({}, { mqtt: true });
    let closed = false;
    try {
      const db = app.db;
      const org = await buildOrganisation(db);
      const devices = [
        await buildSmartDevice(db, org.organisationId),
        await buildSmartDevice(db, org.organisationId),
      ];
      const port = app.gateway.broker?.port;
      const connected = await Promise.all(
        devices.map((device, index) =>
          mqtt.connectAsync(brokerUrl(port), {
            clientId: device.controllerId,
            username: device.controllerId,
            password: device.credential,
            protocolVersion: index === 0 ? 4 : 5,
            reconnectPeriod: 0,
          }),
        ),
      );
      clients.push(...connected);
      await Promise.all(connected.map((client, index) => ready(client, devices[index]!.controllerId)));
      const v5Packets = received(connected[1]!);
      const allClosed = Promise.all(
        connected.map((client) => new Promise<void>((resolve) => client.once('close', () => resolve()))),
      );
      await app.close();
      closed = true;
      await allClosed;
      expect(v5Packets).toContainEqual(expect.objectContaining({ cmd: 'disconnect', reasonCode: 0x8b }));
    } finally {
      if (!closed) await app.close();
    }
  });
});
