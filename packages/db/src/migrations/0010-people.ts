import { sql } from 'kysely';
import { type AnyDb, primaryId, timeType } from './support.js';

/**
 * People and communication (docs/people.md, docs/complaints.md, docs/integrations.md):
 *
 * - `user_settings`: a user's notification settings (one row once they save; defaults before).
 * - `alerts` (complaints), `alert_events` (their timeline), `alert_photos` (uploaded photos,
 *   scoped to their organisation, named by the server).
 * - `support_messages`: the organisation's conversation with the provider's support.
 * - `integrations`: Telegram chats bound to users through a one-time link token (kept hashed).
 * - `telegram_outbox`: messages for bound chats, sent and retried like the mail outbox.
 * - `notifications.dispatched_at`: when a notification was handed to the e-mail and Telegram
 *   channels (rows from before this migration count as handed, so nothing old goes out);
 *   `notifications.alert_id`: the complaint a notification is about.
 * - `job_leases`: one holder at a time for work that must run once per deployment (the Telegram
 *   bot's update polling).
 */
export async function up(db: AnyDb): Promise<void> {
  const time = timeType(db);
  const id = primaryId(db);

  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('web', 'integer', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addColumn('telegram', 'integer', (c) => c.notNull())
    .addColumn('kinds', 'text', (c) => c.notNull())
    .addColumn('severities', 'text', (c) => c.notNull())
    .addColumn('quiet_start', 'varchar(5)')
    .addColumn('quiet_end', 'varchar(5)')
    .addColumn('quiet_hours_critical', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('alert_photos')
    .addColumn('file', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('priority', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('set null'))
    .addColumn('address_id', 'integer', (c) => c.references('addresses.id').onDelete('set null'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('photos', 'text', (c) => c.notNull())
    .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('resolved_at', time)
    .execute();
  await db.schema
    .createIndex('alerts_organisation_created_idx')
    .on('alerts')
    .columns(['organisation_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('alerts_organisation_status_idx')
    .on('alerts')
    .columns(['organisation_id', 'status'])
    .execute();
  await db.schema.createIndex('alerts_device_idx').on('alerts').column('device_id').execute();

  await db.schema
    .createTable('alert_events')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('alert_id', 'integer', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('text', 'text')
    .addColumn('from_status', 'varchar(16)')
    .addColumn('to_status', 'varchar(16)')
    .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('priority', 'varchar(16)')
    .addColumn('photos', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_events_alert_idx')
    .on('alert_events')
    .columns(['alert_id', 'id'])
    .execute();

  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('from_support', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('read_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_messages_organisation_idx')
    .on('support_messages')
    .columns(['organisation_id', 'id'])
    .execute();

  await db.schema
    .createTable('integrations')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('link_token_hash', 'varchar(64)', (c) => c.unique())
    .addColumn('link_expires_at', time)
    .addColumn('chat_id', 'varchar(64)')
    .addColumn('chat_title', 'varchar(255)')
    .addColumn('chat_username', 'varchar(64)')
    .addColumn('bound_at', time)
    .addColumn('blocked_at', time)
    .addColumn('last_delivery_at', time)
    .addColumn('last_error', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('integrations_organisation_idx')
    .on('integrations')
    .column('organisation_id')
    .execute();
  await db.schema.createIndex('integrations_user_idx').on('integrations').column('user_id').execute();

  await db.schema
    .createTable('telegram_outbox')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('integration_id', 'integer', (c) =>
      c.notNull().references('integrations.id').onDelete('cascade'),
    )
    .addColumn('chat_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('notification_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('locked_until', time)
    .addColumn('last_error', 'text')
    .addColumn('sent_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('telegram_outbox_due_idx')
    .on('telegram_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema.alterTable('notifications').addColumn('dispatched_at', time).execute();
  await db.schema.alterTable('notifications').addColumn('alert_id', 'integer').execute();
  await db
    .updateTable('notifications')
    .set({ dispatched_at: sql.ref('created_at') })
    .execute();
  await db.schema
    .createIndex('notifications_undispatched_idx')
    .on('notifications')
    .column('id')
    .where(sql.ref('dispatched_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(128)', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('notifications_undispatched_idx').execute();
  await db.schema.alterTable('notifications').dropColumn('alert_id').execute();
  await db.schema.alterTable('notifications').dropColumn('dispatched_at').execute();
  for (const table of [
    'job_leases',
    'telegram_outbox',
    'integrations',
    'support_messages',
    'alert_events',
    'alerts',
    'alert_photos',
    'user_settings',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
