import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/*
 * The boundaries of eslint.config.js fail the lint: each case lints the text of a real file with one
 * line added that breaks a rule, through ESLint's own API and the repository's configuration. Its
 * type-aware rules are off here: none of the rules checked needs types, and building the TypeScript
 * programs they read was most of this file's time.
 */
const ROOT = join(import.meta.dirname, '..');
const options = { cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked };
const eslint = new ESLint(options);

/** The rules broken by `filePath` (from the repository's root) with `added` written into it. */
async function rulesBrokenBy(filePath: string, added: string, at: 'start' | 'end' = 'start') {
  const text = readFileSync(join(ROOT, filePath), 'utf8');
  const [result] = await eslint.lintText(at === 'start' ? `${added}\n${text}` : `${text}\n${added}\n`, {
    filePath: join(ROOT, filePath),
  });
  return (result?.messages ?? []).map((message) => message.ruleId);
}

describe('the lint configuration', { timeout: 120_000 }, () => {
  it('accepts the files as they are', async () => {
    for (const file of [
      'apps/console/src/features/devices/routes/device-page.tsx',
      'apps/api/src/modules/addresses/addresses.repository.ts',
    ]) {
      expect(await rulesBrokenBy(file, '')).toEqual([]);
    }
  });

  it('fails an import of one console feature by another', async () => {
    const broken = await rulesBrokenBy(
      'apps/console/src/features/devices/routes/device-page.tsx',
      "import { RecipesPanel } from '../../recipes/components/device-recipes-panel';\nexport const Panel = RecipesPanel;",
      'end',
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  });

  it('fails an import of a feature by shared code', async () => {
    const broken = await rulesBrokenBy(
      'apps/console/src/lib/format.ts',
      "export { DevicePage } from '../features/devices/routes/device-page';",
      'end',
    );
    expect(broken).toContain('import-x/no-restricted-paths');
  });

  it('fails an import cycle', async () => {
    // Written to disk: the cycle rule reads the modules a file imports from the files themselves.
    const probes = [
      [
        'tooling/cycle-probe-a.ts',
        "import { b } from './cycle-probe-b.js';\nexport const a = (): number => b() + 1;\n",
      ],
      [
        'tooling/cycle-probe-b.ts',
        "import { a } from './cycle-probe-a.js';\nexport const b = (): number => a() - 1;\n",
      ],
    ] as const;
    for (const [file, text] of probes) writeFileSync(join(ROOT, file), text);
    try {
      const probeLint = new ESLint(options);
      const [result] = await probeLint.lintFiles([join(ROOT, probes[0][0])]);
      expect((result?.messages ?? []).map((message) => message.ruleId)).toContain('import-x/no-cycle');
    } finally {
      for (const [file] of probes) rmSync(join(ROOT, file), { force: true });
    }
  });

  it('fails a hook called conditionally and an effect with a missing dependency', async () => {
    const broken = await rulesBrokenBy(
      'apps/console/src/components/no-records.tsx',
      [
        "import { useEffect, useState } from 'react';",
        'export function Probe({ shown, value }: { shown: boolean; value: number }) {',
        '  if (shown) useState(0);',
        '  useEffect(() => console.log(value), []);',
        '  return null;',
        '}',
      ].join('\n'),
      'end',
    );
    expect(broken).toContain('react-hooks/rules-of-hooks');
    expect(broken).toContain('react-hooks/exhaustive-deps');
  });

  it('fails a repository importing a service, and a route importing a repository', async () => {
    expect(
      await rulesBrokenBy(
        'apps/api/src/modules/addresses/addresses.repository.ts',
        "export { listAddresses } from './addresses.service.js';",
        'end',
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await rulesBrokenBy(
        'apps/api/src/modules/addresses/addresses.routes.ts',
        "export { findAddress as findAddressProbe } from './addresses.repository.js';",
        'end',
      ),
    ).toContain('import-x/no-restricted-paths');
  });
});
