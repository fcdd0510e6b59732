import {
  washOverdue,
  CONNECTION_GAP_MS,
  MAX_REPORT_DEVICES,
  MAX_REPORT_RANGE_DAYS,
  MAX_TELEMETRY_DEVICES,
  MAX_TELEMETRY_RANGE_DAYS,
  MAX_TEMPERATURE_DETAIL_DAYS,
  MAX_TEMPERATURE_DETAIL_DEVICES,
  TEMPERATURE_RANGES,
  datesBetween,
  isTimeZone,
  localDateTime,
  zonedDayStart,
  type TelemetryAnswer,
  type TelemetryMetric,
  type TelemetryQuery,
  type DeviceTypeSlug,
  type TemperatureRange,
  type TemperatureReportDay,
  type WorktimeDay,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { zoneClock } from '../../lib/zone-clock.js';
import {
  findDays,
  findDeviceZones,
  findLastCompletedWash,
  findMinutesOutside,
  findOnlineMinutes,
  findReportDevices,
  findRollups,
  findSamples,
  findWashCycles,
  type ReportDevice,
  type RollupRow,
} from './telemetry.repository.js';

/**
 * Reading telemetry (docs/telemetry.md, "Reading"): charts from raw samples or rollups, online
 * intervals, and the day reports (worktime, temperature) in each device's local days. Every read
 * starts from the organisation's devices, so another organisation's ids are never read.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DEFAULT_METRICS: TelemetryMetric[] = ['current', 'temperature'];
const MAX_ONLINE_RANGE_DAYS = 31;

type Range = { start: number; finish: number };
type Columns = Record<string, (number | null)[]>;
interface Series {
  device_id: number;
  t: number[];
  values: Columns;
}
const emptySeries = (deviceId: number): Series => ({ device_id: deviceId, t: [], values: {} });

function checkRange(range: Range, maxDays: number, field = 'finish') {
  if (!(range.finish > range.start) || range.finish - range.start > maxDays * DAY_MS) {
    throw new FieldValidationError({ [field]: ['field.range'] }, { 'field.range': { days: maxDays } });
  }
}

/** The organisation's devices among `ids`, in the order asked; an id not among them is a 422. */
async function devicesOf(
  db: Kysely<Database>,
  organisationId: number,
  ids: readonly number[],
  field: string,
) {
  const rows = await findReportDevices(db, organisationId, ids);
  if (rows.length !== ids.length) throw new FieldValidationError({ [field]: ['field.exists'] });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) as ReportDevice);
}

/** `auto`: raw up to 6 hours, minutes up to 3 days, hours up to 90 days, days beyond. */
export function pickResolution(requested: TelemetryQuery['resolution'], range: Range) {
  if (requested !== 'auto') return requested;
  const span = range.finish - range.start;
  if (span <= 6 * HOUR_MS) return 'raw';
  if (span <= 3 * DAY_MS) return 'minute';
  if (span <= 90 * DAY_MS) return 'hour';
  return 'day';
}

const share = (count: number, samples: number) => (samples > 0 ? count / samples : null);

/** The columns a rollup bucket gives for the metrics asked. */
function pushRollup(
  columns: Columns,
  metrics: readonly TelemetryMetric[],
  row: Omit<RollupRow, 'device_id' | 'bucket'>,
) {
  const push = (name: string, value: number | null) => (columns[name] ??= []).push(value);
  for (const metric of metrics) {
    if (metric === 'current') {
      push('current', share(row.current_sum, row.samples));
      push('current_min', row.current_min);
      push('current_max', row.current_max);
    } else if (metric === 'temperature') {
      push('temperature', share(row.temperature_sum, row.temperature_samples));
      push('temperature_min', row.temperature_min);
      push('temperature_max', row.temperature_max);
    } else if (metric === 'working') {
      push('working', share(row.working, row.samples));
    } else if (metric === 'door_open') {
      push('door_open', share(row.door_open, row.samples));
    } else {
      push('washing', share(row.washing, row.samples));
      push('fault', share(row.fault, row.samples));
    }
  }
}

