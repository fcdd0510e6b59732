import {
  translate,
  type ComplaintPriority,
  type ComplaintStatus,
  type Locale,
  type MessageKey,
} from '@kontrol/contracts';
import type { Database, NotificationSeverity, NotificationsTable } from '@kontrol/db';
import type { Insertable, Transaction } from 'kysely';
import { findModuleHolders, insertNotifications } from './complaints.repository.js';

/**
 * Who is told of a complaint's changes, and what (docs/complaints.md, "Notifications"). One
 * `notifications` row per recipient, in the recipient's language, kind `request`, written in the
 * transaction of the change and left undispatched (`dispatched_at` null): the e-mail and Telegram
 * delivery picks them up and applies each user's settings.
 */

/** Severity of a complaint's notifications, from its priority. */
export const PRIORITY_SEVERITY: Record<ComplaintPriority, NotificationSeverity> = {
  low: 'info',
  normal: 'info',
  high: 'warning',
  urgent: 'critical',
};

/** Longest piece of a complaint's or a comment's text quoted in a notification. */
const QUOTE_MAX_LENGTH = 500;
const TITLE_MAX_LENGTH = 255;

/** At most `max` characters (whole code points), with an ellipsis when cut. */
function clip(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/** What changed; each change of a request is told separately. */
export type ComplaintChange =
  | { kind: 'created'; text: string; assigneeId: number | null }
  | { kind: 'comment'; text: string | null; photos: number }
  | { kind: 'status'; from: ComplaintStatus; to: ComplaintStatus }
  | { kind: 'assignee'; assigneeId: number | null; assigneeName: string | null };

export interface ComplaintNotice {
  organisationId: number;
  complaintId: number;
  title: string;
  priority: ComplaintPriority;
  deviceId: number | null;
  /** The device's name, else the address's; what the complaint is about. */
  subject: string;
  actor: { id: number; name: string };
  now: string;
}

/** A status as people read it, in `locale`. */
export const complaintStatusName = (locale: Locale, status: ComplaintStatus) =>
  translate(locale, `complaint.status.${status}` as const);
const priorityName = (locale: Locale, priority: ComplaintPriority) =>
  translate(locale, `complaint.priority.${priority}` as const);

/** The new assignee of a change, who is told even of their own change (it is their work now). */
function newAssignee(change: ComplaintChange): number | null {
  if (change.kind === 'created' || change.kind === 'assignee') return change.assigneeId;
  return null;
}

function texts(
  locale: Locale,
  notice: ComplaintNotice,
  change: ComplaintChange,
  toAssignee: boolean,
): { title: string; body: string } {
  const t = (key: MessageKey, params?: Record<string, string | number>) => translate(locale, key, params);
  const title = notice.title;
  const author = notice.actor.name;
  switch (change.kind) {
    case 'created': {
      const summary = t('complaint.notify.created_body', {
        subject: notice.subject,
        priority: priorityName(locale, notice.priority),
        author,
      });
      return {
        title: toAssignee
          ? t('complaint.notify.assigned_to_you', { title })
          : t('complaint.notify.created', { title }),
        body: change.text ? `${summary}\n${clip(change.text, QUOTE_MAX_LENGTH)}` : summary,
      };
    }
    case 'comment': {
      const parts = [
        change.text ? clip(change.text, QUOTE_MAX_LENGTH) : null,
        change.photos > 0 ? t('complaint.notify.photos', { count: change.photos }) : null,
      ].filter((part): part is string => part !== null);
      return {
        title: t('complaint.notify.comment', { title }),
        body: t('complaint.notify.comment_body', { author, text: parts.join(' · ') }),
      };
    }
    case 'status':
      return {
        title: t('complaint.notify.status', { title, status: complaintStatusName(locale, change.to) }),
        body: t('complaint.notify.status_body', {
          author,
          from: complaintStatusName(locale, change.from),
          to: complaintStatusName(locale, change.to),
        }),
      };
    case 'assignee':
      return {
        title: toAssignee
          ? t('complaint.notify.assigned_to_you', { title })
          : change.assigneeId === null
            ? t('complaint.notify.unassigned', { title })
            : t('complaint.notify.assignee', { title, name: change.assigneeName ?? '' }),
        body: `${notice.subject} · ${t('complaint.notify.changed_by', { author })}`,
      };
  }
}

/**
 * Writes the notifications of `changes` (in order) for the holders of module `requests` who are
 * active, except the person who made them; a new assignee always gets one, worded for them.
 * Answers how many rows were written.
 */
export async function notifyComplaintChanges(
  trx: Transaction<Database>,
  notice: ComplaintNotice,
  changes: readonly ComplaintChange[],
): Promise<number> {
  if (changes.length === 0) return 0;
  const holders = await findModuleHolders(trx, notice.organisationId, 'requests');
  const rows: Insertable<NotificationsTable>[] = [];
  for (const change of changes) {
    const assigneeId = newAssignee(change);
    for (const user of holders) {
      const toAssignee = user.id === assigneeId;
      if (user.id === notice.actor.id && !toAssignee) continue;
      const { title, body } = texts(user.locale, notice, change, toAssignee);
      rows.push({
        organisation_id: notice.organisationId,
        user_id: user.id,
        kind: 'request',
        severity: PRIORITY_SEVERITY[notice.priority],
        title: clip(title, TITLE_MAX_LENGTH),
        body,
        device_id: notice.deviceId,
        event_id: null,
        complaint_id: notice.complaintId,
        created_at: notice.now,
        // What it tells of (a complaint's change) happened as it was written.
        occurred_at: notice.now,
        read_at: null,
        dispatched_at: null,
      });
    }
  }
  await insertNotifications(trx, rows);
  return rows.length;
}
