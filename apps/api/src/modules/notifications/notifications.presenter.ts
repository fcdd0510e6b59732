import type { NotificationRow } from './notifications.repository.js';

/** What the answer is made of: the list's rows and the live stream's alike. */
type NotificationFields = Pick<
  NotificationRow,
  | 'id'
  | 'kind'
  | 'severity'
  | 'title'
  | 'body'
  | 'device_id'
  | 'event_id'
  | 'complaint_id'
  | 'occurred_at'
  | 'created_at'
  | 'read_at'
>;

/**
 * A notification of the list and of the live stream; the device is named by its id (its name is
 * for the download).
 */
export function toNotification(row: NotificationFields) {
  return {
    id: row.id,
    kind: row.kind,
    severity: row.severity,
    title: row.title,
    body: row.body,
    device_id: row.device_id,
    event_id: row.event_id,
    alert_id: row.complaint_id,
    occurred_at: row.occurred_at,
    created_at: row.created_at,
    read_at: row.read_at,
  };
}
