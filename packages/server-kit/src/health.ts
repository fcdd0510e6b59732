import { pingDb } from '@kontrol/db';
import type { FastifyInstance } from 'fastify';

/**
 * How long /readyz waits for `select 1`. A database that is stopped refuses at once; one that is
 * frozen (a paused machine, a network partition, an overloaded server) would keep the probe
 * waiting for as long as the connection lives, so past this it counts as not answering.
 */
export const READY_TIMEOUT_MS = 2_000;

class PingTimeout extends Error {
  constructor() {
    super(`no answer to select 1 within ${READY_TIMEOUT_MS} ms`);
  }
}

/** `pingDb`, given up on after {@link READY_TIMEOUT_MS} (the query itself is left to finish). */
async function pingWithin(app: FastifyInstance): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      pingDb(app.db),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PingTimeout()), READY_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for orchestrators and load balancers: `/healthz` says the process is up, `/readyz` that it
 * can serve (the database answers `select 1` within {@link READY_TIMEOUT_MS}). Neither needs a
 * session. A full or read-only disk leaves /readyz at 200: reads are still served, and writes say
 * what is wrong (docs/operations.md, "Faults").
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await pingWithin(app);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check: database does not answer');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ status: 'unavailable', message: 'database does not answer' });
    }
  });
}
