import type { Database } from '@kontrol/db';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
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

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/**
 * SQLite: prepared statements run row by row inside `BEGIN IMMEDIATE … COMMIT` (better-sqlite3 is
 * synchronous, so a batch of thousands of rows costs microseconds each and no round trips). The
 * batch holds Kysely's single connection meanwhile, so no Kysely transaction can be open around it.
 */
export class SqliteTelemetryStore implements TelemetryStore {
  private readonly statements: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sqlite: SQLite.Database,
  ) {
    this.statements = prepare(sqlite);
  }

  writeBatch<T>(work: (writer: TelemetryWriter) => Promise<T>): Promise<T> {
    return this.db.connection().execute(async () => {
      this.sqlite.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(this.writer());
        this.sqlite.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        throw error;
      }
    });
  }

  private writer(): TelemetryWriter {
    const s = this.statements;
    return {
      existingDevices: async (ids) => {
        const rows = s.existingDevices.all(JSON.stringify(ids)) as { id: number }[];
        return new Set(rows.map((row) => row.id));
      },
      loadLive: async (ids) => {
        const rows = s.loadLive.all(JSON.stringify(ids)) as LiveRow[];
        return new Map(rows.map((row) => [row.device_id, liveFromRow(row)]));
      },
      insertSamples: async (samples) => {
        const inserted: StoredSample[] = [];
        for (const sample of samples) {
          const { changes } = s.insertSample.run(
            sample.deviceId,
            sample.ts,
            sample.current,
            sample.temperature,
            sample.doorOpen,
            sample.state,
            sample.program,
            sample.errorCode,
            sample.coreTemperature,
            sample.humidity,
          );
          if (changes > 0) inserted.push(sample);
        }
        return inserted;
      },
      upsertMinutes: async (deltas: readonly RollupDelta[]) =>
        deltas.map((delta) => (s.upsertMinute.get(...rollupValues(delta)) as { working: number }).working),
      upsertHours: async (deltas) => {
        for (const delta of deltas) s.upsertHour.run(...rollupValues(delta), ...hourOnlyValues(delta));
      },
      upsertDays: async (deltas) => {
        for (const day of deltas) s.upsertDay.run(...dayValues(day));
      },
      saveLive: async (states: readonly LiveState[]) => {
        for (const state of states) s.saveLive.run(...liveValues(state));
      },
      insertWashes: async (washes: readonly WashCycle[]) => {
        for (const wash of washes)
          s.insertWash.run(wash.deviceId, wash.startedTs, wash.endedTs, wash.outcome);
      },
    };
  }
}

function prepare(sqlite: SQLite.Database) {
  const liveUpdates = LIVE_COLUMNS.filter((column) => column !== 'device_id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  return {
    existingDevices: sqlite.prepare('select id from devices where id in (select value from json_each(?))'),
    loadLive: sqlite.prepare(
      `select ${LIVE_COLUMNS.join(', ')} from device_live where device_id in (select value from json_each(?))`,
    ),
    insertSample: sqlite.prepare(
      `insert into telemetry_samples (${SAMPLE_COLUMNS.join(', ')}) values (${placeholders(SAMPLE_COLUMNS.length)})
       on conflict do nothing`,
    ),
    upsertMinute: sqlite.prepare(
      `insert into telemetry_minute (${ROLLUP_COLUMNS.join(', ')}) values (${placeholders(ROLLUP_COLUMNS.length)})
       on conflict (device_id, bucket) do update set ${rollupConflictSet('telemetry_minute', 'sqlite', false)}
       returning working`,
    ),
    upsertHour: sqlite.prepare(
      `insert into telemetry_hour (${[...ROLLUP_COLUMNS, ...HOUR_ONLY_COLUMNS].join(', ')})
       values (${placeholders(ROLLUP_COLUMNS.length + HOUR_ONLY_COLUMNS.length)})
       on conflict (device_id, bucket) do update set ${rollupConflictSet('telemetry_hour', 'sqlite', true)}`,
    ),
    upsertDay: sqlite.prepare(
      `insert into telemetry_day (${DAY_COLUMNS.join(', ')}) values (${placeholders(DAY_COLUMNS.length)})
       on conflict (device_id, date) do update set ${dayConflictSet('sqlite')}`,
    ),
    saveLive: sqlite.prepare(
      `insert into device_live (${LIVE_COLUMNS.join(', ')}) values (${placeholders(LIVE_COLUMNS.length)})
       on conflict (device_id) do update set ${liveUpdates}`,
    ),
    insertWash: sqlite.prepare(
      `insert into wash_cycles (device_id, started_ts, ended_ts, outcome) values (?, ?, ?, ?)
       on conflict do nothing`,
    ),
  };
}
