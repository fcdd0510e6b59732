import { request as httpRequest, type Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TelemetrySampleInput } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import mqtt from 'mqtt';

/** Devices' side of a test: real HTTP requests and MQTT connections to a listening Kontrol. */

/** A cooking combi oven's sample at `ts`. */
export const cookingSample = (ts: number): TelemetrySampleInput => ({
  ts,
  current: 12.5,
  temperature: 180,
  door_open: false,
  state: 'cooking',
});

/** `count` cooking samples one second apart from `start`. */
export const cookingSamples = (start: number, count: number) =>
  Array.from({ length: count }, (_, k) => cookingSample(start + k * 1000));

/** Listens on a free loopback port (once) and returns it. */
export async function listenOnce(app: FastifyInstance) {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

export interface IngestAnswer {
  status: number;
  retryAfter: string | undefined;
  body: { message?: string; reason?: string; data?: { accepted: number } };
}

/**
 * A real HTTP request to the ingest, through `agent` (its sockets are the "connections"). With
 * `trickleMs`, the body goes in two halves that far apart, as over a slow link.
 */
export function postTelemetry(
  port: number,
  agent: Agent,
  credential: string,
  body: unknown,
  headers: Record<string, string> = {},
  trickleMs = 0,
) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise<IngestAnswer>((resolve, reject) => {
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
            body: text ? (JSON.parse(text) as IngestAnswer['body']) : {},
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

/** A device's MQTT connection (MQTT 3.1.1 or 5); the caller ends it. */
export function connectDevice(
  port: number,
  device: { controllerId: string; credential: string },
  version: 4 | 5,
) {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    clientId: device.controllerId,
    username: device.controllerId,
    password: device.credential,
    protocolVersion: version,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
  });
}

/** How many samples of the device are stored. */
export async function storedCount(db: Kysely<Database>, deviceId: number) {
  const row = await db
    .selectFrom('telemetry_samples')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
