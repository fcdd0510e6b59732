import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import SQLite from 'better-sqlite3';
import {
  createDb,
  SQLITE_CACHED_PARAMETERS_MAX,
  SQLITE_STATEMENT_CACHE_SIZE,
  withStatementCache,
} from './create-db.js';
import { storageFailure } from './failures.js';

describe('createDb on SQLite', () => {
  it('folds case of every script, as PostgreSQL does', async () => {
    const handle = createDb('sqlite::memory:');
    try {
      const row = await sql<{
        lowered: string;
        raised: string;
        empty: null;
      }>`select lower('ПАРОКОНВЕКТОМАТ Rational') as lowered, upper('ёлка') as raised, lower(null) as empty`.execute(
        handle.db,
      );
      expect(row.rows[0]).toEqual({ lowered: 'пароконвектомат rational', raised: 'ЁЛКА', empty: null });
    } finally {
      await handle.close();
    }
  });

  it('reuses prepared statements with fresh parameters each time', async () => {
    const handle = createDb('sqlite::memory:');
    try {
      await sql`create table numbers (n integer)`.execute(handle.db);
      await sql`insert into numbers (n) values (1), (2), (3)`.execute(handle.db);
      const above = (min: number) => sql<{ n: number }>`select n from numbers where n > ${min} order by n`;
      expect((await above(0).execute(handle.db)).rows.map((row) => row.n)).toEqual([1, 2, 3]);
      expect((await above(2).execute(handle.db)).rows.map((row) => row.n)).toEqual([3]);
      expect((await above(0).execute(handle.db)).rows.map((row) => row.n)).toEqual([1, 2, 3]);
      // A write through a cached statement, then a read through another.
      const insert = (n: number) => sql`insert into numbers (n) values (${n})`;
      await insert(4).execute(handle.db);
      await insert(5).execute(handle.db);
      expect((await above(3).execute(handle.db)).rows.map((row) => row.n)).toEqual([4, 5]);
    } finally {
      await handle.close();
    }
  });
});

describe('createDb on a SQLite file another process writes to', () => {
  it('a transaction that read, then writes, waits for the write lock instead of failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kontrol-sqlite-'));
    const file = join(dir, 'shared.db');
    const handle = createDb(`sqlite:${file}`);
    // Another process (as the operator CLI beside the server): on "go", it writes one row and says so.
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(process.argv[1]);
         db.pragma('busy_timeout = 5000');
         process.stdin.once('data', () => {
           db.prepare("insert into numbers (n) values ('other')").run();
           process.stdout.write('written');
         });`,
        file,
      ],
      { cwd: import.meta.dirname, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      await sql`create table numbers (n text)`.execute(handle.db);
      const written = once(writer.stdout, 'data');
      await handle.db.transaction().execute(async (trx) => {
        await sql`select count(*) from numbers`.execute(trx);
        writer.stdin.write('go\n');
        // Time for the other process's write; with a plain BEGIN it lands, and the insert fails.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await sql`insert into numbers (n) values ('own')`.execute(trx);
      });
      await written;
      const rows = await sql<{ n: string }>`select n from numbers order by rowid`.execute(handle.db);
      expect(rows.rows.map((row) => row.n)).toEqual(['own', 'other']);
    } finally {
      writer.kill();
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the SQLite statement cache', () => {
  it('keeps what is used, drops the least recently used, and never keeps a long parameter list', () => {
    const database = new SQLite(':memory:');
    try {
      database.exec('create table numbers (n integer)');
      const statements = withStatementCache(database);
      const hot = 'select n from numbers where n = ?';
      const first = statements.prepare(hot);
      const other = (i: number) => `select n from numbers where n = ? and ${i} = ${i}`;
      const firstOther = statements.prepare(other(0));
      // Twice the cache's size of other texts, the hot one used between them: it stays prepared.
      for (let i = 1; i < 2 * SQLITE_STATEMENT_CACHE_SIZE; i += 1) {
        statements.prepare(other(i));
        expect(statements.prepare(hot)).toBe(first);
      }
      expect(statements.cachedStatements()).toBe(SQLITE_STATEMENT_CACHE_SIZE);
      // The oldest of the others is gone: preparing it again gives a new statement.
      expect(statements.prepare(other(0))).not.toBe(firstOther);
      // An `in` list as long as a batch: prepared, run, not kept.
      const list = Array.from({ length: SQLITE_CACHED_PARAMETERS_MAX + 1 }, () => '?').join(', ');
      const long = `select n from numbers where n in (${list})`;
      const once = statements.prepare(long);
      expect(once.all(Array.from({ length: SQLITE_CACHED_PARAMETERS_MAX + 1 }, (_, i) => i))).toEqual([]);
      expect(statements.prepare(long)).not.toBe(once);
      expect(statements.cachedStatements()).toBe(SQLITE_STATEMENT_CACHE_SIZE);
    } finally {
      database.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('createDb on PostgreSQL', () => {
  it('keeps an idle pooled connection for poolIdleMs, then closes it', async () => {
    const handle = createDb(process.env.TEST_DATABASE_URL as string, { poolMax: 1, poolIdleMs: 1_500 });
    const admin = createDb(process.env.TEST_DATABASE_URL as string, { poolMax: 1 });
    const alive = async (pid: number) =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${pid}`.execute(
          admin.db,
        )
      ).rows[0]?.n === 1;
    try {
      // pg-pool's idle timer runs on setTimeout: faked, it is moved on instead of waited for.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]
        ?.pid as number;
      vi.advanceTimersByTime(1_499);
      expect(await alive(pid)).toBe(true);
      vi.advanceTimersByTime(1);
      vi.useRealTimers();
      await expect.poll(() => alive(pid), { timeout: 5_000, interval: 200 }).toBe(false);
    } finally {
      vi.useRealTimers();
      await handle.close();
      await admin.close();
    }
  });

  it('outlives an idle pooled connection the server ends, and says so', async () => {
    const errors: { code?: string }[] = [];
    const handle = createDb(process.env.TEST_DATABASE_URL as string, {
      poolMax: 1,
      onIdleError: (error) => errors.push(error),
    });
    try {
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]
        ?.pid;
      const admin = createDb(process.env.TEST_DATABASE_URL as string, { poolMax: 1 });
      try {
        await sql`select pg_terminate_backend(${pid})`.execute(admin.db);
      } finally {
        await admin.close();
      }
      await expect.poll(() => errors.length).toBe(1);
      expect(errors[0]?.code).toBe('57P01');
      // The pool opens a new connection for the next query.
      expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows[0]?.one).toBe(1);
    } finally {
      await handle.close();
    }
  });

  it('outlives a connection the server ends while it is checked out (in a query, in a transaction)', async () => {
    // Unheard, the checked-out client's 'error' event would end the process (and fail this run).
    const handle = createDb(process.env.TEST_DATABASE_URL as string, { poolMax: 2, onIdleError: () => {} });
    const admin = createDb(process.env.TEST_DATABASE_URL as string, { poolMax: 1 });
    const terminate = (pid: number) => sql`select pg_terminate_backend(${pid})`.execute(admin.db);
    const state = async (pid: number) =>
      (await sql<{ state: string }>`select state from pg_stat_activity where pid = ${pid}`.execute(admin.db))
        .rows[0]?.state;
    try {
      // A query in flight.
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]
        ?.pid;
      const slow = sql`select pg_sleep(5)`.execute(handle.db);
      const failed = slow.then(
        () => undefined,
        (error: unknown) => error,
      );
      await expect.poll(() => state(pid as number), { timeout: 4_000 }).toBe('active'); // it is running
      await terminate(pid as number);
      const error = await failed;
      expect(storageFailure(error)).toBe('unavailable');

      // A transaction between two statements.
      const outcome = await handle.db
        .transaction()
        .execute(async (trx) => {
          const own = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid;
          await terminate(own as number);
          await expect.poll(() => state(own as number), { timeout: 5_000 }).toBeUndefined(); // it has ended
          await sql`select 1`.execute(trx);
        })
        .then(
          () => 'committed',
          (failure: unknown) => storageFailure(failure),
        );
      expect(outcome).toBe('unavailable');

      // The pool goes on with new connections.
      expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows[0]?.one).toBe(1);
    } finally {
      await admin.close();
      await handle.close();
    }
  });
});

