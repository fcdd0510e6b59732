import type { Database, TelegramOutboxTable } from '@kontrol/db';
import type { Insertable, Kysely } from 'kysely';

/**
 * Takes up to `limit` notifications nobody has handed on yet, oldest first, marking them handed
 * (`dispatched_at`). The update is conditional on `dispatched_at` still being null, so when two
 * dispatchers list the same rows each row is returned to one of them only (PostgreSQL re-checks
 * the condition after the other's update commits; SQLite runs one writer at a time).
 */
export async function claimUndispatched(db: Kysely<Database>, now: string, limit: number) {
  const candidates = await db
    .selectFrom('notifications')
    .select('id')
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  if (candidates.length === 0) return [];
  const rows = await db
    .updateTable('notifications')
    .set({ dispatched_at: now })
    .where(
      'id',
      'in',
      candidates.map((row) => row.id),
    )
    .where('dispatched_at', 'is', null)
    .returning([
      'id',
      'organisation_id',
      'user_id',
      'kind',
      'severity',
      'title',
      'body',
      'device_id',
      'event_id',
      'complaint_id',
      'created_at',
    ])
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}
export type ClaimedNotification = Awaited<ReturnType<typeof claimUndispatched>>[number];

/** The recipients of claimed notifications: address, language, whether disabled, and their settings row. */
export function findRecipients(db: Kysely<Database>, userIds: readonly number[]) {
  return db
    .selectFrom('users')
    .leftJoin('user_settings', (join) =>
      join
        .onRef('user_settings.user_id', '=', 'users.id')
        .onRef('user_settings.organisation_id', '=', 'users.organisation_id'),
    )
    .select([
      'users.id',
      'users.organisation_id',
      'users.name',
      'users.email',
      'users.locale',
      'users.disabled_at',
      'users.email_verified_at',
      'user_settings.user_id as settings_user_id',
      'user_settings.web',
      'user_settings.email as email_on',
      'user_settings.telegram',
      'user_settings.kinds',
      'user_settings.severities',
      'user_settings.quiet_start',
      'user_settings.quiet_end',
      'user_settings.quiet_hours_critical',
      'user_settings.time_zone',
    ])
    .where('users.id', 'in', userIds)
    .execute();
}
export type RecipientRow = Awaited<ReturnType<typeof findRecipients>>[number];

/** The bound, working Telegram chats of these users, in their own organisation. */
export function findActiveChats(db: Kysely<Database>, userIds: readonly number[]) {
  return db
    .selectFrom('integrations')
    .innerJoin('users', (join) =>
      join
        .onRef('users.id', '=', 'integrations.user_id')
        .onRef('users.organisation_id', '=', 'integrations.organisation_id'),
    )
    .select([
      'integrations.id',
      'integrations.user_id',
      'integrations.organisation_id',
      'integrations.chat_id',
    ])
    .where('integrations.user_id', 'in', userIds)
    .where('integrations.kind', '=', 'telegram')
    .where('integrations.status', '=', 'active')
    .where('integrations.chat_id', 'is not', null)
    .orderBy('integrations.id')
    .execute();
}

export async function insertTelegramMessages(
  db: Kysely<Database>,
  messages: readonly Insertable<TelegramOutboxTable>[],
) {
  // In chunks: one statement's parameters stay well under SQLite's and PostgreSQL's limits.
  for (let i = 0; i < messages.length; i += 500)
    await db
      .insertInto('telegram_outbox')
      .values(messages.slice(i, i + 500))
      .execute();
}

/** The users' settings rows (the live stream filters by them). */
export function findSettings(db: Kysely<Database>, userIds: readonly number[]) {
  return db.selectFrom('user_settings').selectAll().where('user_id', 'in', userIds).execute();
}
