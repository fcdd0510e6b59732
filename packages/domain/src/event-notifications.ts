import {
  eventDetailText,
  eventTitle,
  translate,
  type EventDetails,
  type ModuleSlug,
} from '@kontrol/contracts';
import type { Database, NotificationSeverity } from '@kontrol/db';
import type { Kysely, Transaction } from 'kysely';

/**
 * A device event's web notifications, written the same way by the gateway's rules engine (an
 * event a rule opens) and the API (an event written by hand): docs/events.md, "Notifications".
 */

type Db = Kysely<Database> | Transaction<Database>;

/** Holders of these modules are told of new device events (web notifications). */
export const EVENT_NOTIFY_MODULES: readonly ModuleSlug[] = ['dashboard', 'devices', 'device_event_template'];

/** Users of the organisation who are told of device events, with their language. */
export async function eventRecipients(db: Db, organisationId: number) {
  return db
    .selectFrom('users')
    .innerJoin('acl_roles', (join) =>
      join
        .onRef('acl_roles.id', '=', 'users.acl_role_id')
        .onRef('acl_roles.organisation_id', '=', 'users.organisation_id'),
    )
    .innerJoin('acl_role_modules', 'acl_role_modules.acl_role_id', 'acl_roles.id')
    .innerJoin('acl_modules', 'acl_modules.id', 'acl_role_modules.acl_module_id')
    .select(['users.id', 'users.locale'])
    .distinct()
    .where('users.organisation_id', '=', organisationId)
    .where('users.disabled_at', 'is', null)
    .where('acl_modules.slug', 'in', EVENT_NOTIFY_MODULES as ModuleSlug[])
    .execute();
}

export interface EventToNotify {
  id: number;
  organisationId: number;
  deviceId: number;
  deviceName: string;
  kind: string;
  severity: NotificationSeverity;
  /** A manual event's own title and description. */
  title: string | null;
  description: string | null;
  details: EventDetails | null;
  value: number | null;
  /** When the event started (epoch ms): the notification's `occurred_at`. */
  startedTs: number;
}

/**
 * A web notification per recipient, in the recipient's language (docs/events.md,
 * "Notifications"). E-mail and Telegram copies are sent by their own issue from these rows.
 */
export async function notifyEvent(db: Db, event: EventToNotify, nowIso: string): Promise<number> {
  const recipients = await eventRecipients(db, event.organisationId);
  if (recipients.length === 0) return 0;
  await db
    .insertInto('notifications')
    .values(
      recipients.map((user) => {
        const locale = user.locale;
        const detail = event.description ?? eventDetailText(locale, event.kind, event.details, event.value);
        return {
          organisation_id: event.organisationId,
          user_id: user.id,
          kind: event.kind,
          severity: event.severity,
          title: eventTitle(locale, event.kind, event.title).slice(0, 255),
          body: detail
            ? translate(locale, 'notification.event_body', { device: event.deviceName, detail })
            : event.deviceName,
          device_id: event.deviceId,
          event_id: event.id,
          created_at: nowIso,
          occurred_at: new Date(event.startedTs).toISOString(),
          read_at: null,
        };
      }),
    )
    .execute();
  return recipients.length;
}