/** Hours summed into the local days of `timeZone` that begin at `dayStarts` (sorted). */
export function sumIntoDays(rows: readonly RollupRow[], dayStarts: readonly number[]) {
  const days = new Map<number, Omit<RollupRow, 'device_id' | 'bucket'>>();
  let index = 0;
  for (const row of rows) {
    const bucket = Number(row.bucket);
    while (index + 1 < dayStarts.length && (dayStarts[index + 1] as number) <= bucket) index += 1;
    const day = dayStarts[index] as number;
    const sum = days.get(day);
    if (!sum) {
      days.set(day, { ...row });
      continue;
    }
    sum.samples += row.samples;
    sum.current_sum += row.current_sum;
    sum.current_min = Math.min(sum.current_min, row.current_min);
    sum.current_max = Math.max(sum.current_max, row.current_max);
    sum.temperature_samples += row.temperature_samples;
    sum.temperature_sum += row.temperature_sum;
    if (row.temperature_min !== null)
      sum.temperature_min =
        sum.temperature_min === null
          ? row.temperature_min
          : Math.min(sum.temperature_min, row.temperature_min);
    if (row.temperature_max !== null)
      sum.temperature_max =
        sum.temperature_max === null
          ? row.temperature_max
          : Math.max(sum.temperature_max, row.temperature_max);
    sum.working += row.working;
    sum.washing += row.washing;
    sum.fault += row.fault;
    sum.door_open += row.door_open;
  }
  return days;
}

/** The local days touching [start, finish) in `timeZone`, as the moments they begin. */
export function dayStartsOf(range: Range, timeZone: string): number[] {
  const first = localDateTime(range.start, timeZone).date;
  const last = localDateTime(range.finish - 1, timeZone).date;
  return datesBetween(first, last).map((date) => zonedDayStart(date, timeZone));
}

/** `GET /api/telemetry/`. */
export async function readTelemetry(
  db: Kysely<Database>,
  organisationId: number,
  query: TelemetryQuery,
): Promise<TelemetryAnswer> {
  if (query.devices.length > MAX_TELEMETRY_DEVICES)
    throw new FieldValidationError({ devices: ['field.invalid'] });
  const range = { start: query.start, finish: query.finish };
  checkRange(range, MAX_TELEMETRY_RANGE_DAYS);
  const timeZone = query.tz ?? 'UTC';
  if (!isTimeZone(timeZone)) throw new FieldValidationError({ tz: ['field.time_zone'] });
  const devices = await devicesOf(db, organisationId, query.devices, 'devices');
  const ids = devices.map((device) => device.id);
  const metrics = query.metrics ?? DEFAULT_METRICS;
  const resolution = pickResolution(query.resolution, range);
  const series = new Map(ids.map((id) => [id, emptySeries(id)]));

  if (resolution === 'raw') {
    const rows = await findSamples(db, ids, range, {
      limit: query.per_page + 1,
      offset: (query.page - 1) * query.per_page,
    });
    const hasMore = rows.length > query.per_page;
    for (const row of rows.slice(0, query.per_page)) {
      const one = series.get(row.device_id);
      if (!one) continue;
      one.t.push(Number(row.ts));
      const push = (name: string, value: number | null) => (one.values[name] ??= []).push(value);
      for (const metric of metrics) {
        if (metric === 'current') push('current', row.current);
        else if (metric === 'temperature') {
          push('temperature', row.temperature);
          push('core_temperature', row.core_temperature);
          push('humidity', row.humidity);
        } else if (metric === 'door_open') push('door_open', row.door_open);
        else if (metric === 'state') push('state', row.state);
      }
    }
    return {
      data: { resolution, start: range.start, finish: range.finish, series: [...series.values()] },
      meta: { current_page: query.page, per_page: query.per_page, has_more: hasMore },
    };
  }

  const table = resolution === 'minute' ? 'telemetry_minute' : 'telemetry_hour';
  const unit = resolution === 'minute' ? MINUTE_MS : HOUR_MS;
  // A bucket that began before `start` still holds samples inside the range.
  const rows = await findRollups(db, table, ids, {
    start: range.start - (range.start % unit),
    finish: range.finish,
  });
  if (resolution === 'day') {
    const dayStarts = dayStartsOf(range, timeZone);
    const byDevice = new Map<number, RollupRow[]>();
    for (const row of rows)
      (byDevice.get(row.device_id) ?? byDevice.set(row.device_id, []).get(row.device_id))?.push(row);
    for (const [deviceId, deviceRows] of byDevice) {
      const one = series.get(deviceId);
      if (!one) continue;
      for (const [day, sum] of sumIntoDays(deviceRows, dayStarts)) {
        one.t.push(day);
        pushRollup(one.values, metrics, sum);
      }
    }
  } else {
    for (const row of rows) {
      const one = series.get(row.device_id);
      if (!one) continue;
      one.t.push(Number(row.bucket));
      pushRollup(one.values, metrics, row);
    }
  }
  return { data: { resolution, start: range.start, finish: range.finish, series: [...series.values()] } };
}

