import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../plugins/config.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/** The real API on a real, empty, migrated database of its own; nothing is mocked. */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DEMO: '0',
    APP_URL: 'http://kontrol.test',
    CONSOLE_DIST: '/nonexistent',
    DATABASE_URL: database.url,
    ...env,
  });
  const app = await buildApp({ config, database: database.handle, logger: false });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
