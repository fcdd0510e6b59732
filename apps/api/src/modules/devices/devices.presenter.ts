import type { Device, ServiceEntry, ServiceEntryKind } from '@kontrol/contracts';
import type { ServiceEntryRow } from './device-service-log.repository.js';
import type { DeviceRow } from './devices.repository.js';

/** A device row as the API answers it (`deviceSchema`). */
export function toDevice(row: DeviceRow): Device {
  return {
    id: row.id,
    name: row.name,
    type_id: row.type_id,
    room_id: row.room_id,
    address_id: row.address_id,
    serial_number: row.serial_number,
    controller_id: row.controller_id,
    template_id: row.template_id,
    is_smart: row.controller_id !== null || row.template_id !== null,
    shift_start: row.shift_start,
    wash_interval_hours: row.wash_interval_hours,
    service_interval_days: row.service_interval_days,
    next_service_date: row.next_service_date,
    notes: row.notes,
    last_online: { last_utc: row.last_online_at },
    work_start: { date: row.work_start_date, start: row.work_start_time },
    has_credential: Number(row.has_credential) === 1,
    credential_issued_at: row.credential_issued_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toServiceEntry(row: ServiceEntryRow): ServiceEntry {
  return {
    id: row.id,
    device_id: row.device_id,
    date: row.date,
    kind: row.kind as ServiceEntryKind,
    performed_by: row.performed_by,
    part: row.part,
    note: row.note,
    created_by:
      row.created_by_user_id !== null && row.created_by_name !== null
        ? { id: row.created_by_user_id, name: row.created_by_name }
        : null,
    created_at: row.created_at,
  };
}
