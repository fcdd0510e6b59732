import { sql } from 'kysely';
import { type AnyDb, isPostgres } from './support.js';

/**
 * `organisations.fleet_version`: a counter the database itself moves on every insert, update and
 * delete of the organisation's addresses, rooms and devices (triggers, so no write path can forget
 * it: the API, the operator CLI, later the gateway). The API reads it in the same statement as
 * the session's user and reuses an answer built from the fleet while it has not moved (docs/api.md,
 * "Cached lists"). PostgreSQL moves it once per statement (transition tables), SQLite once per row.
 */
const FLEET_TABLES = ['addresses', 'rooms', 'devices'] as const;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('organisations')
    .addColumn('fleet_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  if (isPostgres(db)) {
    for (const rows of ['new_rows', 'old_rows'] as const) {
      await sql
        .raw(
          `create function kontrol_fleet_version_from_${rows}() returns trigger language plpgsql as $$
           begin
             update organisations set fleet_version = fleet_version + 1
              where id in (select distinct organisation_id from ${rows});
             return null;
           end $$`,
        )
        .execute(db);
    }
    for (const table of FLEET_TABLES) {
      for (const [event, transition, rows] of [
        ['insert', 'new table as new_rows', 'new_rows'],
        ['update', 'new table as new_rows', 'new_rows'],
        ['delete', 'old table as old_rows', 'old_rows'],
      ] as const) {
        await sql
          .raw(
            `create trigger ${table}_fleet_version_${event} after ${event} on ${table}
             referencing ${transition} for each statement
             execute function kontrol_fleet_version_from_${rows}()`,
          )
          .execute(db);
      }
    }
    return;
  }

  for (const table of FLEET_TABLES) {
    for (const [event, row] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql
        .raw(
          `create trigger ${table}_fleet_version_${event} after ${event} on ${table} for each row
           begin
             update organisations set fleet_version = fleet_version + 1 where id = ${row}.organisation_id;
           end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of FLEET_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(`drop trigger if exists ${table}_fleet_version_${event}${isPostgres(db) ? ` on ${table}` : ''}`)
        .execute(db);
    }
  }
  if (isPostgres(db)) {
    await sql.raw('drop function if exists kontrol_fleet_version_from_new_rows()').execute(db);
    await sql.raw('drop function if exists kontrol_fleet_version_from_old_rows()').execute(db);
  }
  await db.schema.alterTable('organisations').dropColumn('fleet_version').execute();
}
