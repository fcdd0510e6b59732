import { createServer, type Server, type Socket } from 'node:net';
import { createDb } from '@kontrol/db';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbPlugin } from './db-plugin.js';
import { healthRoutes, READY_TIMEOUT_MS } from './health.js';

/** The probes on a database at `url`, nothing else. */
async function probe(url: string) {
  const database = createDb(url, { poolMax: 2, onIdleError: () => {} });
  const app = Fastify({ logger: false });
  await app.register(dbPlugin, { database });
  await app.register(healthRoutes);
  try {
    const started = Date.now();
    const res = await app.inject('/readyz');
    return { res, ms: Date.now() - started };
  } finally {
    await app.close();
    void database.close(); // a pool waiting on the frozen server ends with the test's server
  }
}

describe('the readiness probe (docs/operations.md, "Probes" and "Faults")', () => {
  // A "PostgreSQL" that accepts connections and never answers: a frozen server, a paused machine.
  let frozen: Server;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    frozen = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => frozen.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => frozen.close(resolve));
  });

  it('answers 200 while the database answers', async () => {
    const { res } = await probe('sqlite::memory:');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('answers 503 at once when the database refuses connections', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const { res, ms } = await probe(`postgres://kontrol@127.0.0.1:${port}/kontrol`);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', message: 'database does not answer' });
    expect(ms).toBeLessThan(READY_TIMEOUT_MS);
  });

  it('answers 503 within its time limit when the database does not answer at all', async () => {
    const { port } = frozen.address() as { port: number };
    const { res, ms } = await probe(`postgres://kontrol@127.0.0.1:${port}/kontrol`);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(ms).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(READY_TIMEOUT_MS + 1_000);
  });
});
