import type { FullConfig } from '@playwright/test';
import { buildIfNeeded, seedFixtures, startServer, waitForReady } from '../test-support/server.mjs';

/**
 * Builds what is missing, starts the real server on a free port with a fresh SQLite database
 * (DEMO=0, LOG_LEVEL=warn) and the sandbox payment provider turned on (PAYMENT_PROVIDER=sandbox:
 * off by default; billing.spec.ts pays on its page), waits for /readyz and seeds the logins
 * through the operator CLI.
 * The tests read the base URL from PLAYWRIGHT_TEST_BASE_URL and the logins from E2E_FIXTURES
 * (e2e/support/fixtures.ts); workers inherit both. global-teardown.ts stops the server.
 *
 * `E2E_BASE_URL=http://127.0.0.1:8080`: use that running server instead (started with
 * `PAYMENT_PROVIDER=sandbox` for the billing spec); its database (the `DATABASE_URL` in this
 * environment, the CLI's default otherwise) gets a new organisation with unique e-mails on every
 * run.
 */
export default async function globalSetup(_config: FullConfig) {
  const external = process.env.E2E_BASE_URL?.replace(/\/+$/, '');
  if (external) {
    execute(() => buildIfNeeded());
    await waitForReady(external, { timeoutMs: 10_000 });
    const fixtures = seedFixtures({
      databaseUrl: process.env.DATABASE_URL ?? 'sqlite:./data/kontrol.db',
      suffix: `-${Date.now().toString(36)}`,
    });
    process.env.PLAYWRIGHT_TEST_BASE_URL = external;
    process.env.E2E_FIXTURES = JSON.stringify(fixtures);
    process.env.E2E_DATABASE_URL = process.env.DATABASE_URL ?? 'sqlite:./data/kontrol.db';
    return;
  }

  execute(() => buildIfNeeded());
  const server = await startServer({ env: { PAYMENT_PROVIDER: 'sandbox' } });
  try {
    const fixtures = seedFixtures({ databaseUrl: server.databaseUrl });
    process.env.PLAYWRIGHT_TEST_BASE_URL = server.baseURL;
    process.env.E2E_FIXTURES = JSON.stringify(fixtures);
    // Specs run the operator CLI on the same database (login links).
    process.env.E2E_DATABASE_URL = server.databaseUrl;
    process.env.E2E_SERVER_PID = String(server.pid);
    process.env.E2E_SERVER_DIR = server.dir;
    process.env.E2E_SERVER_LOG = server.logFile;
    console.log(`e2e: Kontrol at ${server.baseURL} (log ${server.logFile})`);
  } catch (error) {
    await server.stop();
    throw error;
  }
}

function execute(step: () => void) {
  try {
    step();
  } catch (error) {
    throw new Error(`e2e global setup: the build failed: ${(error as Error).message}`, { cause: error });
  }
}
