import type pg from 'pg';
import type { LiveState, RollupDelta, StoredSample, WashCycle } from './derive.js';
import {
  DAY_COLUMNS,
  HOUR_ONLY_COLUMNS,
  dayConflictSet,
  dayValues,
  LIVE_COLUMNS,
  ROLLUP_COLUMNS,
  SAMPLE_COLUMNS,
  liveFromRow,
  hourOnlyValues,
  liveValues,
  rollupConflictSet,
  rollupValues,
  type LiveRow,
  type TelemetryStore,
  type TelemetryWriter,
} from './store.js';

/** PostgreSQL array types of the columns, in the order of the column lists of store.ts. */
const SAMPLE_TYPES = ['int4', 'int8', 'float8', 'float8', 'int2', 'int2', 'text', 'text', 'float8', 'float8'];
const ROLLUP_TYPES = [
  'int4',
  'int8',
  'int4',
  'float8',
  'float8',
  'float8',
  'int4',
  'float8',
  'float8',
  'float8',
  'int4',
  'int4',
  'int4',
  'int4',
];
const LIVE_TYPES = [
  'int4',
  'int8',
  'timestamptz',
  'float8',
  'float8',
  'int2',
  'int2',
  'text',
  'text',
  'float8',
  'float8',
  'text',
  'text',
  'int8',
];

/** `select * from unnest($1::t1[], $2::t2[], …)`: one parameter per column, however many rows. */
function unnest(types: readonly string[]): string {
  return `select * from unnest(${types.map((type, index) => `$${index + 1}::${type}[]`).join(', ')})`;
}

/** Rows → one array per column. */
function columns<T>(rows: readonly T[], width: number, values: (row: T) => unknown[]): unknown[][] {
  const arrays: unknown[][] = Array.from({ length: width }, () => new Array<unknown>(rows.length));
  rows.forEach((row, r) => {
    values(row).forEach((value, c) => {
      (arrays[c] as unknown[])[r] = value;
    });
  });
  return arrays;
}

const INSERT_SAMPLES = `insert into telemetry_samples (${SAMPLE_COLUMNS.join(', ')}) ${unnest(SAMPLE_TYPES)}
  on conflict do nothing returning device_id, ts`;
const UPSERT_MINUTES = `insert into telemetry_minute (${ROLLUP_COLUMNS.join(', ')}) ${unnest(ROLLUP_TYPES)}
  on conflict (device_id, bucket) do update set ${rollupConflictSet('telemetry_minute', 'postgres', false)}
  returning device_id, bucket, working`;
const UPSERT_HOURS = `insert into telemetry_hour (${[...ROLLUP_COLUMNS, ...HOUR_ONLY_COLUMNS].join(', ')})
  ${unnest([...ROLLUP_TYPES, 'int4', 'int8', 'int8'])}
  on conflict (device_id, bucket) do update set ${rollupConflictSet('telemetry_hour', 'postgres', true)}`;
const UPSERT_DAYS = `insert into telemetry_day (${DAY_COLUMNS.join(', ')})
  ${unnest(['int4', 'text', 'int4', 'int4', 'int8', 'int8', 'int4', 'float8', 'float8', 'float8'])}
  on conflict (device_id, date) do update set ${dayConflictSet('postgres')}`;
const SAVE_LIVE = `insert into device_live (${LIVE_COLUMNS.join(', ')}) ${unnest(LIVE_TYPES)}
  on conflict (device_id) do update set ${LIVE_COLUMNS.filter((column) => column !== 'device_id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;

/**
 * PostgreSQL: one statement per table and batch, rows passed as arrays (`unnest`), in one
 * transaction on a pooled connection. Rows that came back from `RETURNING` tell which samples
 * were new.
 */
export class PostgresTelemetryStore implements TelemetryStore {
  constructor(private readonly pool: pg.Pool) {}

  async writeBatch<T>(work: (writer: TelemetryWriter) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await work(writer(client));
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

function writer(client: pg.PoolClient): TelemetryWriter {
  return {
    existingDevices: async (ids) => {
      const { rows } = await client.query<{ id: number }>(
        'select id from devices where id = any($1::int4[])',
        [ids],
      );
      return new Set(rows.map((row) => row.id));
    },
    loadLive: async (ids) => {
      const { rows } = await client.query<LiveRow>(
        `select ${LIVE_COLUMNS.join(', ')} from device_live where device_id = any($1::int4[])`,
        [ids],
      );
      return new Map(rows.map((row) => [row.device_id, liveFromRow(row)]));
    },
    insertSamples: async (samples: readonly StoredSample[]) => {
      if (samples.length === 0) return [];
      const { rows } = await client.query<{ device_id: number; ts: number }>(
        INSERT_SAMPLES,
        columns(samples, SAMPLE_COLUMNS.length, (s) => [
          s.deviceId,
          s.ts,
          s.current,
          s.temperature,
          s.doorOpen,
          s.state,
          s.program,
          s.errorCode,
          s.coreTemperature,
          s.humidity,
        ]),
      );
      const inserted = new Set(rows.map((row) => `${row.device_id}:${Number(row.ts)}`));
      return samples.filter((s) => inserted.delete(`${s.deviceId}:${s.ts}`));
    },
    upsertMinutes: async (deltas: readonly RollupDelta[]) => {
      if (deltas.length === 0) return [];
      const { rows } = await client.query<{ device_id: number; bucket: number; working: number }>(
        UPSERT_MINUTES,
        columns(deltas, ROLLUP_COLUMNS.length, rollupValues),
      );
      const working = new Map(rows.map((row) => [`${row.device_id}:${Number(row.bucket)}`, row.working]));
      return deltas.map((delta) => working.get(`${delta.deviceId}:${delta.bucket}`) ?? delta.working);
    },
    upsertHours: async (deltas) => {
      if (deltas.length === 0) return;
      await client.query(
        UPSERT_HOURS,
        columns(deltas, ROLLUP_COLUMNS.length + HOUR_ONLY_COLUMNS.length, (delta) => [
          ...rollupValues(delta),
          ...hourOnlyValues(delta),
        ]),
      );
    },
    upsertDays: async (deltas) => {
      if (deltas.length === 0) return;
      await client.query(UPSERT_DAYS, columns(deltas, DAY_COLUMNS.length, dayValues));
    },
    saveLive: async (states: readonly LiveState[]) => {
      if (states.length === 0) return;
      await client.query(SAVE_LIVE, columns(states, LIVE_COLUMNS.length, liveValues));
    },
    insertWashes: async (washes: readonly WashCycle[]) => {
      if (washes.length === 0) return;
      await client.query(
        `insert into wash_cycles (device_id, started_ts, ended_ts, outcome) ${unnest(['int4', 'int8', 'int8', 'text'])}
         on conflict do nothing`,
        columns(washes, 4, (w) => [w.deviceId, w.startedTs, w.endedTs, w.outcome]),
      );
    },
  };
}
