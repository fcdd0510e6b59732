import { Aedes, type AuthenticateError } from 'aedes';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SimulatedDevice } from './fleet.js';
import { startSimulator, type Simulator } from './simulator.js';
import { createMqttLink } from './transport-mqtt.js';

/** Noon of 2026-11-18 in Moscow. */
const NOON = Date.UTC(2026, 10, 18, 9, 0);

const DEVICES: SimulatedDevice[] = [
  { controllerId: 'KC-1', credential: 'kdc_one', type: 'combi_oven' },
  { controllerId: 'KC-2', credential: 'kdc_two', type: 'freezer' },
  { controllerId: 'KC-BAD', credential: 'kdc_wrong', type: 'fryer' },
];
const CREDENTIALS = new Map([
  ['KC-1', 'kdc_one'],
  ['KC-2', 'kdc_two'],
  ['KC-BAD', 'kdc_right'],
]);

/** What the in-test broker saw, across restarts. */
const seen = {
  /** Telemetry samples by controller id, by timestamp. */
  samples: new Map<string, Map<number, unknown>>(),
  status: [] as Array<{ clientId: string; payload: unknown }>,
  /** While true the broker swallows telemetry without a PUBACK (held in the client's store). */
  holdTelemetry: false,
  held: [] as number[],
};

interface Broker {
  port: number;
  broker: Aedes;
  close(): Promise<void>;
}

/** An MQTT 3.1.1 and 5 broker (aedes) that checks the credential like the gateway does. */
async function startBroker(port = 0): Promise<Broker> {
  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      const ok = client.id === username && CREDENTIALS.get(username ?? '') === password?.toString();
      if (ok) return done(null, true);
      const refusal: AuthenticateError = Object.assign(new Error('bad credential'), {
        returnCode: 4 as const,
      });
      done(refusal, false);
    },
    authorizePublish(client, packet, callback) {
      if (packet.topic.endsWith('/telemetry') && seen.holdTelemetry) {
        const body = JSON.parse(packet.payload.toString()) as { ts: number } | Array<{ ts: number }>;
        seen.held.push(...(Array.isArray(body) ? body : [body]).map((sample) => sample.ts));
        return; // no callback: no PUBACK
      }
      callback(null);
    },
  });
  broker.on('publish', (packet, client) => {
    if (!client) return;
    const body = JSON.parse(packet.payload.toString()) as unknown;
    if (packet.topic === `kontrol/v1/${client.id}/status`)
      seen.status.push({ clientId: client.id, payload: body });
    if (packet.topic === `kontrol/v1/${client.id}/telemetry`) {
      let samples = seen.samples.get(client.id);
      if (!samples) {
        samples = new Map<number, unknown>();
        seen.samples.set(client.id, samples);
      }
      for (const sample of Array.isArray(body) ? body : [body])
        samples.set((sample as { ts: number }).ts, sample);
    }
  });
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    broker,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

let simulator: Simulator | undefined;
let broker: Broker | undefined;
afterEach(async () => {
  await simulator?.stop();
  await broker?.close();
  simulator = undefined;
  broker = undefined;
  seen.samples.clear();
  seen.status.length = 0;
  seen.holdTelemetry = false;
  seen.held.length = 0;
});

describe.each([4, 5] as const)('live simulation over MQTT (--mqtt-version %s)', (mqttVersion) => {
  it('publishes at QoS 1, counts PUBACKs, buffers while the broker is away and re-sends what was not acknowledged', async () => {
    broker = await startBroker();
    let clock = NOON;
    const commands: Array<[string, unknown]> = [];
    simulator = startSimulator({
      devices: DEVICES,
      transport: 'mqtt',
      mqttUrl: `mqtt://127.0.0.1:${broker.port}`,
      mqttVersion,
      intervalMs: 10_000,
      tickMs: 5,
      reconnectPeriodMs: 50,
      offlineRate: 0,
      now: () => clock,
      onCommand: (controllerId, command) => commands.push([controllerId, command]),
    });

    // Connected with controller id and credential; the wrong credential stops its device.
    await vi.waitFor(() => expect(simulator!.stats()).toMatchObject({ connected: 2, unauthorized: 1 }));
    await vi.waitFor(() =>
      expect(seen.status.map((status) => status.clientId).sort()).toEqual(['KC-1', 'KC-2']),
    );
    expect(seen.status[0]!.payload).toEqual({ online: true, firmware: 'sim-1.0', uptime_s: 0 });

    clock += 60_000;
    await vi.waitFor(() => expect(simulator!.stats()).toMatchObject({ generated: 12, acknowledged: 12 }));
    expect(seen.samples.get('KC-1')?.size).toBe(6);
    expect(seen.samples.get('KC-2')?.size).toBe(6);
    expect(seen.samples.has('KC-BAD')).toBe(false);

    // Commands on the device's cmd topic reach the hook.
    await new Promise<void>((resolve, reject) =>
      broker!.broker.publish(
        {
          cmd: 'publish',
          topic: 'kontrol/v1/KC-1/cmd',
          payload: Buffer.from('{"type":"ping"}'),
          qos: 1,
          retain: false,
          dup: false,
        },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    await vi.waitFor(() => expect(commands).toEqual([['KC-1', { type: 'ping' }]]));

    // One sample each goes out but its PUBACK never comes; then the broker goes away.
    seen.holdTelemetry = true;
    clock += 10_000;
    await vi.waitFor(() => expect(seen.held).toHaveLength(2));
    expect(simulator.stats().inFlight).toBe(2);
    const port = broker.port;
    await broker.close();
    broker = undefined;
    seen.holdTelemetry = false;
    await vi.waitFor(() => expect(simulator!.stats().connected).toBe(0));
    clock += 60_000;
    await vi.waitFor(() => expect(simulator!.stats()).toMatchObject({ buffered: 12, inFlight: 2 }));

    // Back on the same port: the unacknowledged samples are re-sent, then the buffer.
    broker = await startBroker(port);
    await vi.waitFor(
      () =>
        expect(simulator!.stats()).toMatchObject({
          connected: 2,
          generated: 26,
          acknowledged: 26,
          inFlight: 0,
          buffered: 0,
          dropped: 0,
        }),
      { timeout: 10_000 },
    );
    for (const ts of seen.held) {
      expect([...seen.samples.values()].some((samples) => samples.has(ts))).toBe(true);
    }
    expect(seen.samples.get('KC-1')?.size).toBe(13);
    expect(seen.samples.get('KC-2')?.size).toBe(13);
  });
});

describe('an MQTT link', () => {
  it('keeps at most maxBuffered samples while disconnected, dropping the oldest', async () => {
    // A port nobody listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const link = createMqttLink({
      url: `mqtt://127.0.0.1:${port}`,
      controllerId: 'KC-9',
      credential: 'kdc_nine',
      maxBuffered: 5,
      reconnectPeriodMs: 50,
    });
    link.start();
    for (let i = 0; i < 8; i++) link.send([{ ts: NOON + i * 10_000, current: 1, state: 'idle' }]);
    expect(link.counters()).toMatchObject({ sent: 0, buffered: 5, dropped: 3 });
    await vi.waitFor(() => expect(link.counters().errors).toBeGreaterThan(0));
    expect(link.connected).toBe(false);
    await link.stop();
    expect(link.counters()).toMatchObject({ buffered: 0, dropped: 8 });
  });
});
