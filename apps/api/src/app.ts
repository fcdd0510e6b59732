import cookie from '@fastify/cookie';
import type { DeviceLimitSettings } from '@kontrol/contracts';
import type { DatabaseHandle } from '@kontrol/db';
import type { DeviceAccounts } from '@kontrol/domain';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import querystring from 'node:querystring';
import qs from 'qs';
import type { DestinationStream } from 'pino';
import { aclRoutes } from './modules/acl/acl.routes.js';
import { addressesRoutes } from './modules/addresses/addresses.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { deviceEventsRoutes } from './modules/device-events/device-events.routes.js';
import { deviceGroupsRoutes } from './modules/device-groups/device-groups.routes.js';
import { deviceTypesRoutes } from './modules/device-types/device-types.routes.js';
import { deviceServiceLogRoutes } from './modules/devices/device-service-log.routes.js';
import { devicesRoutes } from './modules/devices/devices.routes.js';
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
  securityPlugin,
} from '@kontrol/server-kit';
import { LiveHub } from './modules/live/live.hub.js';
import { liveRoutes } from './modules/live/live.routes.js';
import { MailService } from './modules/mail/mail.service.js';
import { TelegramService } from './modules/telegram/telegram.service.js';
import { NotificationDispatcher } from './modules/notification-delivery/notification-delivery.service.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { recipeDeployRoutes } from './modules/recipe-deploy/recipe-deploy.routes.js';
import { recipesRoutes } from './modules/recipes/recipes.routes.js';
import { roomsRoutes } from './modules/rooms/rooms.routes.js';
import { telemetryRoutes } from './modules/telemetry/telemetry.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { complaintsRoutes } from './modules/complaints/complaints.routes.js';
import { supportMessagesRoutes } from './modules/support-messages/support-messages.routes.js';
import { integrationsRoutes } from './modules/integrations/integrations.routes.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { authPlugin } from './plugins/auth.js';
import { consolePlugin } from './plugins/console.js';
import { formBodyParser } from './lib/forms.js';
import { openApiPlugin } from './plugins/openapi.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { serializerCompiler } from './lib/serializer.js';
import { validatorCompiler } from './lib/zod.js';
import { systemClock, type Clock } from './lib/clock.js';
import { answerKeptFirst, KeptAnswers } from './lib/kept-answers.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    mail: MailService;
    /** The Telegram bot: deep links, update polling and the Telegram outbox (docs/integrations.md). */
    telegram: TelegramService;
    /** Hands new notifications to e-mail and Telegram (docs/notifications.md); server.ts starts it. */
    notifier: NotificationDispatcher;
    /** This process's live streams, `GET /api/live` (docs/live-updates.md). */
    live: LiveHub;
    /** List answers kept while what they were built from has not changed (lib/kept-answers.ts). */
    keptAnswers: KeptAnswers;
    /** The device side, as the API uses it ({@link DeviceSide}). */
    gateway: DeviceSide;
  }
}

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Fastify's logger; by default {@link loggerOptions} at the configured level, into `logStream` if given. */
  logger?: FastifyServerOptions['logger'];
  logStream?: DestinationStream;
  /**
   * Starts the device side for this app (telemetry ingest, brokers, rules, recipe delivery) and
   * registers its HTTP routes on it. The process entry composes it: `all-in-one/app.ts`.
   */
  deviceSide: (app: FastifyInstance) => Promise<DeviceSide>;
  /** Prometheus metrics of this process (METRICS_PORT): its requests and pool are counted. */
  metrics?: Metrics;
  /** The time of the parts that run on their own timers (Telegram, live); tests hand in their own. */
  clock?: Clock;
}

/**
 * What the API asks of the device side: the gateway (apps/gateway), which the process entry starts
 * and hands in, so that no module of the API depends on the gateway's code.
 */
export interface DeviceSide {
  /** Devices' accounts in the MQTT broker, kept in step with their credentials. */
  readonly accounts: DeviceAccounts;
  /** The per-device limits this process applies; a device's page shows them. */
  readonly limiter: { readonly settings: DeviceLimitSettings };
  /** Recipe delivery, in the process that runs MQTT: `kick` sends what is due now. */
  readonly programs: { kick(): void } | undefined;
  close(): Promise<void>;
}

