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
