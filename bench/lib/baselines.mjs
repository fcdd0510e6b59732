// The raw limits the benchmarks' figures are read against, measured in the same run on the same
// machine: a bare Fastify hello-world (bench/lib/hello-world.mjs) for API endpoints, under load or
// one request at a time; plain reads of the same rows straight from SQLite for downloads; plain
// batched inserts of telemetry rows for the ingest.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { freePort, ROOT, stopProcess, waitForReady } from '../../test-support/server.mjs';

/**
 * A bare Fastify answering `{hello: 'world'}`, in its own process like the real server (`workers`
 * above 1: node:cluster, as API_WORKERS does).
 * @param {number} [workers]
 */
export async function startHelloWorld(workers = 1) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bench/lib/hello-world.mjs')], {
    env: { ...process.env, PORT: String(port), WORKERS: String(workers) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForReady(baseURL, { isAlive: () => child.exitCode === null });
  return { baseURL, stop: () => stopProcess(/** @type {number} */ (child.pid), exited) };
}

/** @param {number[]} sorted ascending @param {number} p */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * `requests` requests to `url` one at a time after `warmUp` ones, each body read to its end: p50,
 * p95, p99 and the worst, in milliseconds.
 * @param {string} url @param {Record<string, string>} headers @param {number} requests @param {number} [warmUp]
 */
export async function sequentialLatency(url, headers, requests, warmUp = 20) {
  for (let i = 0; i < warmUp; i += 1) await (await fetch(url, { headers })).arrayBuffer();
  const times = [];
  for (let i = 0; i < requests; i += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times[times.length - 1],
  };
}

/**
 * The raw limit of an endpoint asked one request at a time: the bare hello-world (one process),
 * asked the same way by the same client.
 * @param {number} requests
 */
export async function helloWorldLatency(requests) {
  const hello = await startHelloWorld(1);
  try {
    return await sequentialLatency(`${hello.baseURL}/`, {}, requests);
  } finally {
    await hello.stop();
  }
}

/**
 * The raw limit of a download: the same rows read straight from the SQLite file (better-sqlite3,
 * rows as arrays, no HTTP, no formatting), in rows per second.
 * @param {string} file @param {string} query @param {unknown[]} [params]
 */
export function plainSelectRate(file, query, params = []) {
  const db = new Database(file, { readonly: true });
  try {
    const statement = db.prepare(query).raw(true);
    const started = performance.now();
    let rows = 0;
    for (const row of statement.iterate(...params)) if (row) rows += 1;
    return { rows, rowsPerSecond: rows / ((performance.now() - started) / 1000) };
  } finally {
    db.close();
  }
}

/** Rows per transaction of {@link plainInsertRate}. */
export const PLAIN_INSERT_BATCH = 5_000;

/**
 * The raw limit of the ingest: plain batched inserts of telemetry rows into `telemetry_samples` of
 * a database of its own (migrated here), for `seconds`: transactions of {@link PLAIN_INSERT_BATCH}
 * rows, a prepared statement on SQLite, one `unnest` insert on PostgreSQL; no HTTP, no MQTT, no
 * validation, no rollups. Returns rows per second.
 * @param {string} databaseUrl @param {number} seconds
 */
export async function plainInsertRate(databaseUrl, seconds) {
  // Imported here, not at the top: the benchmark builds packages/db before it gets this far.
  const { createDb, ensureSamplePartitions, migrateToLatest, sampleDay } = await import(
    pathToFileURL(join(ROOT, 'packages/db/dist/index.js')).href
  );
  const handle = createDb(databaseUrl, { poolMax: 4 });
  await migrateToLatest(handle.db);
  const columns = ['device_id', 'ts', 'current', 'temperature', 'door_open', 'state'];
  let rows = 0;
  let ts = Date.now() - 60 * 86_400_000;
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  try {
    if (handle.driver.dialect === 'sqlite') {
      const sqlite = handle.driver.sqlite;
      const insert = sqlite.prepare(
        `insert into telemetry_samples (${columns.join(', ')}) values (?, ?, ?, ?, ?, ?) on conflict do nothing`,
      );
      const batch = sqlite.transaction(() => {
        for (let k = 0; k < PLAIN_INSERT_BATCH; k += 1)
          insert.run((k % 100) + 1, (ts += 10), 12.5, 180, 0, 3);
      });
      while (Date.now() < deadline) {
        batch.immediate();
        rows += PLAIN_INSERT_BATCH;
      }
    } else {
      const client = await handle.driver.pool.connect();
      // The partitions of the days the rows fall on, made as the ingest makes them (docs/telemetry.md).
      let partitioned = -1;
      try {
        while (Date.now() < deadline) {
          const last = sampleDay(ts + PLAIN_INSERT_BATCH * 10);
          if (last > partitioned) {
            await ensureSamplePartitions(handle.db, [sampleDay(ts), last]);
            partitioned = last;
          }
          const ids = [];
          const times = [];
          for (let k = 0; k < PLAIN_INSERT_BATCH; k += 1) {
            ids.push((k % 100) + 1);
            times.push((ts += 10));
          }
          const fill = (value) => new Array(PLAIN_INSERT_BATCH).fill(value);
          await client.query('begin');
          await client.query(
            `insert into telemetry_samples (${columns.join(', ')})
             select * from unnest($1::int4[], $2::int8[], $3::float8[], $4::float8[], $5::int2[], $6::int2[])
             on conflict do nothing`,
            [ids, times, fill(12.5), fill(180), fill(0), fill(3)],
          );
          await client.query('commit');
          rows += PLAIN_INSERT_BATCH;
        }
      } finally {
        client.release();
      }
    }
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await handle.close();
  }
}
