import { pickLocale, translate } from '@kontrol/contracts';
import { createDb, migrateToLatest } from '@kontrol/db';
import Fastify from 'fastify';
import { Gateway } from './gateway.js';
import { gatewayMqtt } from './gateway-mqtt.js';
import { watchGateway } from './metrics.js';
import { PortInUseError } from './mqtt/embedded-broker.js';
import {
  clientErrorHandler,
  ConfigError,
  dbPlugin,
  errorsPlugin,
  frameworkErrors,
  healthRoutes,
  httpTimeoutOptions,
  installCrashLogging,
  limitHttpServer,
  listenOrExit,
  loadConfig,
  loggerOptions,
  Metrics,
  securityHeadersFor,
} from '@kontrol/server-kit';

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
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    ...httpTimeoutOptions,
    frameworkErrors,
    clientErrorHandler,
  });
  limitHttpServer(app, config.httpMaxConnections);
  metrics?.instrument(app);
  metrics?.watchDatabase(database);
  app.decorateRequest('locale', 'ru');
  app.addHook('onRequest', async (request, reply) => {
    request.locale = pickLocale(request.headers['accept-language']);
    reply.headers(securityHeadersFor(request.url));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ message: translate(request.locale, 'http.not_found') }),
  );

  // Whichever process starts first brings the schema up; the others wait on Kysely's lock.
  const { applied } = await migrateToLatest(database.db);
  app.log.info({ database: database.safeUrl, applied }, 'database ready');

  await app.register(errorsPlugin);
  await app.register(dbPlugin, { database });
  await app.register(healthRoutes);
  const gateway = await Gateway.start({
    database,
    log: app.log,
    rawRetentionDays: config.telemetryRawDays,
    mqtt: gatewayMqtt({ ...config, mqttConsume: true }, true),
    noDataEveryMs: config.rulesNoDataCheckSeconds * 1000,
    limits: config.deviceLimits,
  });
  if (metrics) watchGateway(metrics.registry, gateway);
  app.addHook('onClose', () => gateway.close());
  await gateway.registerHttpIngest(app);

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
