import { ensureSamplePartitions, sampleDay, type Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { DayDelta, LiveState, RollupDelta, StoredSample, WashCycle } from './derive.js';
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
  type BatchWrite,
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
const HOUR_TYPES = [...ROLLUP_TYPES, 'int4', 'int8', 'int8'];
const DAY_TYPES = ['int4', 'text', 'int4', 'int4', 'int8', 'int8', 'int4', 'float8', 'float8', 'float8'];
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
const WASH_COLUMNS = ['device_id', 'started_ts', 'ended_ts', 'outcome'];
const WASH_TYPES = ['int4', 'int8', 'int8', 'text'];

/** Samples per batch: one statement of 20 000 rows costs far less than four of 5 000 (measured). */
const POSTGRES_BATCH_SAMPLES = 20_000;
/**
 * Batches written at once: while PostgreSQL writes one batch (its statement runs in a server
 * process of its own), the next one is written beside it instead of waiting. Their devices differ
 * (the pipeline keeps a device in one batch at a time), so they touch different rows.
 */
const POSTGRES_CONCURRENT_BATCHES = 2;
/** Live states kept for the one-statement write; beyond this the least recently written go. */
const KNOWN_LIVE_LIMIT = 50_000;
/** PostgreSQL's error when a row has no partition (`check_violation`). */
const NO_PARTITION = '23514';
/** What the one-statement write fails with when a sample of the batch was stored already. */
const DECLINED = 'kontrol: a sample of the ingest batch was stored already';

/** `select * from unnest($1::t1[], $2::t2[], …)`: one parameter per column, however many rows. */
function unnest(types: readonly string[]): string {
  return `select * from unnest(${types.map((type, index) => `$${index + 1}::${type}[]`).join(', ')})`;
}

/**
 * A column as PostgreSQL's array literal (`{1,2.5,NULL}`, `{"a","b\"c"}`), written here rather
 * than by pg, which quotes and escapes every element: for 20 000 rows × 10 columns that was a
 * large share of a batch's time in Node.
 */
function arrayLiteral<T>(rows: readonly T[], value: (row: T) => string | number | null): string {
  let text = '{';
  for (let index = 0; index < rows.length; index += 1) {
    if (index > 0) text += ',';
    const cell = value(rows[index] as T);
    if (cell === null) text += 'NULL';
    else if (typeof cell === 'number') text += String(cell);
    else text += `"${cell.replace(/[\\"]/g, '\\$&')}"`;
  }
  return `${text}}`;
}

/** The columns of `rows` as array literals, `width` values per row. */
function literals<T>(
  rows: readonly T[],
  width: number,
  values: (row: T) => readonly (string | number | null)[],
): string[] {
  const table = rows.map(values);
  return Array.from({ length: width }, (_, c) => arrayLiteral(table, (row) => row[c] ?? null));
}

const INSERT_SAMPLES = `insert into telemetry_samples (${SAMPLE_COLUMNS.join(', ')}) ${unnest(SAMPLE_TYPES)}
  on conflict do nothing returning device_id, ts`;
const UPSERT_MINUTES = `insert into telemetry_minute (${ROLLUP_COLUMNS.join(', ')}) ${unnest(ROLLUP_TYPES)}
  on conflict (device_id, bucket) do update set ${rollupConflictSet('telemetry_minute', 'postgres', false)}
  returning device_id, bucket, working`;
const UPSERT_HOURS = `insert into telemetry_hour (${[...ROLLUP_COLUMNS, ...HOUR_ONLY_COLUMNS].join(', ')})
  ${unnest(HOUR_TYPES)}
  on conflict (device_id, bucket) do update set ${rollupConflictSet('telemetry_hour', 'postgres', true)}`;
const UPSERT_DAYS = `insert into telemetry_day (${DAY_COLUMNS.join(', ')})
  ${unnest(DAY_TYPES)}
  on conflict (device_id, date) do update set ${dayConflictSet('postgres')}`;
const LIVE_UPDATES = LIVE_COLUMNS.filter((column) => column !== 'device_id')
  .map((column) => `${column} = excluded.${column}`)
  .join(', ');
const SAVE_LIVE = `insert into device_live (${LIVE_COLUMNS.join(', ')}) ${unnest(LIVE_TYPES)}
  on conflict (device_id) do update set ${LIVE_UPDATES}`;
const LOAD_LIVE = `select ${LIVE_COLUMNS.join(', ')} from device_live where device_id = any($1::int4[])`;

/**
 * The whole batch in one statement (data-modifying CTEs; every part sees the database as it was
 * when the statement began). Parameters, each an array literal: the samples, the minute deltas
 * (with each minute's local date), the hour and day deltas (their working minutes counted here: a
 * minute whose `working` after the upsert equals what this batch added was not working before),
 * the new live states, the ended washes, the batch's devices and the live states the batch was
 * derived from, and the number of samples.
 *
 * Nothing is written unless every device exists and every live state is as assumed: the answer is
 * then 2 (a device is gone) or 1 (a live state moved). It is 0 when all was written. When a sample
 * was stored already (or twice in the batch), the statement fails with {@link DECLINED}, so that
 * nothing of it stays either.
 */
const WRITE_ALL = (() => {
  let next = 0;
  const take = (types: readonly string[]) => types.map((type) => `$${(next += 1)}::${type}[]`);
  const samples = take(SAMPLE_TYPES);
  const minutes = take(ROLLUP_TYPES);
  const [minuteDate] = take(['text']);
  const hours = take(HOUR_TYPES);
  const days = take(DAY_TYPES);
  const live = take(LIVE_TYPES);
  const washes = take(WASH_TYPES);
  const [deviceIds] = take(['int4']);
  const previous = take(LIVE_TYPES);
  const count = `$${(next += 1)}::int8`;
  const at = (column: string) => minutes[ROLLUP_COLUMNS.indexOf(column as (typeof ROLLUP_COLUMNS)[number])];
  const hourColumns = [...ROLLUP_COLUMNS, ...HOUR_ONLY_COLUMNS];
  const plus = (alias: string) => (column: string) =>
    column === 'working_minutes' ? `${alias}.working_minutes + coalesce(n.minutes, 0)` : `${alias}.${column}`;
  const sameLive = LIVE_COLUMNS.filter((column) => column !== 'device_id')
    .map((column) => `l.${column} is not distinct from p.${column}`)
    .join(' and ');
  const ifHeld = 'where (select devices and live from held)';
  return `with
  held as (
    select (select count(*) from devices where id = any(${deviceIds})) = cardinality(${deviceIds}) as devices,
           (select count(*)
              from unnest(${previous.join(', ')}) as p(${LIVE_COLUMNS.join(', ')})
              left join device_live l on l.device_id = p.device_id
             where ${sameLive}) = cardinality(${previous[0]}) as live
  ),
  s as (
    insert into telemetry_samples (${SAMPLE_COLUMNS.join(', ')})
    select * from unnest(${samples.join(', ')}) ${ifHeld}
    on conflict do nothing
    returning 1
  ),
  m as (
    insert into telemetry_minute (${ROLLUP_COLUMNS.join(', ')})
    select * from unnest(${minutes.join(', ')}) ${ifHeld}
    on conflict (device_id, bucket) do update set ${rollupConflictSet('telemetry_minute', 'postgres', false)}
    returning device_id, bucket, working
  ),
  newly as (
    select i.device_id, i.bucket, i.date
      from unnest(${at('device_id')}, ${at('bucket')}, ${at('working')}, ${minuteDate}) as i(device_id, bucket, working, date)
      join m on m.device_id = i.device_id and m.bucket = i.bucket
     where i.working > 0 and m.working = i.working
  ),
  hour_rows as (
    select ${hourColumns.map(plus('h')).join(', ')}
      from unnest(${hours.join(', ')}) as h(${hourColumns.join(', ')})
      left join (select device_id, bucket - bucket % 3600000 as hour, count(*)::int4 as minutes
                   from newly group by 1, 2) n on n.device_id = h.device_id and n.hour = h.bucket
  ),
  hr as (
    insert into telemetry_hour (${hourColumns.join(', ')})
    select * from hour_rows ${ifHeld}
    on conflict (device_id, bucket) do update set ${rollupConflictSet('telemetry_hour', 'postgres', true)}
  ),
  day_rows as (
    select ${DAY_COLUMNS.map(plus('d')).join(', ')}
      from unnest(${days.join(', ')}) as d(${DAY_COLUMNS.join(', ')})
      left join (select device_id, date, count(*)::int4 as minutes
                   from newly group by 1, 2) n on n.device_id = d.device_id and n.date = d.date
  ),
  dy as (
    insert into telemetry_day (${DAY_COLUMNS.join(', ')})
    select * from day_rows ${ifHeld}
    on conflict (device_id, date) do update set ${dayConflictSet('postgres')}
  ),
  lv as (
    insert into device_live (${LIVE_COLUMNS.join(', ')})
    select * from unnest(${live.join(', ')}) ${ifHeld}
    on conflict (device_id) do update set ${LIVE_UPDATES}
  ),
  wc as (
    insert into wash_cycles (${WASH_COLUMNS.join(', ')})
    select * from unnest(${washes.join(', ')}) ${ifHeld}
    on conflict do nothing
  )
select case when not devices then 2
            when not live then 1
            when (select count(*) from s) = ${count} then 0
            else ('${DECLINED}: ' || (select count(*) from s))::int4
       end as outcome
  from held`;
})();

function isDeclined(error: unknown): boolean {
  const failure = error as { code?: string; message?: string };
  return failure.code === '22P02' && String(failure.message).includes(DECLINED);
}

/**
 * PostgreSQL. A batch is usually written in one statement ({@link WRITE_ALL}, one round trip, no
 * `begin`/`commit` of its own: a statement is a transaction), derived from the live states this
 * store keeps of the devices it wrote. When another process moved a device's live state, that
 * statement writes nothing and the pipeline derives the batch again from the database's states.
 * When a sample was stored already (a redelivery) or a device is gone, it writes nothing either
 * and the batch goes through {@link writeBatch}: one statement per table in one transaction on a
 * pooled connection, where rows that came back from `RETURNING` tell which samples were new.
 */
export class PostgresTelemetryStore implements TelemetryStore {
  readonly batchSamples = POSTGRES_BATCH_SAMPLES;
  readonly concurrentBatches = POSTGRES_CONCURRENT_BATCHES;
  /** Live states as last written or read, by device (oldest first). */
  private readonly known = new Map<number, LiveState>();
  /** The days whose sample partitions this store has seen made (docs/telemetry.md, "Storage and retention"). */
  private readonly partitionDays = new Set<number>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly db: Kysely<Database>,
  ) {}

  /** Makes the partitions of the samples' days that this store has not seen made yet. */
  private async partitionsFor(samples: readonly StoredSample[]) {
    const missing = new Set<number>();
    for (const sample of samples) {
      const day = sampleDay(sample.ts);
      if (!this.partitionDays.has(day)) missing.add(day);
    }
    if (missing.size === 0) return;
    await ensureSamplePartitions(this.db, missing);
    for (const day of missing) this.partitionDays.add(day);
  }

  /**
   * When a sample found no partition (retention dropped its day after this store saw it made),
   * forgets the days seen, so that the next write asks the database again; tells whether it did.
   */
  private forgetPartitions(error: unknown): boolean {
    if ((error as { code?: string }).code !== NO_PARTITION) return false;
    this.partitionDays.clear();
    return true;
  }

  async knownLive(ids: readonly number[]): Promise<Map<number, LiveState>> {
    const missing = ids.filter((id) => !this.known.has(id));
    if (missing.length > 0) {
      const { rows } = await this.pool.query<LiveRow>(LOAD_LIVE, [missing]);
      const found = new Map(rows.map((row) => [row.device_id, liveFromRow(row)]));
      for (const id of missing) {
        const state = found.get(id);
        if (state) this.remember(state);
      }
    }
    const states = new Map<number, LiveState>();
    for (const id of ids) {
      const state = this.known.get(id);
      if (state) states.set(id, state);
    }
    return states;
  }

  async writeAll(batch: BatchWrite): Promise<'written' | 'stale' | 'declined'> {
    await this.partitionsFor(batch.samples);
    const parameters = [
      ...literals(batch.samples, SAMPLE_COLUMNS.length, sampleValues),
      ...literals(batch.minutes, ROLLUP_COLUMNS.length, rollupValues),
      arrayLiteral(batch.minuteDates, (date) => date),
      ...literals(batch.hours, HOUR_TYPES.length, (delta) => [
        ...rollupValues(delta),
        ...hourOnlyValues(delta),
      ]),
      ...literals(batch.days, DAY_COLUMNS.length, dayValues),
      ...literals(batch.live, LIVE_COLUMNS.length, liveValues),
      ...literals(batch.washes, WASH_COLUMNS.length, washValues),
      arrayLiteral(batch.deviceIds, (id) => id),
      ...literals(batch.previous, LIVE_COLUMNS.length, liveValues),
      batch.samples.length,
    ];
    let outcome: number;
    try {
      const { rows } = await this.pool.query<{ outcome: number }>({
        name: 'kontrol-telemetry-write-all',
        text: WRITE_ALL,
        values: parameters,
      });
      outcome = rows[0]?.outcome ?? 2;
    } catch (error) {
      for (const id of batch.deviceIds) this.known.delete(id);
      // The step-by-step write makes a partition that retention dropped after this store saw it.
      if (isDeclined(error) || this.forgetPartitions(error)) return 'declined';
      throw error;
    }
    if (outcome === 0) {
      for (const state of batch.live) this.remember(state);
      return 'written';
    }
    for (const id of batch.deviceIds) this.known.delete(id);
    return outcome === 1 ? 'stale' : 'declined';
  }

  async writeBatch<T>(work: (writer: TelemetryWriter) => Promise<T>): Promise<T> {
    try {
      return await this.writeBatchOnce(work);
    } catch (error) {
      // Once more when a partition this store saw made had been dropped since: it is made again.
      if (this.forgetPartitions(error)) return this.writeBatchOnce(work);
      throw error;
    }
  }

  private async writeBatchOnce<T>(work: (writer: TelemetryWriter) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const touched = new Map<number, LiveState | undefined>();
    try {
      await client.query('begin');
      const result = await work(writer(client, touched, (samples) => this.partitionsFor(samples)));
      await client.query('commit');
      for (const [id, state] of touched) {
        if (state) this.remember(state);
        else this.known.delete(id);
      }
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      for (const id of touched.keys()) this.known.delete(id);
      throw error;
    } finally {
      client.release();
    }
  }

  private remember(state: LiveState) {
    this.known.delete(state.deviceId);
    this.known.set(state.deviceId, state);
    if (this.known.size > KNOWN_LIVE_LIMIT) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
  }
}

