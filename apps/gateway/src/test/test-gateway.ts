import type { Database } from '@kontrol/db';
import { createTestDatabase, type TestDatabase } from '@kontrol/db/testing';
import { type Config, loadConfig } from '@kontrol/server-kit';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { buildGatewayApp } from '../app.js';
import type { Gateway } from '../gateway.js';

export interface TestGateway {
  /** The gateway process's HTTP side (device routes, probes), ready for `inject`. */
  app: FastifyInstance;
  gateway: Gateway;
  database: TestDatabase;
  db: Kysely<Database>;
  config: Config;
  close(): Promise<void>;
}

/**
 * A gateway process as `main.ts` builds it, on a fresh migrated database of its own; with `mqtt`,
 * its embedded broker on a free port (`gateway.broker.port`). Nothing is mocked.
 */
export async function buildTestGateway(
  env: Record<string, string> = {},
  options: { mqtt?: boolean } = {},
): Promise<TestGateway> {
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    MQTT_PORT: options.mqtt ? '0' : 'off',
    MQTT_HOST: '127.0.0.1',
    // Tests run the "no data" check themselves.
    RULES_NO_DATA_CHECK_SECONDS: '0',
    ...env,
  });
  try {
    const { app, gateway } = await buildGatewayApp({ config, database: database.handle, logger: false });
    await app.ready();
    return {
      app,
      gateway,
      database,
      db: database.handle.db,
      config,
      close: async () => {
        await app.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/**
 * The test file's gateway ({@link buildTestGateway}): built in `beforeAll`, closed in `afterAll`;
 * its properties read the running one, so read them inside tests and hooks only.
 */
export function useTestGateway(
  options: { mqtt?: boolean; env?: Record<string, string> } = {},
): Omit<TestGateway, 'close'> {
  let running: TestGateway | undefined;
  beforeAll(async () => {
    running = await buildTestGateway(options.env, { mqtt: options.mqtt });
  });
  afterAll(async () => {
    const stopping = running;
    running = undefined;
    await stopping?.close();
  });
  const current = () => {
    if (!running) throw new Error('useTestGateway: read it inside tests or hooks, not at module level');
    return running;
  };
  return {
    get app() {
      return current().app;
    },
    get gateway() {
      return current().gateway;
    },
    get database() {
      return current().database;
    },
    get db() {
      return current().db;
    },
    get config() {
      return current().config;
    },
  };
}
