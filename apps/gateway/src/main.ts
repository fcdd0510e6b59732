import { createDb, migrateToLatest } from '@kontrol/db';
import { ConfigError, installCrashLogging, listenOrExit, loadConfig, Metrics } from '@kontrol/server-kit';
import { buildGatewayApp } from './app.js';
import { PortInUseError } from './mqtt/embedded-broker.js';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * `npm run start:gateway`: a gateway process of its own, for deployments that run the device side
 * apart from the API (docs/deployment.md). It reads the same settings as the API and:
 * - takes devices' MQTT from the external broker (MQTT_URL) through the shared subscription, so
 *   several gateways split the devices' messages, or runs the embedded broker without MQTT_URL;
 * - serves devices' HTTP on PORT: the telemetry ingest and the recipe files, with `/healthz` and
 *   `/readyz` for the load balancer;
 * - runs the event rules on what it stores and sends recipes to devices;
 * - serves Prometheus metrics on METRICS_PORT.
 * API processes beside it are started with MQTT_CONSUME=0, so only gateways take telemetry.
 * SIGTERM stops taking messages, writes what is waiting (a message is acknowledged only once
 * written) and exits.
 */
async function main() {
  installCrashLogging('gateway');
  const config = loadConfig();
  const metrics = config.metrics ? new Metrics('gateway') : undefined;
  const database = createDb(config.databaseUrl, {
    poolMax: config.databasePoolMax,
    poolIdleMs: config.databasePoolIdleMs,
  });
  // Whichever process starts first brings the schema up; the others wait on Kysely's lock.
  const { applied } = await migrateToLatest(database.db);
  const { app, gateway } = await buildGatewayApp({ config, database, metrics });
  app.log.info({ database: database.safeUrl, applied }, 'database ready');

  const metricsServer = metrics && config.metrics ? await metrics.serve(config.metrics) : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'gateway shutting down');
    const force = setTimeout(() => {
      app.log.error('graceful shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    metricsServer?.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await listenOrExit(app, config, async () => {
    await gateway.close();
    await database.close();
  });
  app.log.info(
    `Kontrol gateway is running: devices' HTTP at http://${config.host}:${config.port}` +
      (config.metrics ? `, metrics at http://${config.metrics.host}:${config.metrics.port}/metrics` : ''),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof PortInUseError) console.error(error.message);
  else console.error('Kontrol gateway failed to start:', error);
  process.exit(1);
});
