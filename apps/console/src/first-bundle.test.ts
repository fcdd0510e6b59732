import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { CONSOLE_PRELOADS_FILE, type ConsolePreloads } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_FRAME_MODULE, ACCOUNT_PAGE_MODULES } from './app/account-pages';

const SRC = dirname(fileURLToPath(import.meta.url));
const CONTRACTS = resolve(SRC, '../../../packages/contracts/src');

/** A module's static imports that carry values (type-only imports and `import()` are left out). */
interface ModuleImports {
  /** Module specifier → the value names imported from it (`*` for a namespace or side effect). */
  values: Map<string, Set<string>>;
  /** Value names the module itself exports by declaration. */
  exported: Set<string>;
}

function readImports(file: string): ModuleImports {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const values = new Map<string, Set<string>>();
  const exported = new Set<string>();
  const add = (specifier: string, name: string) => {
    const names = values.get(specifier) ?? new Set<string>();
    names.add(name);
    values.set(specifier, names);
  };
  const isExported = (node: ts.Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const specifier = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      if (!clause) add(specifier, '*');
      else if (!clause.isTypeOnly) {
        if (clause.name) add(specifier, 'default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) add(specifier, '*');
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements)
            if (!element.isTypeOnly) add(specifier, (element.propertyName ?? element.name).text);
      }
    } else if (
      ts.isExportDeclaration(statement) &&
      !statement.isTypeOnly &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      add(statement.moduleSpecifier.text, '*');
    } else if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) exported.add(declaration.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      isExported(statement) &&
      statement.name
    ) {
      exported.add(statement.name.text);
    }
  }
  return { values, exported };
}

/** `./x`, `./x.js` → the TypeScript file the bundler reads. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  return ['.ts', '.tsx', '/index.ts', '/index.tsx']
    .map((ending) => base + ending)
    .find((file) => existsSync(file));
}

/**
 * Every module a page starts with: the entries (main.tsx first) and what they import statically,
 * with the names they take from @kontrol/contracts and the packages they import.
 */
function startingModules(entries: readonly string[]) {
  const modules = new Set<string>();
  const contractNames = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const [specifier, names] of readImports(file).values) {
      const from = relative(SRC, file);
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (target) visit(target); // else a stylesheet or a JSON catalogue
      } else if (specifier === '@kontrol/contracts') {
        for (const name of names) contractNames.set(name, [...(contractNames.get(name) ?? []), from]);
      } else {
        packages.set(specifier, [...(packages.get(specifier) ?? []), from]);
      }
    }
  };
  for (const entry of entries) visit(join(SRC, entry));
  return { modules, contractNames, packages };
}

/** Whether a contracts module, or any module it imports values from, imports zod. */
function reachesZod(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  for (const specifier of readImports(file).values.keys()) {
    if (specifier === 'zod' || specifier.startsWith('zod/')) return true;
    const target = specifier.startsWith('.') ? resolveRelative(file, specifier) : undefined;
    if (target && reachesZod(target, seen)) return true;
  }
  return false;
}

/** What of `entries` evaluates zod: names taken from the contracts whose module reaches it, or zod itself. */
function zodOnTheWay(entries: readonly string[]): string[] {
  const { contractNames, packages } = startingModules(entries);
  const index = join(CONTRACTS, 'index.ts');
  const declaredIn = new Map<string, string>();
  for (const specifier of readImports(index).values.keys()) {
    const file = resolveRelative(index, specifier);
    if (file) for (const name of readImports(file).exported) declaredIn.set(name, file);
  }
  expect(contractNames.size).toBeGreaterThan(0);
  const heavy = [...contractNames]
    .map(([name, users]) => {
      const file = declaredIn.get(name);
      if (!file) return `${name}: not declared in any module of the contracts' index`;
      return reachesZod(file)
        ? `${name} (${relative(CONTRACTS, file)}, imports zod), taken by ${users.join(', ')}`
        : undefined;
    })
    .filter((line) => line !== undefined);
  for (const [name, users] of packages)
    if (name === 'zod' || name.startsWith('zod/')) heavy.push(`${name}, imported by ${users.join(', ')}`);
  return heavy;
}

// zod and the schemas it builds cost the initial JavaScript budget 26 KB gzipped and a phone about
// 120 ms of start-up (docs/benchmarks.md): the contracts keep what these modules need in zod-free
// files (equipment-constants.ts, acl-constants.ts, reference-lists.ts, constants.ts).
describe('zod stays off the way to the first screens', () => {
  it("the login page's first bundle evaluates none", () => {
    expect(zodOnTheWay(['main.tsx'])).toEqual([]);
  });

  it('nor does the account frame and the dashboard on top of it', () => {
    expect(
      zodOnTheWay([
        'main.tsx',
        'app/layout/account-layout.tsx',
        'features/dashboard/routes/dashboard-page.tsx',
      ]),
    ).toEqual([]);
  });
});

describe("the console's build", () => {
  it("holds the login page to one chunk within the budget of docs/benchmarks.md (200 KB gzipped), and lists each account page's chunks for the server", async () => {
    const { build } = await import('vite');
    const outDir = mkdtempSync(join(tmpdir(), 'console-first-bundle-'));
    // Vite builds for production only when NODE_ENV says so (Vitest sets `test`).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        root: resolve(SRC, '..'),
        configFile: resolve(SRC, '../vite.config.ts'),
        mode: 'production',
        logLevel: 'silent',
        build: { outDir, emptyOutDir: true },
      });
      const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
        string,
        { file: string; imports?: string[] }
      >;
      const loaded = new Set<string>();
      const visit = (key: string) => {
        if (loaded.has(key)) return;
        loaded.add(key);
        for (const imported of manifest[key]?.imports ?? []) visit(imported);
      };
      visit('index.html');
      const files = [...loaded].map((key) => manifest[key]?.file ?? key);
      const gzipped = files.reduce(
        (sum, file) => sum + gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length,
        0,
      );
      // One request: the entry and nothing it imports from another chunk.
      expect(files).toEqual([expect.stringMatching(/^assets\/index-[\w-]+\.js$/)]);
      expect(gzipped).toBeLessThanOrEqual(200_000);

      // What the server preloads (CONSOLE_PRELOADS_FILE): for the frame and each page, its own
      // chunk first, then those it imports, every one a file of the build the entry does not load.
      const preloads = JSON.parse(
        readFileSync(join(outDir, CONSOLE_PRELOADS_FILE), 'utf8'),
      ) as ConsolePreloads;
      expect(Object.keys(preloads.pages).sort()).toEqual(Object.keys(ACCOUNT_PAGE_MODULES).sort());
      const listed: [string, ConsolePreloads['frame']][] = [
        [ACCOUNT_FRAME_MODULE, preloads.frame],
        ...Object.entries(ACCOUNT_PAGE_MODULES).map(
          ([segment, module]): [string, ConsolePreloads['frame']] => [module, preloads.pages[segment]!],
        ),
      ];
      for (const [module, needs] of listed) {
        expect(needs.scripts[0], module).toBe(manifest[module]?.file);
        for (const file of [...needs.scripts, ...needs.styles]) {
          expect(existsSync(join(outDir, file)), file).toBe(true);
          expect(files, file).not.toContain(file);
        }
      }
      expect(preloads.frame.styles.length).toBeGreaterThan(0);
    } finally {
      process.env.NODE_ENV = nodeEnv;
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 120_000);
});
