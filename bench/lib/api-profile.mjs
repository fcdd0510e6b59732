// Where the API's CPU time goes under load: starts the real server (test-support/server.mjs) with V8's
// sampling profiler (`--cpu-prof`), seeds an organisation with BENCH_DEVICES devices (default
// 10 000), loads one endpoint with autocannon (50 connections, BENCH_SECONDS, default 8) with the
// admin's session cookie, stops the server and prints the server's CPU time per request (from
// /proc/<pid>/stat) and the functions and files that took the most of it, alone and with what they
// called (PROFILE_TOP lines, default 60). Not a benchmark, a magnifying glass for bench/devices-api.mjs.
//   node bench/lib/api-profile.mjs [path, default /api/devices/?page=1]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildIfNeeded, seedFleetAndSignIn, startServer } from '../../test-support/server.mjs';

const path = process.argv[2] ?? '/api/devices/?page=1';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const devices = Number(process.env.BENCH_DEVICES ?? 10_000);

/** User plus system CPU time of a process, in milliseconds (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
}

buildIfNeeded();
const profileDir = mkdtempSync(join(tmpdir(), 'kontrol-profile-'));
const server = await startServer({ nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] });
try {
  const { admin } = await seedFleetAndSignIn(server, devices);
  const headers = {
    cookie: admin.cookieHeader,
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br, zstd',
  };
  await autocannon({ url: server.baseURL + path, connections: 50, duration: 2, headers });
  const before = cpuMs(server.pid);
  const result = await autocannon({
    url: server.baseURL + path,
    connections: 50,
    duration: seconds,
    headers,
  });
  const serverCpu = cpuMs(server.pid) - before;
  const requests = result.requests.total;
  console.log(
    `${path}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}; ` +
      `server CPU ${Math.round((serverCpu * 1000) / requests)} µs per request`,
  );
} finally {
  await server.stop();
}

const file = readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort()
  .at(-1);
if (!file) throw new Error(`no profile in ${profileDir}`);
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));
rmSync(profileDir, { recursive: true, force: true });
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i += 1) {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
const byFunction = new Map();
const byFile = new Map();
let total = 0;
for (const [id, micros] of self) {
  const { callFrame } = byId.get(id);
  if (callFrame.functionName === '(idle)' || callFrame.functionName === '(program)') continue;
  total += micros;
  const where = callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '') || '(native)';
  const key = `${callFrame.functionName || '(anonymous)'} ${where}:${callFrame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  const pkg = where.startsWith('/')
    ? where.replace(/.*\/(apps|packages)\//, '$1/')
    : where
        .split('/')
        .slice(0, where.startsWith('@') ? 2 : 1)
        .join('/');
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + micros);
}
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, micros]) => `${((micros / total) * 100).toFixed(1).padStart(5)} %  ${key}`)
    .join('\n');
console.log(
  `\nself time by package or file (${Math.round(total / 1000)} ms sampled, idle excluded):\n${top(byFile, 25)}`,
);
console.log(`\nself time by function:\n${top(byFunction, 40)}`);

// Time with callees, each sample counted once per function on its stack: where a request's time
// goes by step (the session's read, a hook, the answer), not only by leaf.
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map();
for (const [id, micros] of self) {
  if (['(idle)', '(program)'].includes(byId.get(id).callFrame.functionName)) continue;
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const { callFrame } = byId.get(at);
    const where = callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '') || '(native)';
    const key = `${callFrame.functionName || '(anonymous)'} ${where}:${callFrame.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
  }
}
console.log(`\ntime with callees by function:\n${top(inclusive, Number(process.env.PROFILE_TOP ?? 60))}`);
