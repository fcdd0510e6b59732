import type { Database } from '@kontrol/db';
import { createTestDatabase, type TestDatabase } from '@kontrol/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';

export interface TestDatabaseContext {
  readonly database: TestDatabase;
  readonly db: Kysely<Database>;
}

/**
 * A fresh migrated database for the test file, on the engine of the Vitest project
 * (`gateway-sqlite`, `gateway-postgres`): made in `beforeAll`, dropped in `afterAll`.
 */
export function useTestDatabase(): TestDatabaseContext {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase();
  });
  afterAll(async () => {
    await current?.drop();
    current = undefined;
  });
  const running = () => {
    if (!current) throw new Error('useTestDatabase: read it inside tests or hooks, not at module level');
    return current;
  };
  return {
    get database() {
      return running();
    },
    get db() {
      return running().handle.db;
    },
  };
}
