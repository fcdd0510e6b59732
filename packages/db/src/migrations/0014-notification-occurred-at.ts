import { sql } from 'kysely';
import { type AnyDb, isPostgres, timeType } from './support.js';

/**
 * `notifications.occurred_at`: when what the notification tells of happened — the device event's
 * start for an event's notification (a rule's event starts before its notification is written,
 * by the rule's duration or, for history a device sends late, by days), else when it was written.
 * The lists show and sort by it; (user_id, occurred_at, id) reads a user's newest first in order.
 * Written by every source from now on; the rows there are get it here. Null only in rows written
 * without it (the tests' own), which read as their `created_at`.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('occurred_at', timeType(db)).execute();
  const started = isPostgres(db)
    ? sql`to_timestamp(e.started_ts / 1000.0)`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', e.started_ts / 1000.0, 'unixepoch')`;
  await sql`
    update notifications set occurred_at = coalesce(
      (select ${started} from device_events e
        where e.id = notifications.event_id and e.organisation_id = notifications.organisation_id),
      created_at
    )
  `.execute(db);
  await db.schema
    .createIndex('notifications_user_occurred_idx')
    .on('notifications')
    .columns(['user_id', 'occurred_at', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('notifications_user_occurred_idx').execute();
  await db.schema.alterTable('notifications').dropColumn('occurred_at').execute();
}
