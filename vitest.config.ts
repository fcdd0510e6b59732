import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Workspace packages export their TypeScript sources under the `source` condition, so tests run
 * against the sources without a build. The API and gateway suites run on SQLite, and also on
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it). Playwright specs (e2e/) are not Vitest's.
 */
// Not `module`: that condition names builds for bundlers (extensionless imports Node cannot load,
// e.g. @opentelemetry/api's, which prom-client imports), and the server-side tests run in Node.
const conditions = ['source', ...defaultServerConditions.filter((condition) => condition !== 'module')];
const postgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a two-core machine,
    // with the other core idle. Its main process only collects results, so use both.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'packages', include: ['packages/*/src/**/*.test.ts'] } },
      // The repository's own tooling: the lint configuration's boundaries.
      { extends: true, test: { name: 'tooling', include: ['tooling/**/*.test.ts'] } },
      { extends: true, test: { name: 'simulator', include: ['apps/simulator/src/**/*.test.ts'] } },
      // The gateway's units and its integration on a fresh database per file (src/test/).
      {
        extends: true,
        test: {
          name: 'gateway-sqlite',
          include: ['apps/gateway/src/**/*.test.ts'],
          env: { KONTROL_TEST_DIALECT: 'sqlite' },
        },
      },
      {
        // Component tests of the console in a DOM; the network is faked at the HTTP boundary (msw).
        resolve: { conditions: ['source', ...defaultClientConditions] },
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['apps/console/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/console/src/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api-sqlite',
          include: ['apps/api/src/**/*.test.ts'],
          env: { KONTROL_TEST_DIALECT: 'sqlite' },
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'gateway-postgres',
                include: ['apps/gateway/src/**/*.test.ts'],
                env: { KONTROL_TEST_DIALECT: 'postgres' },
              },
            },
            {
              extends: true as const,
              test: {
                name: 'api-postgres',
                include: ['apps/api/src/**/*.test.ts'],
                env: { KONTROL_TEST_DIALECT: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
