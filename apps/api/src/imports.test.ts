import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;

/** The all-in-one entry composes the API with the gateway and the demo's simulator; nothing else may. */
const ENTRY = ['server.ts', 'all-in-one/'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'security' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the API and the device side (docs/architecture.md, "Dependencies between packages")', () => {
  it('imports the gateway and the simulator only in the all-in-one entry', () => {
    const files = sources(SRC).map((path) => relative(SRC, path));
    expect(files).toContain('all-in-one/app.ts'); // the walk sees the entry it allows
    const crossing = files.filter(
      (file) =>
        !ENTRY.some((allowed) => file === allowed || file.startsWith(allowed)) &&
        /from '@kontrol\/(gateway|simulator)'/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(crossing).toEqual([]);
  });
});
