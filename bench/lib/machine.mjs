// What a benchmark ran on, printed with its figures: date, Node, cores, CPU, Chromium, commit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CHROMIUM_PATH } from '../../test-support/chromium.mjs';
import { ROOT } from '../../test-support/server.mjs';

/** Last line of a command's output, or 'unknown' when it fails. */
function sh(command, args) {
  try {
    return execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split('\n')
      .pop();
  } catch {
    return 'unknown';
  }
}

export function machine() {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
  // What is measured is the server and the console: say whether their sources differ from HEAD.
  const changed = sh('git', ['status', '--porcelain', '--', 'apps', 'packages']);
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    node: process.version,
    nproc: sh('nproc', []) || String(availableParallelism()),
    cpu,
    chromium: sh(CHROMIUM_PATH, ['--version']),
    commit: sh('git', ['rev-parse', '--short=10', 'HEAD']),
    changed: changed === 'unknown' ? 'unknown' : changed ? 'with uncommitted changes' : 'clean',
  };
}
