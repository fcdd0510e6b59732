// Builds what is missing or out of date: the server (`tsc -b`, incremental: nothing when all is
// current) and the console when its dist/index.html is missing or older than its sources or the
// contracts it bundles. With CONSOLE_DIST set, that folder is served as it is and not built.
// Used by `npm start`, the browser tests and the benchmarks.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time below `path` (node_modules and dist left out), 0 when it is missing. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/**
 * @param {{ log?: (line: string) => void, console?: boolean }} [options] `console: false` builds the
 *   server only (a gateway process serves no pages)
 */
export function buildIfNeeded({ log = (line) => console.log(line), console: withConsole = true } = {}) {
  const run = (/** @type {string} */ command, /** @type {string[]} */ args, env = process.env) =>
    execFileSync(command, args, { cwd: ROOT, stdio: 'inherit', env });
  // TypeScript 7's compiler; `typescript` itself is 6, for the tools that use its API (docs/decisions.md).
  run(process.execPath, [join(ROOT, 'node_modules/@typescript/native/bin/tsc'), '-b']);
  if (process.env.CONSOLE_DIST || !withConsole) return;
  const consoleDir = join(ROOT, 'apps/console');
  const index = join(consoleDir, 'dist/index.html');
  const sources = Math.max(newest(consoleDir), newest(join(ROOT, 'packages/contracts/src')));
  if (!existsSync(index) || statSync(index).mtimeMs < sources) {
    log('Building the console (apps/console/dist is missing or older than its sources)…');
    // Always a production build: Vite follows NODE_ENV, and `NODE_ENV=development npm start` (the
    // smoke test's setting, a server setting) must not ship React's development build.
    run('npm', ['run', 'build', '--silent', '-w', '@kontrol/console'], {
      ...process.env,
      NODE_ENV: 'production',
    });
  }
}
