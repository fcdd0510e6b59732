import { sql } from 'kysely';
import { type AnyDb, isPostgres } from './support.js';

/**
 * More counters beside `organisations.fleet_version` (migration 0003), one per kind of list, moved
 * the same way: by triggers on every insert, update and delete of the tables the list is built
 * from, whoever writes them (API, operator CLI, gateway). The API reads them in the same statement
 * as the session's user and reuses an answer while the counters it was built from hold
 * (docs/api.md, "Kept answers"). They live on the organisation's row, as `fleet_version` does, so
 * a transaction that writes several kinds locks one row, never two in either order.
 *
 * A table without `organisation_id` finds it through its parent (`via`); when the parent goes in
 * the same statement (a cascade), the parent's own trigger moves the counter.
 */
const COUNTERS: Record<string, { table: string; via?: { parent: string; key: string } }[]> = {
  groups_version: [
    { table: 'device_groups' },
    { table: 'device_group_devices', via: { parent: 'device_groups', key: 'group_id' } },
  ],
  events_version: [{ table: 'device_events' }],
  notifications_version: [{ table: 'notifications' }],
  recipes_version: [
    { table: 'recipes' },
    { table: 'recipe_sets' },
    { table: 'recipe_set_recipes', via: { parent: 'recipe_sets', key: 'set_id' } },
  ],
  complaints_version: [{ table: 'complaints' }],
  people_version: [
    { table: 'users' },
    { table: 'acl_roles' },
    { table: 'acl_role_modules', via: { parent: 'acl_roles', key: 'acl_role_id' } },
  ],
};

const EVENTS = ['insert', 'update', 'delete'] as const;

function triggers() {
  return Object.entries(COUNTERS).flatMap(([counter, tables]) =>
    tables.flatMap((source) => EVENTS.map((event) => ({ counter, ...source, event }))),
  );
}

export async function up(db: AnyDb): Promise<void> {
  for (const counter of Object.keys(COUNTERS)) {
    await db.schema
      .alterTable('organisations')
      .addColumn(counter, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  for (const { counter, table, via, event } of triggers()) {
    const name = `${table}_${counter}_${event}`;
    if (isPostgres(db)) {
      // Once per statement, over its transition table, as 0003 does.
      const rows = event === 'delete' ? 'old_rows' : 'new_rows';
      const organisations = via
        ? `select ${via.parent}.organisation_id from ${via.parent}
            where ${via.parent}.id in (select ${via.key} from ${rows})`
        : `select organisation_id from ${rows}`;
      await sql
        .raw(
          `create function kontrol_${name}() returns trigger language plpgsql as $$
           begin
             update organisations set ${counter} = ${counter} + 1 where id in (${organisations});
             return null;
           end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${name} after ${event} on ${table}
           referencing ${event === 'delete' ? 'old' : 'new'} table as ${rows} for each statement
           execute function kontrol_${name}()`,
        )
        .execute(db);
      continue;
    }
    const row = event === 'delete' ? 'old' : 'new';
    const organisation = via
      ? `(select organisation_id from ${via.parent} where id = ${row}.${via.key})`
      : `${row}.organisation_id`;
    await sql
      .raw(
        `create trigger ${name} after ${event} on ${table} for each row
         begin
           update organisations set ${counter} = ${counter} + 1 where id = ${organisation};
         end`,
      )
      .execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const { counter, table, event } of triggers()) {
    const name = `${table}_${counter}_${event}`;
    if (isPostgres(db)) {
      await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
      await sql.raw(`drop function if exists kontrol_${name}()`).execute(db);
    } else {
      await sql.raw(`drop trigger if exists ${name}`).execute(db);
    }
  }
  for (const counter of Object.keys(COUNTERS)) {
    await db.schema.alterTable('organisations').dropColumn(counter).execute();
  }
}
