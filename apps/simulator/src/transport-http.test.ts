import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIngestServer, type IngestServer } from './test/ingest-server.js';
import { createHttpLink, ingestUrl } from './transport-http.js';

const NOON = Date.UTC(2026, 10, 18, 9, 0);
const sample = (i: number) => ({ ts: NOON + i * 10_000, current: 1.5, state: 'idle' as const });

let server: IngestServer;
beforeEach(async () => {
  server = await startIngestServer();
});
afterEach(async () => {
  await server.close();
});

describe('HTTP link', () => {
  it('builds the ingest URL from a base URL with or without a slash', () => {
    expect(ingestUrl('http://localhost:3000')).toBe('http://localhost:3000/api/ingest/v1/telemetry');
    expect(ingestUrl('http://localhost:3000/')).toBe('http://localhost:3000/api/ingest/v1/telemetry');
  });

  it('retries a 5xx with the same samples and keeps new ones queued meanwhile', async () => {
    server.failNext(2);
    const link = createHttpLink({
      baseUrl: server.url,
      controllerId: 'KC-1',
      credential: 'kdc_one',
      retryInitialMs: 20,
    });
    link.send([sample(0), sample(1)]);
    link.send([sample(2)]);
    await vi.waitFor(() => expect(link.counters()).toMatchObject({ acknowledged: 3, inFlight: 0 }));
    expect(link.counters()).toMatchObject({ sent: 3, errors: 2, buffered: 0, dropped: 0, rejected: 0 });
    expect(link.connected).toBe(true);
    expect([...server.stored.get('kdc_one')!.keys()]).toEqual([sample(0).ts, sample(1).ts, sample(2).ts]);
    await link.stop();
  });

  it('keeps at most maxBuffered samples while the server fails, dropping the oldest', async () => {
    server.failNext(1000);
    const link = createHttpLink({
      baseUrl: server.url,
      controllerId: 'KC-1',
      credential: 'kdc_one',
      maxBuffered: 4,
      retryInitialMs: 20,
    });
    link.send([sample(0)]);
    await vi.waitFor(() => expect(link.connected).toBe(false));
    for (let i = 1; i <= 6; i++) link.send([sample(i)]);
    expect(link.counters()).toMatchObject({ inFlight: 1, buffered: 4, dropped: 2 });
    await link.stop(50);
    expect(link.counters()).toMatchObject({ inFlight: 0, buffered: 0, dropped: 7, acknowledged: 0 });
  });
});