/** `GET /api/devices/info/last_online`: online intervals (samples came) and offline ones between. */
export async function lastOnlineIntervals(
  db: Kysely<Database>,
  organisationId: number,
  query: { id: number } & Range,
) {
  const [device] = await findReportDevices(db, organisationId, [query.id]);
  if (!device) throw notFound();
  const range = { start: query.start, finish: query.finish };
  checkRange(range, MAX_ONLINE_RANGE_DAYS);
  const minutes = await findOnlineMinutes(db, device.id, {
    start: range.start - (range.start % MINUTE_MS),
    finish: range.finish,
  });
  const online: Range[] = [];
  for (const minute of minutes) {
    const last = online[online.length - 1];
    if (last && minute - last.finish <= CONNECTION_GAP_MS) last.finish = minute + MINUTE_MS;
    else online.push({ start: minute, finish: minute + MINUTE_MS });
  }
  const intervals: { start: string; finish: string; online: boolean }[] = [];
  const add = (start: number, finish: number, isOnline: boolean) => {
    const from = Math.max(start, range.start);
    const to = Math.min(finish, range.finish);
    if (to > from)
      intervals.push({
        start: new Date(from).toISOString(),
        finish: new Date(to).toISOString(),
        online: isOnline,
      });
  };
  let cursor = range.start;
  for (const span of online) {
    add(cursor, span.start, false);
    add(span.start, span.finish, true);
    cursor = Math.max(cursor, span.finish);
  }
  add(cursor, range.finish, false);
  return { id: device.id, last_utc: device.last_online_at, intervals };
}

interface DayTotals {
  workedMinutes: number;
  firstWorking: number | null;
  lastWorking: number | null;
  temperatureSamples: number;
  temperatureSum: number;
  temperatureMin: number | null;
  temperatureMax: number | null;
}

/**
 * Each device's local days from `start` to `finish` (`YYYY-MM-DD`) from the day rollups (one row
 * per device and day; days without samples count as empty).
 */
async function dayTotals(
  db: Kysely<Database>,
  organisationId: number,
  query: { start: string; finish: string; ids?: number[] | undefined },
) {
  const dates = datesBetween(query.start, query.finish);
  if (dates.length === 0 || dates.length > MAX_REPORT_RANGE_DAYS)
    throw new FieldValidationError(
      { finish: ['field.range'] },
      { 'field.range': { days: MAX_REPORT_RANGE_DAYS } },
    );
  if (query.ids && query.ids.length > MAX_REPORT_DEVICES)
    throw new FieldValidationError({ ids: ['field.invalid'] });
  // In the order asked (by id without `ids`); an id not the organisation's is a 422.
  let devices = await findDeviceZones(db, organisationId, query.ids);
  if (query.ids) {
    if (devices.length !== query.ids.length) throw new FieldValidationError({ ids: ['field.exists'] });
    const byId = new Map(devices.map((device) => [device.id, device]));
    devices = query.ids.map((id) => byId.get(id) as (typeof devices)[number]);
  }
  const dateIndex = new Map(dates.map((date, index) => [date, index]));
  const totals = new Map<number, DayTotals[]>();
  for (const device of devices)
    totals.set(
      device.id,
      dates.map(() => ({
        workedMinutes: 0,
        firstWorking: null,
        lastWorking: null,
        temperatureSamples: 0,
        temperatureSum: 0,
        temperatureMin: null,
        temperatureMax: null,
      })),
    );
  const rows =
    devices.length > 0
      ? await findDays(
          db,
          devices.map((device) => device.id),
          query.start,
          query.finish,
        )
      : [];
  for (const row of rows) {
    const index = dateIndex.get(row.date);
    const day = index === undefined ? undefined : totals.get(row.device_id)?.[index];
    if (!day) continue;
    day.workedMinutes = row.working_minutes;
    day.firstWorking = row.first_working_ts === null ? null : Number(row.first_working_ts);
    day.lastWorking = row.last_working_ts === null ? null : Number(row.last_working_ts);
    day.temperatureSamples = row.temperature_samples;
    day.temperatureSum = row.temperature_sum;
    day.temperatureMin = row.temperature_min;
    day.temperatureMax = row.temperature_max;
  }
  return { dates, devices, totals };
}

