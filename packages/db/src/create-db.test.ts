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
});
