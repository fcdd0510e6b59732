import {
  eventDetailText,
  eventTitle,
  type DeviceEvent,
  type EventDetails,
  type Locale,
} from '@kontrol/contracts';
import type { EventRow } from './events.repository.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** An event row as the API answers it, worded in the request's language. */
export function toEvent(row: EventRow, locale: Locale): DeviceEvent {
  const details = row.details === null ? null : (JSON.parse(row.details) as EventDetails);
  return {
    id: row.id,
    device_id: row.device_id,
    device_name: row.device_name,
    template_id: row.template_id,
    rule_key: row.rule_key,
    kind: row.kind as DeviceEvent['kind'],
    severity: row.severity,
    title: eventTitle(locale, row.kind, row.title),
    description:
      row.description ??
      eventDetailText(locale, row.kind, details, row.value === null ? null : Number(row.value)),
    started_at: iso(row.started_ts) as string,
    ended_at: iso(row.ended_ts),
    value: row.value === null ? null : Number(row.value),
    acknowledged:
      row.acknowledged_at === null
        ? null
        : {
            by:
              row.acknowledged_by === null
                ? null
                : { id: row.acknowledged_by, name: row.acknowledged_by_name ?? '' },
            at: row.acknowledged_at,
            comment: row.ack_comment,
          },
    created_by: row.created_by === null ? null : { id: row.created_by, name: row.created_by_name ?? '' },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
