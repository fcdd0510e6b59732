import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { FilterWhitelist } from '../../plugins/pagination.js';

/** `filters[…]` of the notification lists (docs/api.md). */
export const NOTIFICATION_FILTERS: FilterWhitelist = {
  kind: { column: 'notifications.kind', type: 'string', operators: ['=', 'in'] },
  severity: { column: 'notifications.severity', type: 'string', operators: ['=', 'in'] },
  device_id: { column: 'notifications.device_id', type: 'number', operators: ['=', 'in'] },
  created_at: { column: 'notifications.created_at', type: 'date', operators: ['>=', '<=', 'between'] },
  read_at: { column: 'notifications.read_at', type: 'date', operators: ['=', '!='] },
};

/** The user's own notifications (scoped by organisation and user), newest first. */
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
      'notifications.created_at',
      'notifications.read_at',
      'devices.name as device_name',
    ])
    .where('notifications.organisation_id', '=', organisationId)
    .where('notifications.user_id', '=', userId);
}
export type NotificationsQuery = ReturnType<typeof userNotifications>;
export type NotificationRow = Awaited<ReturnType<NotificationsQuery['executeTakeFirstOrThrow']>>;
