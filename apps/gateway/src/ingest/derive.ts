import {
  CONNECTION_GAP_MS,
  MIN_COMPLETED_WASH_MS,
  WORKING_STATES,
  localDateTime,
  zonedDayStart,
} from '@kontrol/contracts';
import type { WashOutcome } from '@kontrol/db';
import type { GatewayDevice } from '../devices/device-directory.js';
import { STATE_CODES } from './samples.js';

/**
 * What the gateway derives from stored samples (docs/telemetry.md): minute and hour rollups, the
 * device's latest state with `last_online` and `work_start`, and wash cycles. Pure functions: the
 * stores (store-sqlite.ts, store-postgres.ts) read and write what these compute.
 */

/** A sample as stored: `state` is its code, `doorOpen` 0/1. */
export interface StoredSample {
  deviceId: number;
  ts: number;
  current: number;
  temperature: number | null;
  doorOpen: number | null;
  state: number;
  program: string | null;
  errorCode: string | null;
  coreTemperature: number | null;
  humidity: number | null;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** What a batch adds to one rollup row (a minute or an hour of one device). */
export interface RollupDelta {
  deviceId: number;
  bucket: number;
  samples: number;
  currentSum: number;
  currentMin: number;
  currentMax: number;
  temperatureSamples: number;
  temperatureSum: number;
  temperatureMin: number | null;
  temperatureMax: number | null;
  working: number;
  washing: number;
  fault: number;
  doorOpen: number;
  /** Hours only: minutes that became working with this batch. */
  workingMinutes: number;
  /** The first and last working sample (epoch ms), null when none worked. */
  firstWorkingTs: number | null;
  lastWorkingTs: number | null;
}

const WORKING_CODES = new Set(WORKING_STATES.map((state) => STATE_CODES[state]));
const WASHING = STATE_CODES.washing;
const FAULT = STATE_CODES.fault;
const IDLE = STATE_CODES.idle;
const OFF = STATE_CODES.off;

/** Working: heating or cooking, or drawing more than the type's idle current. */
export function isWorking(sample: StoredSample, device: GatewayDevice): boolean {
  return WORKING_CODES.has(sample.state) || sample.current > device.idleCurrentA;
}

function emptyDelta(deviceId: number, bucket: number): RollupDelta {
  return {
    deviceId,
    bucket,
    samples: 0,
    currentSum: 0,
    currentMin: Number.POSITIVE_INFINITY,
    currentMax: Number.NEGATIVE_INFINITY,
    temperatureSamples: 0,
    temperatureSum: 0,
    temperatureMin: null,
    temperatureMax: null,
    working: 0,
    washing: 0,
    fault: 0,
    doorOpen: 0,
    workingMinutes: 0,
    firstWorkingTs: null,
    lastWorkingTs: null,
  };
}

/** The minute rollup deltas of newly stored samples. */
export function minuteDeltas(
  samples: readonly StoredSample[],
  devices: ReadonlyMap<number, GatewayDevice>,
): RollupDelta[] {
  const byKey = new Map<string, RollupDelta>();
  // Samples come in runs of one device and minute: the previous delta usually is the one.
  let last: RollupDelta | undefined;
  for (const sample of samples) {
    const bucket = sample.ts - (sample.ts % MINUTE_MS);
    let delta = last && last.deviceId === sample.deviceId && last.bucket === bucket ? last : undefined;
    if (!delta) {
      const key = `${sample.deviceId}:${bucket}`;
      delta = byKey.get(key);
      if (!delta) {
        delta = emptyDelta(sample.deviceId, bucket);
        byKey.set(key, delta);
      }
      last = delta;
    }
    delta.samples += 1;
    delta.currentSum += sample.current;
    if (sample.current < delta.currentMin) delta.currentMin = sample.current;
    if (sample.current > delta.currentMax) delta.currentMax = sample.current;
    if (sample.temperature !== null) {
      delta.temperatureSamples += 1;
      delta.temperatureSum += sample.temperature;
      if (delta.temperatureMin === null || sample.temperature < delta.temperatureMin)
        delta.temperatureMin = sample.temperature;
      if (delta.temperatureMax === null || sample.temperature > delta.temperatureMax)
        delta.temperatureMax = sample.temperature;
    }
    const device = devices.get(sample.deviceId);
    if (device && isWorking(sample, device)) {
      delta.working += 1;
      if (delta.firstWorkingTs === null || sample.ts < delta.firstWorkingTs) delta.firstWorkingTs = sample.ts;
      if (delta.lastWorkingTs === null || sample.ts > delta.lastWorkingTs) delta.lastWorkingTs = sample.ts;
    }
    if (sample.state === WASHING) delta.washing += 1;
    if (sample.state === FAULT) delta.fault += 1;
    if (sample.doorOpen === 1) delta.doorOpen += 1;
  }
  return [...byKey.values()];
}

/**
 * The hour rollup deltas from the minute deltas. `workingAfter[i]` is minute `i`'s working count
 * after its upsert: a minute whose count was zero before this batch adds one working minute.
 */
export function hourDeltas(minutes: readonly RollupDelta[], workingAfter: readonly number[]): RollupDelta[] {
  const byKey = new Map<string, RollupDelta>();
  minutes.forEach((minute, index) => {
    const bucket = minute.bucket - (minute.bucket % HOUR_MS);
    const key = `${minute.deviceId}:${bucket}`;
    let hour = byKey.get(key);
    if (!hour) {
      hour = emptyDelta(minute.deviceId, bucket);
      byKey.set(key, hour);
    }
    hour.samples += minute.samples;
    hour.currentSum += minute.currentSum;
    hour.currentMin = Math.min(hour.currentMin, minute.currentMin);
    hour.currentMax = Math.max(hour.currentMax, minute.currentMax);
    hour.temperatureSamples += minute.temperatureSamples;
    hour.temperatureSum += minute.temperatureSum;
    if (minute.temperatureMin !== null)
      hour.temperatureMin =
        hour.temperatureMin === null
          ? minute.temperatureMin
          : Math.min(hour.temperatureMin, minute.temperatureMin);
    if (minute.temperatureMax !== null)
      hour.temperatureMax =
        hour.temperatureMax === null
          ? minute.temperatureMax
          : Math.max(hour.temperatureMax, minute.temperatureMax);
    hour.working += minute.working;
    if (minute.firstWorkingTs !== null)
      hour.firstWorkingTs =
        hour.firstWorkingTs === null
          ? minute.firstWorkingTs
          : Math.min(hour.firstWorkingTs, minute.firstWorkingTs);
    if (minute.lastWorkingTs !== null)
      hour.lastWorkingTs =
        hour.lastWorkingTs === null
          ? minute.lastWorkingTs
          : Math.max(hour.lastWorkingTs, minute.lastWorkingTs);
    hour.washing += minute.washing;
    hour.fault += minute.fault;
    hour.doorOpen += minute.doorOpen;
    const after = workingAfter[index] ?? 0;
    if (minute.working > 0 && after === minute.working) hour.workingMinutes += 1;
  });
  return [...byKey.values()];
}

/** What a batch adds to one device's local day. */
export interface DayDelta {
  deviceId: number;
  date: string;
  samples: number;
  workingMinutes: number;
  firstWorkingTs: number | null;
  lastWorkingTs: number | null;
  temperatureSamples: number;
  temperatureSum: number;
  temperatureMin: number | null;
  temperatureMax: number | null;
}

/**
 * The local date (`YYYY-MM-DD`, the device's zone) of each minute delta, in order; undefined for a
 * device not in `devices`. The zone's calendar is read once per device and day: minutes of one day
 * share the day's bounds.
 */
export function minuteDates(
  minutes: readonly RollupDelta[],
  devices: ReadonlyMap<number, GatewayDevice>,
): (string | undefined)[] {
  const windows = new Map<number, { start: number; end: number; date: string }>();
  return minutes.map((minute) => {
    const device = devices.get(minute.deviceId);
    if (!device) return undefined;
    let window = windows.get(device.id);
    if (!window || minute.bucket < window.start || minute.bucket >= window.end) {
      const date = localDateTime(minute.bucket, device.timeZone).date;
      const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      window = {
        date,
        start: zonedDayStart(date, device.timeZone),
        end: zonedDayStart(next, device.timeZone),
      };
      windows.set(device.id, window);
    }
    return window.date;
  });
}

/**
 * The local-day deltas from the minute deltas (as {@link hourDeltas}: a minute whose working count
 * was zero before adds a working minute), each minute in its local day ({@link minuteDates}).
 */
export function dayDeltas(
  minutes: readonly RollupDelta[],
  workingAfter: readonly number[],
  devices: ReadonlyMap<number, GatewayDevice>,
  dates: readonly (string | undefined)[] = minuteDates(minutes, devices),
): DayDelta[] {
  const byKey = new Map<string, DayDelta>();
  minutes.forEach((minute, index) => {
    const date = dates[index];
    if (date === undefined) return;
    const key = `${minute.deviceId}:${date}`;
    let day = byKey.get(key);
    if (!day) {
      day = {
        deviceId: minute.deviceId,
        date,
        samples: 0,
        workingMinutes: 0,
        firstWorkingTs: null,
        lastWorkingTs: null,
        temperatureSamples: 0,
        temperatureSum: 0,
        temperatureMin: null,
        temperatureMax: null,
      };
      byKey.set(key, day);
    }
    day.samples += minute.samples;
    const after = workingAfter[index] ?? 0;
    if (minute.working > 0 && after === minute.working) day.workingMinutes += 1;
    if (minute.firstWorkingTs !== null)
      day.firstWorkingTs =
        day.firstWorkingTs === null
          ? minute.firstWorkingTs
          : Math.min(day.firstWorkingTs, minute.firstWorkingTs);
    if (minute.lastWorkingTs !== null)
      day.lastWorkingTs =
        day.lastWorkingTs === null ? minute.lastWorkingTs : Math.max(day.lastWorkingTs, minute.lastWorkingTs);
    day.temperatureSamples += minute.temperatureSamples;
    day.temperatureSum += minute.temperatureSum;
    if (minute.temperatureMin !== null)
      day.temperatureMin =
        day.temperatureMin === null
          ? minute.temperatureMin
          : Math.min(day.temperatureMin, minute.temperatureMin);
    if (minute.temperatureMax !== null)
      day.temperatureMax =
        day.temperatureMax === null
          ? minute.temperatureMax
          : Math.max(day.temperatureMax, minute.temperatureMax);
  });
  return [...byKey.values()];
}

/** A device's row of `device_live`, as the stores read and write it. */
export interface LiveState {
  deviceId: number;
  lastTs: number | null;
  lastOnlineAt: string | null;
  current: number | null;
  temperature: number | null;
  doorOpen: number | null;
  state: number | null;
  program: string | null;
  errorCode: string | null;
  coreTemperature: number | null;
  humidity: number | null;
  workStartDate: string | null;
  workStartTime: string | null;
  washStartedTs: number | null;
}

export interface WashCycle {
  deviceId: number;
  startedTs: number;
  endedTs: number;
  outcome: WashOutcome;
}

export function emptyLive(deviceId: number): LiveState {
  return {
    deviceId,
    lastTs: null,
    lastOnlineAt: null,
    current: null,
    temperature: null,
    doorOpen: null,
    state: null,
    program: null,
    errorCode: null,
    coreTemperature: null,
    humidity: null,
    workStartDate: null,
    workStartTime: null,
    washStartedTs: null,
  };
}

/**
 * The device's state after these newly stored samples (sorted by `ts`), and the wash cycles they
 * ended.
 *
 * - Latest values and `last_online` follow the newest sample; an older one arriving late (a
 *   back-fill, a redelivery) never moves them back.
 * - `work_start` is the first working moment of the latest local day (the address's zone) with
 *   work: a later day replaces it, an earlier moment of the same day corrects it.
 * - A wash is a run of `washing` samples. It ends with the first other state: completed when that
 *   is `idle` or `off` and the run lasted at least `MIN_COMPLETED_WASH_MS`, aborted otherwise
 *   (a fault, a short run); a gap longer than `CONNECTION_GAP_MS` ends it as aborted at its last
 *   washing sample. Only samples newer than the latest one move the wash state.
 */
export function advanceLive(
  previous: LiveState,
  device: GatewayDevice,
  samples: readonly StoredSample[],
): { live: LiveState; washes: WashCycle[] } {
  const live = { ...previous };
  const washes: WashCycle[] = [];
  // Samples come sorted: after a working sample, the rest of its local day cannot start work
  // earlier, so the zone's calendar (slow) is read once per day, not per sample. An hour of
  // margin covers a daylight-saving change.
  let sameDayUntil = Number.NEGATIVE_INFINITY;
  let newest: StoredSample | undefined;
  for (const sample of samples) {
    if (sample.ts >= sameDayUntil && isWorking(sample, device)) {
      const local = localDateTime(sample.ts, device.timeZone);
      if (
        live.workStartDate === null ||
        local.date > live.workStartDate ||
        (local.date === live.workStartDate && live.workStartTime !== null && local.time < live.workStartTime)
      ) {
        live.workStartDate = local.date;
        live.workStartTime = local.time;
      }
      const [hours = 0, minutes = 0] = local.time.split(':').map(Number);
      const toMidnight = (24 * 60 - hours * 60 - minutes) * MINUTE_MS - (sample.ts % MINUTE_MS);
      sameDayUntil = sample.ts + toMidnight - HOUR_MS;
    }
    if (live.lastTs !== null && sample.ts <= live.lastTs) continue;

    if (live.washStartedTs !== null && live.lastTs !== null && sample.ts - live.lastTs > CONNECTION_GAP_MS) {
      washes.push({
        deviceId: device.id,
        startedTs: live.washStartedTs,
        endedTs: live.lastTs,
        outcome: 'aborted',
      });
      live.washStartedTs = null;
    }
    if (sample.state === WASHING) {
      live.washStartedTs ??= sample.ts;
    } else if (live.washStartedTs !== null) {
      const completed =
        (sample.state === IDLE || sample.state === OFF) &&
        sample.ts - live.washStartedTs >= MIN_COMPLETED_WASH_MS;
      washes.push({
        deviceId: device.id,
        startedTs: live.washStartedTs,
        endedTs: sample.ts,
        outcome: completed ? 'completed' : 'aborted',
      });
      live.washStartedTs = null;
    }

    live.lastTs = sample.ts;
    newest = sample;
  }
  // The latest values come from the newest sample, written once (not per sample: a batch holds thousands).
  if (newest) {
    live.lastOnlineAt = new Date(newest.ts).toISOString();
    live.current = newest.current;
    live.temperature = newest.temperature;
    live.doorOpen = newest.doorOpen;
    live.state = newest.state;
    live.program = newest.program;
    live.errorCode = newest.errorCode;
    live.coreTemperature = newest.coreTemperature;
    live.humidity = newest.humidity;
  }
  return { live, washes };
}
