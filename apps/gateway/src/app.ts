import { pickLocale, translate } from '@kontrol/contracts';
import type { DatabaseHandle } from '@kontrol/db';
import {
  clientErrorHandler,
  type Config,
  dbPlugin,
  errorsPlugin,
  frameworkErrors,
  healthRoutes,
  httpTimeoutOptions,
  limitHttpServer,
  loggerOptions,
  type Metrics,
  securityHeadersFor,
} from '@kontrol/server-kit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Gateway } from './gateway.js';
import { gatewayMqtt } from './gateway-mqtt.js';
import { watchGateway } from './metrics.js';

export interface GatewayAppOptions {
  config: Config;
  /** Migrated already (`main.ts` migrates first). */
  database: DatabaseHandle;
  /** Fastify's logger; by default the configured level. */
  logger?: FastifyServerOptions['logger'];
  /** Prometheus metrics of this process: its requests, the gateway and the pool are counted. */
  metrics?: Metrics;
}

/**
 * A gateway process's HTTP side and its gateway, not yet listening (`main.ts` listens; tests
 * `inject` or listen on a port of their own): the device routes with `/healthz` and `/readyz`,
 * the error shape and security headers of every Kontrol answer, and the MQTT side from the
 * settings (always consumed: a gateway process exists to take devices' messages).
 */
export async function buildGatewayApp({
  config,
  database,
  logger,
  metrics,
}: GatewayAppOptions): Promise<{ app: FastifyInstance; gateway: Gateway }> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel),
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
  return { app, gateway };
}