/** `GET /api/devices/reports/worktime`: per device and local day, first and last working minute and minutes worked. */
export async function worktimeReport(
  db: Kysely<Database>,
  organisationId: number,
  query: { start: string; finish: string; ids?: number[] | undefined },
) {
  const { dates, devices, totals } = await dayTotals(db, organisationId, query);
  return devices.flatMap((device) =>
    dates.map((date, index) => {
      const day = totals.get(device.id)?.[index] as DayTotals;
      return {
        device_id: device.id,
        date,
        start: day.firstWorking === null ? null : zoneClock(device.time_zone).time(day.firstWorking),
        end: day.lastWorking === null ? null : zoneClock(device.time_zone).time(day.lastWorking),
        worked_minutes: day.workedMinutes,
      };
    }),
  );
}

/**
 * The worktime answer as JSON, written directly: a report of 1 000 devices is 1 000 rows of four
 * short fields, and fast-json-stringify's string of it, pieced together value by value, left
 * ~170 KB of garbage per request in the old generation (large objects) once compressed. Every
 * string here is our own (`YYYY-MM-DD`, `HH:MM`), so none needs escaping.
 */
export function worktimeAnswerJson(answer: { data: readonly WorktimeDay[] }): string {
  let json = '{"data":[';
  answer.data.forEach((day, index) => {
    json += `${index > 0 ? ',' : ''}{"device_id":${day.device_id},"date":"${day.date}","start":${
      day.start === null ? 'null' : `"${day.start}"`
    },"end":${day.end === null ? 'null' : `"${day.end}"`},"worked_minutes":${day.worked_minutes}}`;
  });
  return `${json}]}`;
}

/** `date` (`YYYY-MM-DD`) plus one day. */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

const roundTenth = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/**
 * `GET /api/devices/reports/temp`: per device and local day, the lowest, mean and highest
 * temperature; with `detail=hours` also the device type's range, the day's minutes outside it and
 * the day's hours (docs/telemetry.md, "Temperature report").
 */
export async function temperatureReport(
  db: Kysely<Database>,
  organisationId: number,
  query: { start: string; finish: string; ids?: number[] | undefined; detail?: 'hours' | undefined },
): Promise<TemperatureReportDay[]> {
  if (query.detail === 'hours') checkDetail(query);
  const { dates, devices, totals } = await dayTotals(db, organisationId, query);
  const days = devices.flatMap((device) =>
    dates.map((date, index): TemperatureReportDay => {
      const day = totals.get(device.id)?.[index] as DayTotals;
      return {
        device_id: device.id,
        date,
        min: roundTenth(day.temperatureMin),
        avg: day.temperatureSamples > 0 ? roundTenth(day.temperatureSum / day.temperatureSamples) : null,
        max: roundTenth(day.temperatureMax),
      };
    }),
  );
  if (query.detail !== 'hours' || devices.length === 0) return days;
  return withHours(db, organisationId, days, dates);
}

/** `detail=hours` reads the hourly and minute rollups: it needs `ids`, and a few devices and days. */
function checkDetail(query: { start: string; finish: string; ids?: number[] | undefined }) {
  if (!query.ids || query.ids.length > MAX_TEMPERATURE_DETAIL_DEVICES)
    throw new FieldValidationError({ ids: ['field.invalid'] });
  const count = datesBetween(query.start, query.finish).length;
  if (count === 0 || count > MAX_TEMPERATURE_DETAIL_DAYS)
    throw new FieldValidationError(
      { finish: ['field.range'] },
      { 'field.range': { days: MAX_TEMPERATURE_DETAIL_DAYS } },
    );
}

