import { pingDb } from '@kontrol/db';
import type { FastifyInstance } from 'fastify';

/**
 * Probes for orchestrators and load balancers: `/healthz` says the process is up, `/readyz` that it
 * can serve (the database answers). Neither needs a session.
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await pingDb(app.db);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check: database does not answer');
      return reply.code(503).send({ status: 'unavailable', message: 'database does not answer' });
    }
  });
}