const BRACKETS = /\[|%5b/i;

/**
 * The API as a Fastify instance: plugins first, then the domain modules, then the console and the
 * not-found handler. Listening and shutdown belong to server.ts, so tests can `inject` into it.
 */
export async function buildApp({
  config,
  database,
  logger,
  logStream,
  deviceSide,
  metrics,
  clock = systemClock,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel, logStream),
    trustProxy: config.trustProxy,
    // Bracket-form query strings (`filters[name][operator]=like`) as Laravel clients send them;
    // a flat one (`?page=1`, most requests) takes Node's faster parser, with the same result.
    routerOptions: {
      querystringParser: (query: string) =>
        BRACKETS.test(query)
          ? (qs.parse(query, { depth: 5, arrayLimit: 200, parameterLimit: 1000 }) as Record<string, unknown>)
          : { ...querystring.parse(query, '&', '=', { maxKeys: 1000 }) },
    },
    bodyLimit: 1024 * 1024,
    ...httpTimeoutOptions,
    frameworkErrors,
    clientErrorHandler,
  });
  limitHttpServer(app, config.httpMaxConnections);
  // While shutting down, answers in flight tell the client to close its connection, so no
  // keep-alive socket holds the shutdown open after the last response.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  metrics?.instrument(app);
  metrics?.watchDatabase(database);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // HTML forms and Laravel clients post urlencoded bodies: read wherever JSON is (lib/forms.ts).
  formBodyParser(app);
  app.decorate('config', config);
  app.decorate('keptAnswers', new KeptAnswers(config.keptAnswersMaxBytes));

  await app.register(errorsPlugin);
  await app.register(dbPlugin, { database });
  const mail = new MailService(database.db, app.log, { smtpUrl: config.smtpUrl, from: config.mailFrom });
  app.decorate('mail', mail);
  const telegram = new TelegramService(
    database.db,
    app.log,
    {
      token: config.telegramBotToken,
      apiRoot: config.telegramApiRoot,
    },
    clock,
  );
  app.decorate('telegram', telegram);
  const notifier = new NotificationDispatcher(database.db, app.log, mail, {
    appUrl: config.appUrl,
    onTelegramQueued: () => telegram.wake(),
  });
  app.decorate('notifier', notifier);
  const live = new LiveHub(database.db, app.log, config.liveSessionCheckSeconds * 1000, clock);
  app.decorate('live', live);
  app.addHook('preClose', (done) => {
    live.close();
    done();
  });
  app.addHook('onClose', () => notifier.stop());
  app.addHook('onClose', () => mail.stop());
  app.addHook('onClose', () => telegram.stop());

  await app.register(securityPlugin);
  await app.register(cookie);
  await app.register(authPlugin);
  answerKeptFirst(app, app.keptAnswers);
  await app.register(rateLimitPlugin);
  await app.register(openApiPlugin);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(aclRoutes);
  await app.register(deviceTypesRoutes);
  await app.register(devicesRoutes);
  await app.register(deviceServiceLogRoutes);
  await app.register(deviceGroupsRoutes);
  await app.register(deviceEventsRoutes);
  await app.register(dashboardRoutes);
  await app.register(addressesRoutes);
  await app.register(roomsRoutes);
  await app.register(telemetryRoutes);
  await app.register(notificationsRoutes);
  await app.register(recipesRoutes);
  await app.register(liveRoutes);
  await app.register(recipeDeployRoutes);
  await app.register(usersRoutes);
  await app.register(complaintsRoutes);
  await app.register(supportMessagesRoutes);
  await app.register(integrationsRoutes);
  await app.register(billingRoutes);

  const gateway = await deviceSide(app);
  app.decorate('gateway', gateway);
  app.addHook('onClose', () => gateway.close());

  await app.register(consolePlugin, { root: config.consoleDist });
  return app;
}
