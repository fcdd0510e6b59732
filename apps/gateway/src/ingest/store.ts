import type { DayDelta, LiveState, RollupDelta, StoredSample, WashCycle } from './derive.js';

/**
 * The telemetry tables as the ingest pipeline writes them, one implementation per engine: SQLite
 * through better-sqlite3's prepared statements (one row at a time is fastest there), PostgreSQL
 * through `unnest` arrays, usually the whole batch in one statement (`writeAll`), else one
 * statement per table. Everything a batch writes happens in one transaction; a device or HTTP
 * client is told "stored" only after it commits.
 */
export interface TelemetryWriter {
  /** Which of these devices still exist (samples of a device deleted meanwhile are dropped). */
  existingDevices(ids: readonly number[]): Promise<Set<number>>;
  loadLive(ids: readonly number[]): Promise<Map<number, LiveState>>;
  /** Inserts the samples not stored yet (same device and ts); returns those it inserted (the same objects). */
  insertSamples(samples: readonly StoredSample[]): Promise<StoredSample[]>;
  /** Adds to the minute rollups; returns each minute's `working` count after the upsert, in order. */
  upsertMinutes(deltas: readonly RollupDelta[]): Promise<number[]>;
  upsertHours(deltas: readonly RollupDelta[]): Promise<void>;
  upsertDays(deltas: readonly DayDelta[]): Promise<void>;
  saveLive(states: readonly LiveState[]): Promise<void>;
  insertWashes(washes: readonly WashCycle[]): Promise<void>;
}

/**
 * Everything one batch writes, derived before any of it is written (see
 * {@link TelemetryStore.writeAll}): from the batch's samples as if none was stored yet, and from
 * `previous`, the devices' live states as the store last knew them.
 */
export interface BatchWrite {
  samples: readonly StoredSample[];
  /** The batch's devices (all must still exist). */
  deviceIds: readonly number[];
  /** The live states the batch was derived from, one per device of the batch. */
  previous: readonly LiveState[];
  minutes: readonly RollupDelta[];
  /** The local date of each minute (its device's zone), in the order of `minutes`. */
  minuteDates: readonly string[];
  /** Hour and day deltas without working minutes: the store counts them from the minute upsert. */
  hours: readonly RollupDelta[];
  days: readonly DayDelta[];
  live: readonly LiveState[];
  washes: readonly WashCycle[];
}

export interface TelemetryStore {
  writeBatch<T>(work: (writer: TelemetryWriter) => Promise<T>): Promise<T>;
  /** Most samples per batch this store is best written with (the pipeline's default). */
  readonly batchSamples?: number;
  /**
   * Batches of different devices this store writes side by side (the pipeline's default; 1 when
   * absent): PostgreSQL runs them on connections of their own, SQLite has one writer.
   */
  readonly concurrentBatches?: number;
  /**
   * Optional (PostgreSQL): the devices' live states as this store last wrote or read them (a
   * cache, read from the database for devices it does not hold), for {@link writeAll}.
   */
  knownLive?(ids: readonly number[]): Promise<Map<number, LiveState>>;
  /**
   * Optional (PostgreSQL): writes the whole batch at once, in one statement, when what it was
   * derived from still holds. `written`: done. `stale`: a live state in `previous` is no longer the
   * database's (another process wrote the device): nothing was written, and the store has
   * forgotten those states, so the batch can be derived again. `declined`: a sample was stored
   * already or twice in the batch, or a device is gone: nothing was written; the batch goes
   * through {@link writeBatch}.
   */
  writeAll?(batch: BatchWrite): Promise<'written' | 'stale' | 'declined'>;
}

/** Columns only hours have, after the rollup columns. */
export const HOUR_ONLY_COLUMNS = ['working_minutes', 'first_working_ts', 'last_working_ts'] as const;

export function hourOnlyValues(delta: RollupDelta): (number | null)[] {
  return [delta.workingMinutes, delta.firstWorkingTs, delta.lastWorkingTs];
}

/** The rollup upsert's SET list; `least`/`greatest` are `min`/`max` in SQLite. */
export function rollupConflictSet(
  table: string,
  dialect: 'sqlite' | 'postgres',
  withWorkingMinutes: boolean,
) {
  const [least, greatest] = dialect === 'sqlite' ? ['min', 'max'] : ['least', 'greatest'];
  const add = (column: string) => `${column} = ${table}.${column} + excluded.${column}`;
  // SQLite's two-argument min/max give NULL when either side is NULL; PostgreSQL's ignore NULLs.
  const lower = (column: string) =>
    dialect === 'sqlite'
      ? `${column} = coalesce(min(${table}.${column}, excluded.${column}), ${table}.${column}, excluded.${column})`
      : `${column} = ${least}(${table}.${column}, excluded.${column})`;
  const upper = (column: string) =>
    dialect === 'sqlite'
      ? `${column} = coalesce(max(${table}.${column}, excluded.${column}), ${table}.${column}, excluded.${column})`
      : `${column} = ${greatest}(${table}.${column}, excluded.${column})`;
  return [
    add('samples'),
    add('current_sum'),
    lower('current_min'),
    upper('current_max'),
    add('temperature_samples'),
    add('temperature_sum'),
    lower('temperature_min'),
    upper('temperature_max'),
    add('working'),
    add('washing'),
    add('fault'),
    add('door_open'),
    ...(withWorkingMinutes
      ? [add('working_minutes'), lower('first_working_ts'), upper('last_working_ts')]
      : []),
  ].join(', ');
}

