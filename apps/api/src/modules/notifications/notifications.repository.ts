import type { Database } from '@kontrol/db';
import { sql, type Kysely } from 'kysely';
import type { FilterWhitelist } from '../../lib/pagination.js';

/** `filters[…]` of the notification lists (docs/api.md). */
export const NOTIFICATION_FILTERS: FilterWhitelist = {
  kind: { column: 'notifications.kind', type: 'string', operators: ['=', 'in'] },
  severity: { column: 'notifications.severity', type: 'string', operators: ['=', 'in'] },
  device_id: { column: 'notifications.device_id', type: 'number', operators: ['=', 'in'] },
  occurred_at: { column: 'notifications.occurred_at', type: 'date', operators: ['>=', '<=', 'between'] },
  created_at: { column: 'notifications.created_at', type: 'date', operators: ['>=', '<=', 'between'] },
  read_at: { column: 'notifications.read_at', type: 'date', operators: ['=', '!='] },
};

/** The user's own notifications (scoped by organisation and user); callers choose the order. */
export function userNotifications(db: Kysely<Database>, organisationId: number, userId: number) {
  return db
    .selectFrom('notifications')
    .leftJoin('devices', 'devices.id', 'notifications.device_id')
    .select([
      'notifications.id',
      'notifications.kind',
      'notifications.severity',
      'notifications.title',
      'notifications.body',
      'notifications.device_id',
      'notifications.event_id',
      'notifications.complaint_id',
      'notifications.created_at',
      // A row written without it (only the tests' own) reads as written when it was written.
      sql<string>`coalesce(notifications.occurred_at, notifications.created_at)`.as('occurred_at'),
      'notifications.read_at',
      'devices.name as device_name',
    ])
    .where('notifications.organisation_id', '=', organisationId)
    .where('notifications.user_id', '=', userId);
}
export type NotificationsQuery = ReturnType<typeof userNotifications>;
export type NotificationRow = Awaited<ReturnType<NotificationsQuery['executeTakeFirstOrThrow']>>;

/** How many of `ids` are the user's own notifications. */
export async function countOwn(
  db: Kysely<Database>,
  organisationId: number,
  userId: number,
  ids: readonly number[],
) {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks the user's unread notifications read (those in `ids`, or all); how many changed. */
export async function markRead(
  db: Kysely<Database>,
  organisationId: number,
  userId: number,
  ids: readonly number[] | undefined,
  now: string,
) {
  let query = db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids) query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The user's unread notifications. */
export async function countUnread(db: Kysely<Database>, organisationId: number, userId: number) {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
