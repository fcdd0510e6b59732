// Kept free of zod: the console joins every stat answer with its devices list on the main thread.
import type { DashboardDevice, StatDevice } from './dashboard.js';

/** What a stat device takes from the devices list (`GET /api/devices/`): its name and place. */
export interface ListedDevice {
  name: string;
  type_id: number;
  address_id: number;
  room_id: number;
}

/**
 * The device as `GET /api/devices/stat` sends it (docs/dashboard.md, "The stat answer"): without
 * its name and place, and without any field at its empty value.
 */
export function toStatDevice(device: DashboardDevice): StatDevice {
  const sent: StatDevice = { id: device.id, time_zone: device.time_zone };
  if (device.is_smart) sent.is_smart = true;
  if (device.template_id !== null) sent.template_id = device.template_id;
  if (device.shift_start !== null) sent.shift_start = device.shift_start;
  if (device.last_online.last_utc !== null) sent.last_online = device.last_online;
  if (device.work_start.date !== null || device.work_start.start !== null)
    sent.work_start = device.work_start;
  if (device.wash_interval_hours !== null) sent.wash_interval_hours = device.wash_interval_hours;
  if (device.last_wash_at !== null) sent.last_wash_at = device.last_wash_at;
  if (device.state !== null) sent.state = device.state;
  if (device.current !== null) sent.current = device.current;
  if (device.temperature !== null) sent.temperature = device.temperature;
  if (device.open_events > 0) sent.open_events = device.open_events;
  if ((device.open_complaints ?? 0) > 0) sent.open_complaints = device.open_complaints;
  if (device.open_severity !== null) sent.open_severity = device.open_severity;
  if (device.problem_since !== null) sent.problem_since = device.problem_since;
  return sent;
}

const NEVER = { last_utc: null };
const NO_WORK = { date: null, start: null };

/**
 * A stat device with its empty fields filled in and its name and place from the devices list;
 * a device the list does not hold yet (added since it loaded) is named by its id.
 */
export function fromStatDevice(device: StatDevice, listed: ListedDevice | undefined): DashboardDevice {
  return {
    id: device.id,
    name: listed?.name ?? `#${device.id}`,
    type_id: listed?.type_id ?? 0,
    address_id: listed?.address_id ?? 0,
    room_id: listed?.room_id ?? 0,
    is_smart: device.is_smart === true,
    template_id: device.template_id ?? null,
    shift_start: device.shift_start ?? null,
    time_zone: device.time_zone,
    last_online: device.last_online ?? NEVER,
    work_start: device.work_start ?? NO_WORK,
    wash_interval_hours: device.wash_interval_hours ?? null,
    last_wash_at: device.last_wash_at ?? null,
    state: device.state ?? null,
    current: device.current ?? null,
    temperature: device.temperature ?? null,
    open_events: device.open_events ?? 0,
    open_complaints: device.open_complaints ?? 0,
    open_severity: device.open_severity ?? null,
    problem_since: device.problem_since ?? null,
  };
}
