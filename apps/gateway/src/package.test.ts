import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const WORKSPACES: Record<string, string> = Object.fromEntries(
  ['packages/contracts', 'packages/db', 'packages/domain', 'packages/server-kit', 'apps/gateway'].map(
    (folder) => [readManifest(folder).name, folder],
  ),
);

function readManifest(folder: string): Manifest {
  return JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as Manifest;
}

/** Every package a deployed gateway installs: its dependencies and theirs, through the workspace. */
function installed(folder: string, seen = new Set<string>()): Set<string> {
  for (const name of Object.keys(readManifest(folder).dependencies ?? {})) {
    if (seen.has(name)) continue;
    seen.add(name);
    const workspace = WORKSPACES[name];
    if (workspace) installed(workspace, seen);
    else if (name.startsWith('@kontrol/')) throw new Error(`${folder} depends on ${name}, outside the list`);
  }
  return seen;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // src/test/ is test support, not built (tsconfig.build.json): it may use Vitest.
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^'.][^']*)'/gm;

describe('the gateway package (docs/architecture.md, "Packages")', () => {
  it('installs neither the API nor what only the API needs', () => {
    const names = installed('apps/gateway');
    expect(names.has('@kontrol/server-kit')).toBe(true); // the walk reaches the workspace's packages
    for (const name of ['@kontrol/api', '@kontrol/simulator', 'pdfkit', 'grammy', 'nodemailer', 'archiver'])
      expect(names.has(name), name).toBe(false);
  });

  it('declares every package its code imports', () => {
    const manifest = readManifest('apps/gateway');
    const declared = new Set(Object.keys(manifest.dependencies ?? {}));
    const types = new Set(Object.keys(manifest.devDependencies ?? {}));
    const missing: string[] = [];
    for (const file of sources(join(ROOT, 'apps/gateway/src'))) {
      for (const [, typeOnly, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = specifier as string;
        if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
        const name = spec.startsWith('@')
          ? spec.split('/').slice(0, 2).join('/')
          : (spec.split('/')[0] as string);
        if (declared.has(name) || (typeOnly && types.has(`@types/${name}`))) continue;
        missing.push(`${file.slice(ROOT.length + 1)}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
