import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Column helpers shared by migrations so that every migration runs on SQLite and PostgreSQL.
 * Frozen like the migrations themselves: change by adding, never by editing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Auto-increment integer primary key. */
export function primaryId(db: AnyDb) {
  return (col: ColumnDefinitionBuilder) =>
    isPostgres(db) ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

/** A moment in time: `timestamptz` in PostgreSQL, ISO 8601 text in SQLite. */
export function timeType(db: AnyDb) {
  return isPostgres(db) ? ('timestamptz' as const) : ('text' as const);
}
