import {
  dashboardCounters,
  isTimeZone,
  localDateTime,
  zonedDayStart,
  type DashboardReport,
  type DeviceStat,
  type Locale,
  type PreferGraph,
  toStatDevice,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { parseNorms } from '@kontrol/domain';
import type { Kysely } from 'kysely';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { eventsQuery } from '../device-events/events.repository.js';
import { toEvent } from '../device-events/events.presenter.js';
import { findRollups, findWashCycles } from '../telemetry/telemetry.repository.js';
import { worktimeReport } from '../telemetry/telemetry.service.js';
import {
  findDeviceType,
  findEventIdsOverlapping,
  findHourTotals,
  findOpenComplaintTotals,
  findOpenEventTotals,
  findLastWashes,
  findReportDevice,
  findStatFleet,
  type LastWashRow,
  type StatFleetRow,
} from './dashboard.repository.js';
import { findDevicesLive, type DeviceLiveRow } from '../devices/devices.repository.js';
import { toDashboardDevice, withProblems } from './dashboard.presenter.js';

const HOUR_MS = 3_600_000;

/** How `deviceStat` reads what changes at its own pace: kept parts, or read each time. */
export interface StatSources {
  /** The devices as the fleet holds them (`findStatFleet`): they change only with it. */
  fleet?: (
    typeId: number | undefined,
    read: () => Promise<readonly StatFleetRow[]>,
  ) => Promise<readonly StatFleetRow[]>;
  /** What the gateway writes all the time (`findDevicesLive`, which the device lists read too). */
  live?: (
    typeId: number | undefined,
    read: () => Promise<readonly DeviceLiveRow[]>,
  ) => Promise<readonly DeviceLiveRow[]>;
  /** The ends of the devices' last completed washes (`findLastWashes`). */
  washes?: (
    typeId: number | undefined,
    read: () => Promise<readonly LastWashRow[]>,
  ) => Promise<readonly LastWashRow[]>;
}

/**
 * `GET /api/devices/stat[/{type}]`: every device (of the type) with what the dashboard's rules
 * read, as `toStatDevice` sends it (no name or place, no empty field); the six counters at `now`,
 * `issues_count` (devices with open events or open complaints) and `bad_devices_for_templates`
 * (smart devices without a template).
 */
export async function deviceStat(
  db: Kysely<Database>,
  organisationId: number,
  type: string | undefined,
  now = Date.now(),
  sources: StatSources = {},
): Promise<DeviceStat> {
  let typeId: number | undefined;
  if (type !== undefined) {
    const found = await findDeviceType(db, type);
    if (!found) throw notFound();
    typeId = found.id;
  }
  const readFleet = () => findStatFleet(db, organisationId, typeId);
  const readLive = () => findDevicesLive(db, organisationId, typeId);
  const readWashes = () => findLastWashes(db, organisationId, typeId);
  const [fleet, live, washes, totals, complaintTotals] = await Promise.all([
    sources.fleet ? sources.fleet(typeId, readFleet) : readFleet(),
    sources.live ? sources.live(typeId, readLive) : readLive(),
    sources.washes ? sources.washes(typeId, readWashes) : readWashes(),
    findOpenEventTotals(db, organisationId),
    findOpenComplaintTotals(db, organisationId),
  ]);
  const liveOf = new Map(live.map((row) => [row.device_id, row]));
  const washOf = new Map(washes.map((row) => [row.device_id, row.last_wash_ts]));
  const open = new Map(totals.map((row) => [row.device_id, row]));
  const complained = new Map(complaintTotals.map((row) => [row.device_id, Number(row.open_complaints)]));
  const devices = fleet.map((row) =>
    withProblems(
      toDashboardDevice(row, liveOf.get(row.id), washOf.get(row.id)),
      open.get(row.id),
      complained.get(row.id) ?? 0,
    ),
  );
  const counters = dashboardCounters(devices, now);
  return {
    devices: devices.map(toStatDevice),
    issues_count: counters.issueReports,
    bad_devices_for_templates: counters.devicesWithoutTmplNorma,
    counters,
    now: new Date(now).toISOString(),
  };
}

function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * `GET /api/devices/info/prefer_graph`: per hour of the local day, devices (of one type, when
 * `type` names one: the dashboard's type filter) that reported, worked, washed.
 */
export async function preferGraph(
  db: Kysely<Database>,
  organisationId: number,
  query: { date: string; tz?: string | undefined; type?: string | undefined },
): Promise<PreferGraph> {
  const timeZone = query.tz ?? 'UTC';
  if (!isTimeZone(timeZone)) throw new FieldValidationError({ tz: ['field.time_zone'] });
  let typeId: number | undefined;
  if (query.type !== undefined) {
    const found = await findDeviceType(db, query.type);
    if (!found) throw new FieldValidationError({ type: ['field.exists'] });
    typeId = found.id;
  }
  const start = zonedDayStart(query.date, timeZone);
  const finish = zonedDayStart(nextDate(query.date), timeZone);
  const rows = await findHourTotals(db, organisationId, { start, finish }, typeId);
  const byBucket = new Map(rows.map((row) => [Number(row.bucket), row]));
  const hours: PreferGraph['hours'] = [];
  for (let bucket = Math.ceil(start / HOUR_MS) * HOUR_MS; bucket < finish; bucket += HOUR_MS) {
    const row = byBucket.get(bucket);
    hours.push({
      start: new Date(bucket).toISOString(),
      label: localDateTime(bucket, timeZone).time,
      online: row ? Number(row.online) : 0,
      working: row ? Number(row.working) : 0,
      washing: row ? Number(row.washing) : 0,
    });
  }
  return { date: query.date, time_zone: timeZone, hours };
}

/**
 * `GET /api/devices/reports/dashboard`: one device's local day at its address — the metric by the
 * minute, its template's bands, the events that overlap the day, its washes and its work.
 */
export async function dashboardReport(
  db: Kysely<Database>,
  organisationId: number,
  query: { date: string; device: number; report: 'current' | 'temperature' },
  locale: Locale,
): Promise<DashboardReport> {
  const device = await findReportDevice(db, organisationId, query.device);
  if (!device) throw notFound();
  const range = {
    start: zonedDayStart(query.date, device.time_zone),
    finish: zonedDayStart(nextDate(query.date), device.time_zone),
  };
  const [minutes, eventIds, washes, work] = await Promise.all([
    findRollups(db, 'telemetry_minute', [device.id], range),
    findEventIdsOverlapping(db, organisationId, device.id, range),
    findWashCycles(db, device.id, range),
    worktimeReport(db, organisationId, { start: query.date, finish: query.date, ids: [device.id] }),
  ]);
  const events =
    eventIds.length === 0
      ? []
      : await eventsQuery(db, organisationId)
          .where(
            'e.id',
            'in',
            eventIds.map((row) => row.id),
          )
          .orderBy('e.started_ts')
          .execute();
  const t: number[] = [];
  const mean: (number | null)[] = [];
  const min: (number | null)[] = [];
  const max: (number | null)[] = [];
  const round = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);
  for (const row of minutes) {
    t.push(Number(row.bucket));
    if (query.report === 'current') {
      mean.push(round(row.current_sum / row.samples));
      min.push(round(row.current_min));
      max.push(round(row.current_max));
    } else {
      mean.push(row.temperature_samples > 0 ? round(row.temperature_sum / row.temperature_samples) : null);
      min.push(round(row.temperature_min));
      max.push(round(row.temperature_max));
    }
  }
  const day = work[0];
  return {
    device_id: device.id,
    date: query.date,
    time_zone: device.time_zone,
    report: query.report,
    t,
    mean,
    min,
    max,
    norms: query.report === 'current' && device.norms ? parseNorms(device.norms) : null,
    events: events.map((row) => toEvent(row, locale)),
    washes: washes.map((cycle) => ({
      start: new Date(Number(cycle.started_ts)).toISOString(),
      finish: new Date(Number(cycle.ended_ts)).toISOString(),
      outcome: cycle.outcome,
    })),
    work: { start: day?.start ?? null, end: day?.end ?? null, worked_minutes: day?.worked_minutes ?? 0 },
  };
}
