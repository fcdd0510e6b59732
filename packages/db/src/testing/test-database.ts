import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type CreateDbOptions, type DatabaseHandle } from '../create-db.js';
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
 *
 * Each is a copy of a template migrated once (per process for SQLite, per server for PostgreSQL)
 * and named by the migrations' contents: running the migrations for each of some two hundred
 * files took a tenth of the suite's time.
 */
export async function createTestDatabase(options: Pick<CreateDbOptions, 'log'> = {}): Promise<TestDatabase> {
  if (testDialect() === 'postgres') return createPostgres(options);
  const dir = mkdtempSync(join(tmpdir(), 'kontrol-test-'));
  const file = join(dir, 'test.db');
  copyFileSync(await sqliteTemplate(), file);
  const url = `sqlite:${file}`;
  const handle = createDb(url, options);
  return {
    handle,
    url,
    drop: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A short digest of the migrations' sources: a template made from other migrations is not used. */
function migrationsDigest(): string {
  const folder = join(import.meta.dirname, '../migrations');
  const hash = createHash('sha256');
  for (const name of readdirSync(folder).sort()) hash.update(name).update(readFileSync(join(folder, name)));
  return hash.digest('hex').slice(0, 12);
}

let sqliteTemplatePath: Promise<string> | undefined;

/** This process's migrated SQLite file, closed (its WAL written back), removed when the process ends. */
function sqliteTemplate(): Promise<string> {
  sqliteTemplatePath ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kontrol-test-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, `${migrationsDigest()}.db`);
    const handle = createDb(`sqlite:${file}`);
    await migrateToLatest(handle.db);
    await handle.close();
    return file;
  })();
  return sqliteTemplatePath;
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The server's migrated template database for these migrations, made by the first test file that
 * needs it (an advisory lock keeps the others waiting) and kept for later runs.
 */
async function postgresTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const name = `kontrol_test_template_${migrationsDigest()}`;
  await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      // Migrated under another name, then renamed: a run stopped halfway leaves no half template.
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const handle = createDb(databaseUrl(adminUrl, building), { poolMax: 1 });
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
  }
  return name;
}

async function createPostgres(options: Pick<CreateDbOptions, 'log'>): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('KONTROL_TEST_DIALECT=postgres needs TEST_DATABASE_URL');
  const name = `kontrol_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(admin, adminUrl)}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(adminUrl, name);
  const handle = createDb(url, { poolMax: 5, ...options });
  return {
    handle,
    url,
    drop: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
