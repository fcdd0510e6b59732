// The generated sections of docs/benchmarks.md: each benchmark rewrites the text between its own
// two markers and leaves everything else (the hand-written analysis) alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server.mjs';

/**
 * Replaces the section `name` (markers `<!-- name:begin … -->` and `<!-- name:end -->`) with
 * `section`; a section not there yet is added at the end under `heading`.
 * @param {{ name: string, script: string, heading: string, section: string }} options
 */
export function writeBenchmarkSection({ name, script, heading, section }) {
  const begin = `<!-- ${name}:begin (written by ${script}) -->`;
  const end = `<!-- ${name}:end -->`;
  const file = join(ROOT, 'docs/benchmarks.md');
  const block = `${begin}\n\n${section}\n\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from !== -1 && to > from) text = text.slice(0, from) + block + text.slice(to + end.length);
  else text = `${text.trimEnd()}\n\n## ${heading}\n\n${block}\n`;
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}
