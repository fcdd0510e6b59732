import { createDb, migrateToLatest } from '@kontrol/db';
import { buildApp } from './app.js';
import { DEMO_LOGIN, seedDemoIfEmpty } from './modules/demo/demo.seed.js';
import { purgeExpired } from './modules/maintenance.js';
import { ConfigError, loadConfig } from './plugins/config.js';

const MAINTENANCE_INTERVAL_MS = 10 * 60_000;
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * `npm start`: migrate, seed the demo on an empty database, serve the API and the console, and
 * shut down gracefully on SIGTERM/SIGINT (stop accepting, finish in-flight requests, close the
 * database).
 */
async function main() {
  const config = loadConfig();
  const database = createDb(config.databaseUrl, { poolMax: config.databasePoolMax });
  const { applied } = await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  app.log.info({ database: database.safeUrl, applied }, 'database ready');

  if (config.demo && (await seedDemoIfEmpty(database.db))) {
    app.log.info(
      `demo organisation created — sign in at ${config.appUrl}/auth/login as ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`,
    );
  }
  app.mail.start();
  const maintenance = setInterval(() => {
    purgeExpired(app).catch((error: unknown) => app.log.warn({ err: error }, 'maintenance failed'));
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(maintenance);
    // Requests in flight get a grace period; a client that leaves its connection open (a body it
    // never reads) is then cut off, so shutdown always completes.
    const grace = setTimeout(() => {
      app.log.warn(`connections still open after ${SHUTDOWN_GRACE_MS / 1000} s; closing them`);
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    grace.unref();
    const force = setTimeout(() => {
      app.log.error('graceful shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 10_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE') {
      app.log.fatal(`port ${config.port} on ${config.host} is already in use; set PORT to another one`);
    } else {
      app.log.fatal({ err: error }, 'could not start listening');
    }
    await database.close();
    process.exit(1);
  }
  app.log.info(`Kontrol is running at ${config.appUrl}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Kontrol failed to start:', error);
  process.exit(1);
});
