import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Workspace packages export their TypeScript sources under the `source` condition, so tests run
 * against the sources without a build. The API and gateway suites run on SQLite, and also on
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it). Playwright specs (e2e/) are not Vitest's.
 */
// Not `module`: that condition names builds for bundlers (extensionless imports Node cannot load,
// e.g. @opentelemetry/api's, which prom-client imports), and the server-side tests run in Node.
const conditions = ['source', ...defaultServerConditions.filter((condition) => condition !== 'module')];
const postgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * The longest files start first, so the rest of the suite runs beside them instead of after them:
 * two minutes of a stalled reader on each database (docs/live-updates.md, "Reconnects") and a flood
 * of every device limit. Vitest otherwise runs its projects in name order.
 */
const startFirst = [
  'apps/api/src/modules/live/live-stalled.test.ts',
  'apps/gateway/src/limits/limits.test.ts',
];
class StartFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (file: TestSpecification) => startFirst.some((path) => file.moduleId.endsWith(path));
    return [...sorted.filter(first), ...sorted.filter((file) => !first(file))];
  }
}
/**
 * Console test files that need a module graph of their own: they start the console's one router
 * (`startRouter` keeps it for the page's life) or mock one of its modules.
 */
const ownModuleGraph = [
  'apps/console/src/app/app.test.tsx',
  'apps/console/src/app/addresses-routes.test.tsx',
  'apps/console/src/app/page-error.test.tsx',
];

/** The API projects' setup: argon2 at a test's cost (OWASP's baseline is checked on its own). */
const apiSetupFiles = ['apps/api/src/test/cheap-password-hashing.ts'];
/** Both console projects' setup: React's DevTools tasks off before React loads, then the DOM's gaps and msw. */
const consoleSetupFiles = ['apps/console/src/test/no-devtools-tasks.ts', 'apps/console/src/test/setup.ts'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    // Two more workers than cores: many API tests wait on sockets, SMTP, PostgreSQL or a stalled
    // reader, and the others run meanwhile (one worker per core left the cores idle a third of
    // the time).
    maxWorkers: availableParallelism() + 2,
    sequence: { sequencer: StartFirstSequencer },
    // A worker keeps its modules from one test file to the next: importing the app's and the UI
    // kit's modules again for each of 260 files was a third of the suite's time. Shared helpers
    // key what they remember by the app or database of the file (e.g. test/security/fixtures.ts).
    isolate: false,
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
          environment: 'happy-dom',
          // Not inherited without `extends`: the same limit as the Node projects.
          testTimeout: 20_000,
          include: ['apps/console/src/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...ownModuleGraph],
          isolate: false,
          setupFiles: consoleSetupFiles,
        },
      },
      {
        resolve: { conditions: ['source', ...defaultClientConditions] },
        test: {
          name: 'console-isolated',
          environment: 'happy-dom',
          testTimeout: 20_000,
          include: ownModuleGraph,
          setupFiles: consoleSetupFiles,
        },
      },
      {
        extends: true,
        test: {
          name: 'api-sqlite',
          include: ['apps/api/src/**/*.test.ts'],
          setupFiles: apiSetupFiles,
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
                setupFiles: apiSetupFiles,
                env: { KONTROL_TEST_DIALECT: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
