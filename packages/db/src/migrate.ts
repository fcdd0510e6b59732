import { Migrator, type Kysely, type MigrationResult } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export interface MigrateOutcome {
  applied: string[];
}

/**
 * Brings the schema to the latest migration. Safe to call from several processes at once: Kysely
 * takes a lock in the database while it migrates.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrateOutcome> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error, results } = await migrator.migrateToLatest();
  const applied = (results ?? [])
    .filter((r: MigrationResult) => r.status === 'Success')
    .map((r) => r.migrationName);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(
      `Migration ${failed ?? '(unknown)'} failed: ${String((error as Error).message ?? error)}`,
      {
        cause: error,
      },
    );
  }
  return { applied };
}

/**
 * Brings the schema to the migration `name` exactly, undoing later ones: for tests of a migration
 * on data written before it.
 */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error } = await migrator.migrateTo(name);
  if (error)
    throw new Error(`Migrating to ${name} failed: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
}
