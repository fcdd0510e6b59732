import { telemetrySampleSchema } from '@kontrol/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backfill } from './backfill.js';
import { profileOf, type SimulatedDevice } from './fleet.js';
import { deviceSamples } from './models.js';
import { startSimulator } from './simulator.js';
import { startIngestServer, type IngestServer } from './test/ingest-server.js';

const DAY = 86_400_000;
/** Noon of 2026-11-18 in Moscow. */
const NOON = Date.UTC(2026, 10, 18, 9, 0);

const DEVICES: SimulatedDevice[] = [
  { controllerId: 'KC-1', credential: 'kdc_one', type: 'combi_oven', shiftStart: '07:00' },
  { controllerId: 'KC-2', credential: 'kdc_two', type: 'refrigerator', timeZone: 'Asia/Yekaterinburg' },
];

let server: IngestServer;
beforeEach(async () => {
  server = await startIngestServer();
});
afterEach(async () => {
  await server.close();
});

describe('backfill', () => {
  it('sends every sample of the period over HTTP, retrying a 503, and resolves when all are stored', async () => {
    const fleet = { devices: DEVICES, seed: 5 };
    const expected = DEVICES.map(
      (device) => [...deviceSamples(profileOf(device, fleet), NOON - 2 * DAY, NOON, 60_000)].length,
    );
    server.failNext(1);
    const progress = vi.fn();

    const result = await backfill({
      ...fleet,
      httpUrl: server.url,
      days: 2,
      batch: 500,
      concurrency: 2,
      retryInitialMs: 10,
      now: () => NOON,
      onProgress: progress,
    });

    const total = expected[0]! + expected[1]!;
    expect(expected[0]).toBeGreaterThan(2 * 1440 * 0.9);
    expect(result).toMatchObject({ devices: 2, samples: total, accepted: total, duplicates: 0, rejected: 0 });
    expect(result.retries).toBe(1);
    expect(result.unauthorized).toEqual([]);
    expect(server.stored.get('kdc_one')?.size).toBe(expected[0]);
    expect(server.stored.get('kdc_two')?.size).toBe(expected[1]);
    // Requests of at most 500 samples, each reported.
    expect(result.requests).toBe(Math.ceil(expected[0]! / 500) + Math.ceil(expected[1]! / 500) + 1);
    expect(progress).toHaveBeenCalledTimes(result.requests - 1);
    for (const sample of server.stored.get('kdc_one')!.values()) {
      expect(telemetrySampleSchema.safeParse(sample).success).toBe(true);
    }

    // Once more: the same timestamps, so the server has them all already.
    const again = await backfill({ ...fleet, httpUrl: server.url, days: 2, batch: 5000, now: () => NOON });
    expect(again).toMatchObject({ samples: total, accepted: 0, duplicates: total });
  });

  it('skips a device whose credential is refused and reports it', async () => {
    const devices: SimulatedDevice[] = [
      { controllerId: 'KC-BAD', credential: 'bad', type: 'fryer' },
      { controllerId: 'KC-3', credential: 'kdc_three', type: 'fryer' },
    ];
    const result = await backfill({
      devices,
      httpUrl: server.url,
      days: 1,
      batch: 100,
      concurrency: 1,
      now: () => NOON,
    });
    expect(result.unauthorized).toEqual(['KC-BAD']);
    expect(result.accepted).toBe(server.stored.get('kdc_three')?.size);
    // After the 401 the rest of that device's history is not sent.
    expect(result.requests).toBe(1 + Math.ceil(result.accepted / 100));
  });

  it('fails when the server stays away', async () => {
    server.failNext(100);
    await expect(
      backfill({
        devices: DEVICES.slice(0, 1),
        httpUrl: server.url,
        days: 1,
        maxAttempts: 3,
        retryInitialMs: 1,
        now: () => NOON,
      }),
    ).rejects.toThrow(/HTTP 503 after 3 attempts/);
  });
});

describe('live simulation over HTTP', () => {
  it('sends a sample per device per interval, in batches, on an injected clock', async () => {
    let clock = NOON;
    const simulator = startSimulator({
      devices: DEVICES,
      transport: 'http',
      httpUrl: server.url,
      intervalMs: 10_000,
      batch: 3,
      tickMs: 5,
      offlineRate: 0,
      now: () => clock,
    });
    clock += 60_000;
    await vi.waitFor(() => expect(simulator.stats()).toMatchObject({ generated: 12, acknowledged: 12 }));
    expect(server.requests).toBe(4);
    expect(server.stored.get('kdc_one')?.size).toBe(6);
    // Each device on its own grid, ten seconds apart.
    const times = [...server.stored.get('kdc_one')!.keys()].sort((a, b) => a - b);
    expect(times.slice(1).map((ts, i) => ts - times[i]!)).toEqual([10_000, 10_000, 10_000, 10_000, 10_000]);

    // A partial batch is sent at stop.
    clock += 10_000;
    await vi.waitFor(() => expect(simulator.stats().pending).toBe(2));
    await simulator.stop();
    expect(simulator.stats()).toMatchObject({
      generated: 14,
      sent: 14,
      acknowledged: 14,
      inFlight: 0,
      buffered: 0,
      pending: 0,
      dropped: 0,
      errors: 0,
      connected: 2,
    });
  });

  it('stops a device whose credential is refused', async () => {
    let clock = NOON;
    const simulator = startSimulator({
      devices: [...DEVICES, { controllerId: 'KC-BAD', credential: 'bad', type: 'dishwasher' }],
      transport: 'http',
      httpUrl: server.url,
      intervalMs: 10_000,
      tickMs: 5,
      offlineRate: 0,
      now: () => clock,
    });
    clock += 30_000;
    await vi.waitFor(() => expect(simulator.stats()).toMatchObject({ unauthorized: 1, acknowledged: 6 }));
    clock += 30_000;
    await vi.waitFor(() => expect(simulator.stats().acknowledged).toBe(12));
    await simulator.stop();
    expect(simulator.stats()).toMatchObject({
      devices: 3,
      connected: 2,
      unauthorized: 1,
      generated: 15,
      dropped: 3,
    });
  });
});
