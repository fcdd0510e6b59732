// `npm start`: build what is missing or out of date, then run the server (which migrates the
// database, seeds the demo on an empty one and serves the API and the console).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: 'inherit' });

/** Newest modification time of the files below `path` (node_modules and dist left out). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

// TypeScript's build mode is incremental: it compiles only what changed, and nothing when all is
// up to date.
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b']);

const consoleDir = join(root, 'apps/console');
const consoleIndex = join(consoleDir, 'dist/index.html');
const consoleSources = Math.max(
  newest(join(consoleDir, 'src')),
  newest(join(root, 'packages/contracts/src')),
);
if (!existsSync(consoleIndex) || statSync(consoleIndex).mtimeMs < consoleSources) {
  console.log('Building the console…');
  run('npm', ['run', 'build', '--silent', '-w', '@kontrol/console']);
}

await import(join(root, 'apps/api/dist/server.js'));
