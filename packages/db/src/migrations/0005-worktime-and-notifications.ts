import { type AnyDb, isPostgres, primaryId, timeType } from './support.js';

/**
 * - `telemetry_hour.first_working_ts` / `last_working_ts`: the first and last working sample of the
 *   hour, so a worktime report (start and end of each day's work) reads hours only, never minutes.
 * - `notifications`: what a user is told (web; e-mail and Telegram copies come with their issue).
 *   `event_id` names the device event that raised it, once events exist (docs/events.md).
 */
export async function up(db: AnyDb): Promise<void> {
  const big = isPostgres(db) ? 'bigint' : 'integer';
  const time = timeType(db);
  await db.schema.alterTable('telemetry_hour').addColumn('first_working_ts', big).execute();
  await db.schema.alterTable('telemetry_hour').addColumn('last_working_ts', big).execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', primaryId(db))
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('set null'))
    .addColumn('event_id', 'integer')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('read_at', time)
    .execute();
  await db.schema
    .createIndex('notifications_user_created_idx')
    .on('notifications')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.alterTable('telemetry_hour').dropColumn('last_working_ts').execute();
  await db.schema.alterTable('telemetry_hour').dropColumn('first_working_ts').execute();
}
