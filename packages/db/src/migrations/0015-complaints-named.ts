import { sql } from 'kysely';
import { type AnyDb, isPostgres } from './support.js';

/**
 * Complaints are called complaints in the tables too, as in the code and the docs
 * (docs/complaints.md): `alerts` → `complaints`, `alert_events` → `complaint_events` (its
 * `alert_id` → `complaint_id`), `alert_photos` → `complaint_photos`, and
 * `notifications.alert_id` → `complaint_id`. Rows, keys and references are kept; the indexes
 * take the new names (the names PostgreSQL gave the keys, constraints and identity sequences
 * stay: they show only in its own messages). The API's wire names (`/api/alerts`, `alert_id`) do
 * not change.
 */
const TABLES = [
  ['alerts', 'complaints'],
  ['alert_events', 'complaint_events'],
  ['alert_photos', 'complaint_photos'],
] as const;

/** The indexes with them: old name, new name, the table and columns (as named after the renames). */
const INDEXES = [
  [
    'alerts_organisation_created_idx',
    'complaints_organisation_created_idx',
    'complaints',
    ['organisation_id', 'created_at'],
  ],
  [
    'alerts_organisation_status_idx',
    'complaints_organisation_status_idx',
    'complaints',
    ['organisation_id', 'status'],
  ],
  ['alerts_device_idx', 'complaints_device_idx', 'complaints', ['device_id']],
  ['alert_events_alert_idx', 'complaint_events_complaint_idx', 'complaint_events', ['complaint_id', 'id']],
] as const;

/** Gives an index of `table` another name: SQLite renames none, so there it is made again. */
async function renameIndex(db: AnyDb, from: string, to: string, table: string, columns: readonly string[]) {
  if (isPostgres(db)) {
    await sql`alter index ${sql.ref(from)} rename to ${sql.ref(to)}`.execute(db);
    return;
  }
  await db.schema.dropIndex(from).execute();
  await db.schema
    .createIndex(to)
    .on(table)
    .columns([...columns])
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  for (const [from, to] of TABLES) await db.schema.alterTable(from).renameTo(to).execute();
  await db.schema.alterTable('complaint_events').renameColumn('alert_id', 'complaint_id').execute();
  await db.schema.alterTable('notifications').renameColumn('alert_id', 'complaint_id').execute();
  for (const [from, to, table, columns] of INDEXES) await renameIndex(db, from, to, table, columns);
}

export async function down(db: AnyDb): Promise<void> {
  for (const [from, to, table, columns] of INDEXES) await renameIndex(db, to, from, table, columns);
  await db.schema.alterTable('notifications').renameColumn('complaint_id', 'alert_id').execute();
  await db.schema.alterTable('complaint_events').renameColumn('complaint_id', 'alert_id').execute();
  for (const [from, to] of TABLES) await db.schema.alterTable(to).renameTo(from).execute();
}
