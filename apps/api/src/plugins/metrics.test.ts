import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice } from '../test/builders.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { loadConfig, Metrics } from '@kontrol/server-kit';

let test: TestApp;
let metrics: Metrics;

beforeAll(async () => {
  metrics = new Metrics('api');
  test = await buildTestApp({}, { metrics });
});
afterAll(async () => {
  await test.close();
});

/** The value of one series in the registry's Prometheus text (undefined when absent). */
async function series(name: string, labels: string): Promise<number | undefined> {
  const text = await metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('Prometheus metrics', () => {
  it('are off unless METRICS_PORT is set, and bound to loopback by default', () => {
    expect(loadConfig({}).metrics).toBe(false);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(() => loadConfig({ METRICS_PORT: 'on' })).toThrow(/METRICS_PORT/);
  });

  it('count answers by route pattern and status, never by the raw URL', async () => {
    await test.app.inject({ method: 'GET', url: '/healthz' });
    await test.app.inject({ method: 'GET', url: '/healthz' });
    await test.app.inject({ method: 'GET', url: '/api/devices/12345' });
    await test.app.inject({ method: 'GET', url: '/no/such/page/999' });
    expect(await series('kontrol_http_requests_total', 'method="GET",route="/healthz",status="200"')).toBe(2);
    const text = await metrics.registry.metrics();
    // The route as declared, its id pattern and all: one series for every device.
    expect(text).toMatch(
      /kontrol_http_requests_total\{method="GET",route="\/api\/devices\/:id[^"]*",status="401"[^}]*\} 1/,
    );
    expect(text).not.toContain('12345');
    expect(text).not.toContain('/no/such/page');
    expect(text).toMatch(/kontrol_http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*\} 2/);
    expect(text).toContain('role="api"');
  });

  it("show the gateway's ingest: messages, samples by result, batches and queues", async () => {
    const org = await buildOrganisation(test.database.handle.db);
    const device = await buildSmartDevice(test.database.handle.db, org.organisationId);
    const ts = Date.now() - 60_000;
    const sample = { ts, current: 1, temperature: 20, door_open: false, state: 'idle' };
    const post = (body: unknown) =>
      test.app.inject({
        method: 'POST',
        url: '/api/ingest/v1/telemetry',
        headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    expect((await post([sample, { ...sample, ts: ts + 1 }])).statusCode).toBe(202);
    expect((await post([sample, { ...sample, ts: 'yesterday' }])).statusCode).toBe(202);
    expect(await series('kontrol_ingest_messages_total', 'transport="http"')).toBe(2);
    expect(await series('kontrol_ingest_samples_total', 'result="stored"')).toBe(2);
    expect(await series('kontrol_ingest_samples_total', 'result="duplicate"')).toBe(1);
    expect(await series('kontrol_ingest_samples_total', 'result="rejected"')).toBe(1);
    expect(await series('kontrol_ingest_batches_total', 'role="api"')).toBeGreaterThanOrEqual(1);
    expect(await series('kontrol_ingest_queue_samples', 'role="api"')).toBe(0);
    expect(await series('kontrol_mqtt_broker_connections', 'state="configured"')).toBe(0);
    expect(await metrics.registry.metrics()).toContain('kontrol_process_cpu_seconds_total');
  });

  it('are served at /metrics on a port of their own, and nothing else is', async () => {
    const server = await metrics.serve({ host: '127.0.0.1', port: 0 });
    try {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/plain');
      expect(await answer.text()).toContain('kontrol_http_requests_total');
      expect((await fetch(`http://127.0.0.1:${port}/api/devices/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
