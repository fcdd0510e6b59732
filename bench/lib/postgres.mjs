// A PostgreSQL database of a benchmark's own on the benchmarks' PostgreSQL server
// (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test): created empty, dropped
// by the caller when it is done, so runs never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database: its URL, and `drop` to remove it (with any connection still open to it). */
export async function postgresDatabase() {
  const name = `kontrol_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * PostgreSQL as deployed vacuums and analyses its tables itself (autovacuum, on by default); a test
 * server may have it off for speed, and a long benchmark on it would measure tables that are never
 * vacuumed nor analysed. Turns it on for the server when it is off (`alter system`, then a reload:
 * superuser only) and returns what it found, with `restore` to put the setting back.
 * @returns {Promise<{ autovacuum: 'on' | 'turned on for the run' | 'off (could not turn it on)', restore: () => Promise<void> }>}
 */
export async function autovacuumOn() {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      "select setting, sourcefile from pg_settings where name = 'autovacuum'",
    );
    if (rows[0]?.setting === 'on') return { autovacuum: 'on', restore: async () => {} };
    // Set by `alter system` before: put that back; set in postgresql.conf: drop ours.
    const setBefore = String(rows[0]?.sourcefile ?? '').endsWith('postgresql.auto.conf');
    try {
      await admin.query('alter system set autovacuum = on');
      await admin.query('select pg_reload_conf()');
    } catch {
      return { autovacuum: 'off (could not turn it on)', restore: async () => {} };
    }
    return {
      autovacuum: 'turned on for the run',
      restore: async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(setBefore ? 'alter system set autovacuum = off' : 'alter system reset autovacuum');
        await client.query('select pg_reload_conf()');
        await client.end();
      },
    };
  } finally {
    await admin.end();
  }
}