export const ROLLUP_COLUMNS = [
  'device_id',
  'bucket',
  'samples',
  'current_sum',
  'current_min',
  'current_max',
  'temperature_samples',
  'temperature_sum',
  'temperature_min',
  'temperature_max',
  'working',
  'washing',
  'fault',
  'door_open',
] as const;

export function rollupValues(delta: RollupDelta): (number | null)[] {
  return [
    delta.deviceId,
    delta.bucket,
    delta.samples,
    delta.currentSum,
    delta.currentMin,
    delta.currentMax,
    delta.temperatureSamples,
    delta.temperatureSum,
    delta.temperatureMin,
    delta.temperatureMax,
    delta.working,
    delta.washing,
    delta.fault,
    delta.doorOpen,
  ];
}

export const SAMPLE_COLUMNS = [
  'device_id',
  'ts',
  'current',
  'temperature',
  'door_open',
  'state',
  'program',
  'error_code',
  'core_temperature',
  'humidity',
] as const;

export const LIVE_COLUMNS = [
  'device_id',
  'last_ts',
  'last_online_at',
  'current',
  'temperature',
  'door_open',
  'state',
  'program',
  'error_code',
  'core_temperature',
  'humidity',
  'work_start_date',
  'work_start_time',
  'wash_started_ts',
] as const;

export function liveValues(state: LiveState): (string | number | null)[] {
  return [
    state.deviceId,
    state.lastTs,
    state.lastOnlineAt,
    state.current,
    state.temperature,
    state.doorOpen,
    state.state,
    state.program,
    state.errorCode,
    state.coreTemperature,
    state.humidity,
    state.workStartDate,
    state.workStartTime,
    state.washStartedTs,
  ];
}

export interface LiveRow {
  device_id: number;
  last_ts: number | null;
  last_online_at: string | null;
  current: number | null;
  temperature: number | null;
  door_open: number | null;
  state: number | null;
  program: string | null;
  error_code: string | null;
  core_temperature: number | null;
  humidity: number | null;
  work_start_date: string | null;
  work_start_time: string | null;
  wash_started_ts: number | null;
}

export function liveFromRow(row: LiveRow): LiveState {
  return {
    deviceId: row.device_id,
    lastTs: row.last_ts === null ? null : Number(row.last_ts),
    lastOnlineAt: row.last_online_at,
    current: row.current,
    temperature: row.temperature,
    doorOpen: row.door_open,
    state: row.state,
    program: row.program,
    errorCode: row.error_code,
    coreTemperature: row.core_temperature,
    humidity: row.humidity,
    workStartDate: row.work_start_date,
    workStartTime: row.work_start_time,
    washStartedTs: row.wash_started_ts === null ? null : Number(row.wash_started_ts),
  };
}

export const DAY_COLUMNS = [
  'device_id',
  'date',
  'samples',
  'working_minutes',
  'first_working_ts',
  'last_working_ts',
  'temperature_samples',
  'temperature_sum',
  'temperature_min',
  'temperature_max',
] as const;

export function dayValues(day: DayDelta): (string | number | null)[] {
  return [
    day.deviceId,
    day.date,
    day.samples,
    day.workingMinutes,
    day.firstWorkingTs,
    day.lastWorkingTs,
    day.temperatureSamples,
    day.temperatureSum,
    day.temperatureMin,
    day.temperatureMax,
  ];
}

/** The day upsert's SET list (see {@link rollupConflictSet}). */
export function dayConflictSet(dialect: 'sqlite' | 'postgres') {
  const table = 'telemetry_day';
  const add = (column: string) => `${column} = ${table}.${column} + excluded.${column}`;
  const pick = (fn: 'min' | 'max', column: string) =>
    dialect === 'sqlite'
      ? `${column} = coalesce(${fn}(${table}.${column}, excluded.${column}), ${table}.${column}, excluded.${column})`
      : `${column} = ${fn === 'min' ? 'least' : 'greatest'}(${table}.${column}, excluded.${column})`;
  return [
    add('samples'),
    add('working_minutes'),
    pick('min', 'first_working_ts'),
    pick('max', 'last_working_ts'),
    add('temperature_samples'),
    add('temperature_sum'),
    pick('min', 'temperature_min'),
    pick('max', 'temperature_max'),
  ].join(', ');
}
