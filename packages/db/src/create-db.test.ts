import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from './create-db.js';

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

describe.skipIf(!process.env.TEST_DATABASE_URL)('createDb on PostgreSQL', () => {
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
});
