import type { Database } from '@kontrol/db';
import type { FastifyInstance } from 'fastify';
import type { Kysely, LogConfig } from 'kysely';
import type { DestinationStream } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { Gateway } from '@kontrol/gateway';
import { buildAllInOneApp } from '../all-in-one/app.js';
import { type Config, loadConfig, type Metrics } from '@kontrol/server-kit';
import { TestClock } from './clock.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.js';
import { createTestDatabase, type TestDatabase } from '@kontrol/db/testing';

export interface TestApp {
  app: FastifyInstance;
  /** The app's gateway (its broker, pipeline, rules and counters), as the process entry composes it. */
  gateway: Gateway;
  database: TestDatabase;
  config: Config;
  /** The time of the app's Telegram sender and live hub: a test moves it on instead of sleeping. */
  clock: TestClock;
  close(): Promise<void>;
}

/** The real API on a real, empty, migrated database of its own; nothing is mocked. */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: {
    runsMqtt?: boolean;
    metrics?: Metrics;
    logStream?: DestinationStream;
    /** Kysely's log of the app's database: a test that reads the statements the routes run. */
    dbLog?: LogConfig;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase({ log: options.dbLog });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DEMO: '0',
    APP_URL: 'http://kontrol.test',
    CONSOLE_DIST: '/nonexistent',
    DATABASE_URL: database.url,
    // The embedded MQTT broker, when a test asks for it, on a free port of its own.
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    // Tests run the "no data" check themselves.
    RULES_NO_DATA_CHECK_SECONDS: '0',
    ...env,
  });
  const clock = new TestClock();
  const { app, gateway } = await buildAllInOneApp({
    config,
    clock,
    database: database.handle,
    // Silent unless a test reads the log (its level is then the env's LOG_LEVEL).
    logger: options.logStream ? undefined : false,
    logStream: options.logStream,
    runsMqtt: options.runsMqtt ?? false,
    metrics: options.metrics,
  });
  await app.ready();
  return {
    app,
    gateway,
    database,
    config,
    clock,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** The test file's app, as {@link useTestApp} returns it; usable in tests and hooks only. */
export interface TestContext {
  readonly app: FastifyInstance;
  /** The app's gateway ({@link TestApp.gateway}). */
  readonly gateway: Gateway;
  /** The app's database (`database.handle.db`). */
  readonly db: Kysely<Database>;
  readonly config: Config;
  readonly database: TestDatabase;
  /** {@link TestApp.clock} */
  readonly clock: TestClock;
}

export interface SmtpTestContext extends TestContext {
  /** The SMTP server the app sends to (its SMTP_URL). */
  readonly smtp: TestSmtpServer;
}

export interface UseTestAppOptions {
  /** Start a test SMTP server first and point the app's SMTP_URL at it. */
  smtp?: boolean;
  /** More environment for the app's configuration (see {@link buildTestApp}). */
  env?: Record<string, string>;
  /**
   * Run the MQTT side: the embedded broker on a free port (`gateway.broker.port`), or, with
   * `MQTT_URL` in `env`, the external broker's subscriptions.
   */
  runsMqtt?: boolean;
  /** Kysely's log of the app's database ({@link buildTestApp}). */
  dbLog?: LogConfig;
}

/**
 * The app of a test file (or of a `describe`): built in `beforeAll`, closed in `afterAll`, with
 * a test SMTP server of its own when `smtp` is set. The returned object's properties read the
 * running app; read before `beforeAll` ran (e.g. at module level) or after `afterAll`, they throw.
 */
export function useTestApp(options: UseTestAppOptions & { smtp: true }): SmtpTestContext;
export function useTestApp(options?: UseTestAppOptions & { smtp?: false }): TestContext;
export function useTestApp(options?: UseTestAppOptions): TestContext & { readonly smtp?: TestSmtpServer };
export function useTestApp(
  options: UseTestAppOptions = {},
): TestContext & { readonly smtp?: TestSmtpServer } {
  let running: { built: TestApp; smtp?: TestSmtpServer } | undefined;

  beforeAll(async () => {
    const smtp = options.smtp ? await startSmtpServer() : undefined;
    try {
      const built = await buildTestApp(
        { ...options.env, ...(smtp ? { SMTP_URL: smtp.url } : {}) },
        { runsMqtt: options.runsMqtt, dbLog: options.dbLog },
      );
      running = { built, smtp };
    } catch (error) {
      await smtp?.close();
      throw error;
    }
  });
  afterAll(async () => {
    const stopping = running;
    running = undefined;
    if (!stopping) return;
    try {
      await stopping.built.close();
    } finally {
      await stopping.smtp?.close();
    }
  });

  const current = () => {
    if (!running) {
      throw new Error(
        'useTestApp: the test app is not running; read its properties inside tests or hooks, ' +
          'not at module level (it is built in beforeAll and closed in afterAll)',
      );
    }
    return running;
  };
  const context: SmtpTestContext = {
    get app() {
      return current().built.app;
    },
    get gateway() {
      return current().built.gateway;
    },
    get db() {
      return current().built.database.handle.db;
    },
    get config() {
      return current().built.config;
    },
    get database() {
      return current().built.database;
    },
    get clock() {
      return current().built.clock;
    },
    get smtp() {
      const { smtp } = current();
      if (!smtp)
        throw new Error('useTestApp: this test app has no SMTP server (ask for one with { smtp: true })');
      return smtp;
    },
  };
  return context;
}
