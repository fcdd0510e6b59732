import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

/**
 * Listens on HOST:PORT. When that fails (a port in use, most often) it says so as a fatal log line,
 * runs `cleanUp` (close what was opened) and ends the process with 1.
 */
export async function listenOrExit(
  app: FastifyInstance,
  config: Pick<Config, 'host' | 'port'>,
  cleanUp: () => Promise<void>,
): Promise<void> {
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      app.log.fatal(`port ${config.port} on ${config.host} is already in use; set PORT to another one`);
    } else {
      app.log.fatal({ err: error }, 'could not start listening');
    }
    await cleanUp();
    process.exit(1);
  }
}