function sampleValues(s: StoredSample): (string | number | null)[] {
  return [
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
  ];
}

function washValues(wash: WashCycle): (string | number)[] {
  return [wash.deviceId, wash.startedTs, wash.endedTs, wash.outcome];
}

/**
 * The step-by-step writer of {@link PostgresTelemetryStore.writeBatch}. `touched` learns the live
 * state each device will have once the transaction commits (undefined: not known, forget it).
 */
function writer(
  client: pg.PoolClient,
  touched: Map<number, LiveState | undefined>,
  partitionsFor: (samples: readonly StoredSample[]) => Promise<void>,
): TelemetryWriter {
  return {
    existingDevices: async (ids) => {
      const { rows } = await client.query<{ id: number }>(
        'select id from devices where id = any($1::int4[])',
        [ids],
      );
      const existing = new Set(rows.map((row) => row.id));
      for (const id of ids) if (!existing.has(id)) touched.set(id, undefined);
      return existing;
    },
    loadLive: async (ids) => {
      const { rows } = await client.query<LiveRow>(LOAD_LIVE, [ids]);
      return new Map(rows.map((row) => [row.device_id, liveFromRow(row)]));
    },
    insertSamples: async (samples: readonly StoredSample[]) => {
      if (samples.length === 0) return [];
      await partitionsFor(samples);
      const { rows } = await client.query<{ device_id: number; ts: number }>(
        INSERT_SAMPLES,
        literals(samples, SAMPLE_COLUMNS.length, sampleValues),
      );
      const inserted = new Set(rows.map((row) => `${row.device_id}:${Number(row.ts)}`));
      return samples.filter((s) => inserted.delete(`${s.deviceId}:${s.ts}`));
    },
    upsertMinutes: async (deltas: readonly RollupDelta[]) => {
      if (deltas.length === 0) return [];
      const { rows } = await client.query<{ device_id: number; bucket: number; working: number }>(
        UPSERT_MINUTES,
        literals(deltas, ROLLUP_COLUMNS.length, rollupValues),
      );
      const working = new Map(rows.map((row) => [`${row.device_id}:${Number(row.bucket)}`, row.working]));
      return deltas.map((delta) => working.get(`${delta.deviceId}:${delta.bucket}`) ?? delta.working);
    },
    upsertHours: async (deltas) => {
      if (deltas.length === 0) return;
      await client.query(
        UPSERT_HOURS,
        literals(deltas, HOUR_TYPES.length, (delta) => [...rollupValues(delta), ...hourOnlyValues(delta)]),
      );
    },
    upsertDays: async (deltas: readonly DayDelta[]) => {
      if (deltas.length === 0) return;
      await client.query(UPSERT_DAYS, literals(deltas, DAY_COLUMNS.length, dayValues));
    },
    saveLive: async (states: readonly LiveState[]) => {
      if (states.length === 0) return;
      await client.query(SAVE_LIVE, literals(states, LIVE_COLUMNS.length, liveValues));
      for (const state of states) touched.set(state.deviceId, state);
    },
    insertWashes: async (washes: readonly WashCycle[]) => {
      if (washes.length === 0) return;
      await client.query(
        `insert into wash_cycles (${WASH_COLUMNS.join(', ')}) ${unnest(WASH_TYPES)} on conflict do nothing`,
        literals(washes, WASH_COLUMNS.length, washValues),
      );
    },
  };
}
