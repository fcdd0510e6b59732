// The generated sections of docs/benchmarks.md: each benchmark rewrites the text between its own
// two markers and leaves everything else (the hand-written analysis) alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../test-support/server.mjs';

/**
 * Replaces the section `name` (markers `<!-- name:begin … -->` and `<!-- name:end -->`) with
 * `section`; a section not there yet is added under `heading`: at the end, or, with `top`, right
 * after the file's title.
 * @param {{ name: string, script: string, heading: string, section: string, top?: boolean }} options
 */
export function writeBenchmarkSection({ name, script, heading, section, top = false }) {
  const begin = `<!-- ${name}:begin (written by ${script}) -->`;
  const end = `<!-- ${name}:end -->`;
  const file = join(ROOT, 'docs/benchmarks.md');
  const block = `${begin}\n\n${section}\n\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  const title = /^# .*\n/m.exec(text);
  if (from !== -1 && to > from) text = text.slice(0, from) + block + text.slice(to + end.length);
  else if (top && title) {
    const at = title.index + title[0].length;
    text = `${text.slice(0, at)}\n## ${heading}\n\n${block}\n\n${text.slice(at).replace(/^\n+/, '')}`;
  } else text = `${text.trimEnd()}\n\n## ${heading}\n\n${block}\n`;
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}
