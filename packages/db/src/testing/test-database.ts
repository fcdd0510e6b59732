import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type DatabaseHandle } from '../create-db.js';
import { migrateToLatest } from '../migrate.js';
import pg from 'pg';

export interface TestDatabase {
  handle: DatabaseHandle;
  url: string;
  drop(): Promise<void>;
}

/** The dialect this test run uses: the Vitest project sets it (`api-sqlite`, `gateway-postgres`…). */
export function testDialect(): 'sqlite' | 'postgres' {
  return process.env.KONTROL_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * A fresh, migrated database of its own for one test file: a temporary SQLite file, or a new
 * PostgreSQL database on the server `TEST_DATABASE_URL` names. Dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDialect() === 'postgres') return createPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-test-'));
  const url = `sqlite:${join(dir, 'test.db')}`;
  const handle = createDb(url);
  await migrateToLatest(handle.db);
  return {
    handle,
    url,
    drop: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function createPostgres(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('KONTROL_TEST_DIALECT=postgres needs TEST_DATABASE_URL');
  const name = `kontrol_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = createDb(url.toString(), { poolMax: 5 });
  await migrateToLatest(handle.db);
  return {
    handle,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
