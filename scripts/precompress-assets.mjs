// Writes .br and .gz beside every compressible file of a built folder, at the highest quality,
// so the API (@fastify/static with preCompressed) sends them without compressing per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: node scripts/precompress-assets.mjs <folder>');
  process.exit(2);
}
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (COMPRESSIBLE.test(entry)) yield path;
  }
}

let count = 0;
for (const path of files(folder)) {
  const content = readFileSync(path);
  if (content.length < 1024) continue;
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  count += 1;
}
console.log(`precompressed ${count} file(s) in ${folder}`);