/**
 * The days of {@link temperatureReport} with their hours and minutes outside the type's range:
 * the hourly rollups (whole UTC hours, each given to the device's local day it starts in) and,
 * per type range, one grouped count over the minute rollups.
 */
async function withHours(
  db: Kysely<Database>,
  organisationId: number,
  days: TemperatureReportDay[],
  dates: string[],
): Promise<TemperatureReportDay[]> {
  const ids = [...new Set(days.map((day) => day.device_id))];
  const devices = await findReportDevices(db, organisationId, ids);
  const first = dates[0] as string;
  const after = nextDate(dates[dates.length - 1] as string);
  // One span covering every device's local days, whatever their zones.
  const range = {
    start: Math.min(...devices.map((device) => zonedDayStart(first, device.time_zone))),
    finish: Math.max(...devices.map((device) => zonedDayStart(after, device.time_zone))),
  };
  const bands = new Map<number, TemperatureRange | null>(
    devices.map((device) => [device.id, TEMPERATURE_RANGES[device.type_slug as DeviceTypeSlug] ?? null]),
  );
  const byBand = new Map<string, { band: TemperatureRange; ids: number[] }>();
  for (const [id, band] of bands) {
    if (!band) continue;
    const key = `${band.min}:${band.max}`;
    const entry = byBand.get(key) ?? { band, ids: [] };
    entry.ids.push(id);
    byBand.set(key, entry);
  }
  const [hours, ...outsides] = await Promise.all([
    findRollups(db, 'telemetry_hour', ids, range),
    ...[...byBand.values()].map((entry) => findMinutesOutside(db, entry.ids, range, entry.band)),
  ]);
  const outside = new Map<string, number>();
  for (const row of outsides.flat()) outside.set(`${row.device_id}:${row.hour}`, row.outside);

  const zones = new Map(devices.map((device) => [device.id, device.time_zone]));
  const byDay = new Map<string, TemperatureReportDay>();
  for (const day of days) {
    const band = bands.get(day.device_id) ?? null;
    byDay.set(`${day.device_id}:${day.date}`, {
      ...day,
      range: band,
      outside_minutes: band ? 0 : null,
      hours: [],
    });
  }
  for (const row of hours) {
    const bucket = Number(row.bucket);
    const date = localDateTime(bucket, zones.get(row.device_id) ?? 'UTC').date;
    const day = byDay.get(`${row.device_id}:${date}`);
    if (!day) continue;
    const minutes = day.range ? (outside.get(`${row.device_id}:${bucket}`) ?? 0) : null;
    day.hours?.push({
      start: new Date(bucket).toISOString(),
      min: roundTenth(row.temperature_min),
      avg: row.temperature_samples > 0 ? roundTenth(row.temperature_sum / row.temperature_samples) : null,
      max: roundTenth(row.temperature_max),
      outside_minutes: minutes,
    });
    if (minutes !== null && day.outside_minutes != null) day.outside_minutes += minutes;
  }
  return [...byDay.values()];
}

/** `GET /api/devices/reports/wash`: a device's wash cycles in the range, and whether its wash is outdated. */
export async function washReport(
  db: Kysely<Database>,
  organisationId: number,
  query: { id: number } & Range,
  now = Date.now(),
) {
  const [device] = await findReportDevices(db, organisationId, [query.id]);
  if (!device) throw notFound();
  const range = { start: query.start, finish: query.finish };
  checkRange(range, MAX_REPORT_RANGE_DAYS);
  const cycles = await findWashCycles(db, device.id, range);
  const lastCompleted = await findLastCompletedWash(db, device.id);
  const interval = device.wash_interval_hours ?? device.type_wash_interval_hours;
  return {
    id: device.id,
    wash_interval_hours: interval,
    last_completed: lastCompleted === undefined ? null : new Date(lastCompleted).toISOString(),
    outdated: washOverdue(interval, lastCompleted, now),
    cycles: cycles.map((cycle) => ({
      start: new Date(Number(cycle.started_ts)).toISOString(),
      finish: new Date(Number(cycle.ended_ts)).toISOString(),
      minutes: Math.round((Number(cycle.ended_ts) - Number(cycle.started_ts)) / MINUTE_MS),
      outcome: cycle.outcome,
    })),
    running_since:
      device.wash_started_ts === null ? null : new Date(Number(device.wash_started_ts)).toISOString(),
  };
}
