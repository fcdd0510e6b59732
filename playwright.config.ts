import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from './test-support/chromium.mjs';

/**
 * Browser tests of the console against the real server (e2e/global-setup.ts starts it on a free
 * port with a fresh SQLite database and seeds the logins; `E2E_BASE_URL` uses a running one).
 * Debian's Chromium only (its headless shell when installed, test-support/chromium.mjs): no browser
 * is downloaded. The base URL reaches the tests through PLAYWRIGHT_TEST_BASE_URL, which the global
 * setup sets.
 */
const ci = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: false,
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  // Two cores run the server and the browsers: two workers, each a spec file at a time.
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: ci ? 'list' : [['list'], ['html', { open: 'never' }]],
  use: {
    locale: 'ru-RU',
    // Recording a trace of every test costs CPU on each action (e2e 262 → 226 s on two cores): CI
    // records one when it retries a failed test, a local run (no retries) keeps the failed ones'.
    trace: ci ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS },
      },
    },
  ],
});
