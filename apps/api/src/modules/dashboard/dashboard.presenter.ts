import { DEVICE_STATES, type DashboardDevice } from '@kontrol/contracts';
import type { DeviceLiveRow } from '../devices/devices.repository.js';
import type { LastWashRow, OpenEventTotal, StatFleetRow } from './dashboard.repository.js';

const SEVERITIES = [null, 'info', 'warning', 'critical'] as const;

/**
 * A device as the stat reads it, before its open events and complaints: its row of the fleet, what
 * the gateway wrote last of it and the end of its last completed wash.
 */
export function toDashboardDevice(
  row: StatFleetRow,
  live: DeviceLiveRow | undefined,
  lastWashTs: LastWashRow['last_wash_ts'] | undefined,
): DashboardDevice {
  const lastWash = lastWashTs === null || lastWashTs === undefined ? null : Number(lastWashTs);
  return {
    id: row.id,
    name: row.name,
    type_id: row.type_id,
    address_id: row.address_id,
    room_id: row.room_id,
    is_smart: row.controller_id !== null || row.template_id !== null,
    template_id: row.template_id,
    shift_start: row.shift_start,
    time_zone: row.time_zone,
    last_online: { last_utc: live?.last_online_at ?? null },
    work_start: { date: live?.work_start_date ?? null, start: live?.work_start_time ?? null },
    wash_interval_hours: row.wash_interval_hours === null ? null : Number(row.wash_interval_hours),
    last_wash_at: lastWash === null ? null : new Date(lastWash).toISOString(),
    state: live?.state === null || live?.state === undefined ? null : (DEVICE_STATES[live.state] ?? null),
    current: live?.current ?? null,
    temperature: live?.temperature ?? null,
    open_events: 0,
    open_complaints: 0,
    open_severity: null,
    problem_since: null,
  };
}

/** The device with its open events and complaints laid over; the same object when it has none. */
export function withProblems(
  device: DashboardDevice,
  open: OpenEventTotal | undefined,
  openComplaints: number,
): DashboardDevice {
  if (!open && openComplaints === 0) return device;
  return {
    ...device,
    open_events: open ? Number(open.open_events) : 0,
    open_complaints: openComplaints,
    open_severity: open ? (SEVERITIES[Number(open.severity_rank)] ?? null) : null,
    problem_since: open ? new Date(Number(open.since_ts)).toISOString() : null,
  };
}
