import type { NotificationRow } from './notifications.repository.js';

/** A notification of the list; the device is named by its id (its name is for the download). */
export function toNotification(row: NotificationRow) {
  return {
    id: row.id,
    kind: row.kind,
    severity: row.severity,
    title: row.title,
    body: row.body,
    device_id: row.device_id,
    event_id: row.event_id,
    alert_id: row.alert_id,
    occurred_at: row.occurred_at,
    created_at: row.created_at,
    read_at: row.read_at,
  };
}