describe('storageFailure', () => {
  it('names a database that does not answer, a full disk and a read-only one, through causes', () => {
    const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
    expect(storageFailure(coded('ECONNREFUSED'))).toBe('unavailable');
    expect(storageFailure(coded('57P01'))).toBe('unavailable');
    expect(storageFailure(coded('08006'))).toBe('unavailable');
    expect(storageFailure(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    expect(storageFailure(coded('SQLITE_IOERR_WRITE'))).toBe('unavailable');
    expect(storageFailure(coded('SQLITE_BUSY'))).toBe('unavailable');
    expect(storageFailure(coded('SQLITE_FULL'))).toBe('full');
    expect(storageFailure(coded('ENOSPC'))).toBe('full');
    expect(storageFailure(coded('53100'))).toBe('full');
    expect(storageFailure(coded('SQLITE_READONLY'))).toBe('read_only');
    expect(storageFailure(coded('SQLITE_READONLY_DBMOVED'))).toBe('read_only');
    expect(storageFailure(coded('EROFS'))).toBe('read_only');
    expect(storageFailure(new Error('wrapped', { cause: coded('SQLITE_FULL') }))).toBe('full');
    expect(storageFailure(new AggregateError([coded('ECONNREFUSED')], 'all addresses failed'))).toBe(
      'unavailable',
    );
  });

  it('leaves other errors alone', () => {
    const coded = (code: string) => Object.assign(new Error('failed'), { code });
    expect(storageFailure(new Error('boom'))).toBeUndefined();
    expect(storageFailure(coded('23505'))).toBeUndefined(); // unique violation
    expect(storageFailure(coded('SQLITE_CONSTRAINT_UNIQUE'))).toBeUndefined();
    expect(storageFailure(coded('SQLITE_CORRUPT'))).toBeUndefined();
    expect(storageFailure('text')).toBeUndefined();
    const looped: Error & { cause?: unknown } = new Error('loop');
    looped.cause = looped;
    expect(storageFailure(looped)).toBeUndefined();
  });
});

describe('createDb on a SQLite file it cannot open', () => {
  it('says which file and why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kontrol-db-'));
    try {
      // A folder where the database file should be: SQLite cannot open it.
      mkdirSync(join(dir, 'kontrol.db'));
      expect(() => createDb(`sqlite:${join(dir, 'kontrol.db')}`)).toThrow(
        new RegExp(`cannot open the SQLite database ${join(dir, 'kontrol.db')} \\(SQLITE_CANTOPEN\\)`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
