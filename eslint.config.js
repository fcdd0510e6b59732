// ESLint flat config: type-aware rules for all TypeScript (no-floating-promises and friends),
// plain recommended rules for the few JavaScript files, and the architecture's boundaries
// (docs/architecture.md, "Boundaries the linter enforces"): no import cycle anywhere, console
// features that never import each other, the API's layers in one direction, the rules of hooks.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CONSOLE = 'apps/console/src';
const FEATURES = readdirSync(`${CONSOLE}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const SHARED = ['components', 'config', 'early', 'hooks', 'lib', 'test'].map(
  (folder) => `${CONSOLE}/${folder}`,
);
const API = 'apps/api/src';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'playwright.config.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins and handlers are async by convention, with or without an await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // How import-x reads the modules a file imports (for cycles): TypeScript's parser, without types.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ['tsconfig.json', 'apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...FEATURES.map((feature) => ({
              target: `${CONSOLE}/features/${feature}`,
              from: `${CONSOLE}/features`,
              except: [`./${feature}`],
              message:
                'Console features never import each other: move what both need to lib/ or components/, or compose them in app/ (apps/console/src/features/README.md).',
            })),
            {
              target: SHARED,
              from: [`${CONSOLE}/features`, `${CONSOLE}/app`],
              message:
                'Shared console code never imports a feature or the app (apps/console/src/features/README.md).',
            },
            {
              target: `${CONSOLE}/features`,
              from: `${CONSOLE}/app`,
              message: 'Features never import the app that composes them (apps/console/src/app/README.md).',
            },
            {
              target: `${API}/**/*.repository.ts`,
              from: [`${API}/**/*.service.ts`, `${API}/**/*.routes.ts`],
              message:
                'Repositories hold SQL only: they never import a service or a route (docs/architecture.md).',
            },
            {
              target: `${API}/**/*.service.ts`,
              from: [`${API}/**/*.routes.ts`],
              message: 'Services never import routes: routes call services (docs/architecture.md).',
            },
            {
              target: `${API}/**/*.routes.ts`,
              from: [`${API}/**/*.repository.ts`],
              message:
                'Routes reach the database through a service, never a repository (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
);
