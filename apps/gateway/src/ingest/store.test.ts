import type { DeviceState, TelemetrySample } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { GatewayDevice } from '../devices/device-directory.js';
import { buildOrganisation, buildSmartDevice } from '../test/builders.js';
import { useTestDatabase } from '../test/use-test-database.js';
import { createTelemetryStore } from './create-store.js';
import { IngestPipeline } from './pipeline.js';

const t = useTestDatabase();
const MINUTE = 60_000;

/** A deterministic pseudo-random source. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * A sample whose values add up exactly in floating point (halves), so two stores that add the same
 * samples in the same order agree to the last bit.
 */
function sampleAt(ts: number, next: () => number): TelemetrySample {
  const states: DeviceState[] = ['off', 'idle', 'idle', 'heating', 'cooking', 'cooking', 'washing', 'fault'];
  const state = states[Math.floor(next() * states.length)] as DeviceState;
  return {
    ts,
    current: Math.floor(next() * 40) / 2,
    ...(next() < 0.9 ? { temperature: Math.floor(next() * 500) / 2 } : {}),
    door_open: next() < 0.2,
    state,
    ...(next() < 0.05 ? { program: 'Хлеб "ржаной"', error_code: 'E\\1' } : {}),
  };
}

/** Every telemetry row of `deviceId`, without the device id, in key order. */
async function tables(deviceId: number) {
  const db = t.db;
  const of = <T extends { device_id: number }>(rows: T[]) =>
    rows.map(({ device_id: _ignored, ...rest }) => rest);
  return {
    samples: of(
      await db
        .selectFrom('telemetry_samples')
        .selectAll()
        .where('device_id', '=', deviceId)
        .orderBy('ts')
        .execute(),
    ),
    minutes: of(
      await db
        .selectFrom('telemetry_minute')
        .selectAll()
        .where('device_id', '=', deviceId)
        .orderBy('bucket')
        .execute(),
    ),
    hours: of(
      await db
        .selectFrom('telemetry_hour')
        .selectAll()
        .where('device_id', '=', deviceId)
        .orderBy('bucket')
        .execute(),
    ),
    days: of(
      await db
        .selectFrom('telemetry_day')
        .selectAll()
        .where('device_id', '=', deviceId)
        .orderBy('date')
        .execute(),
    ),
    live: of(await db.selectFrom('device_live').selectAll().where('device_id', '=', deviceId).execute()),
    washes: of(
      await db
        .selectFrom('wash_cycles')
        .selectAll()
        .where('device_id', '=', deviceId)
        .orderBy('started_ts')
        .execute(),
    ),
  };
}

/** What the API does when a device is deleted: its telemetry, then the device. */
async function deleteDevice(db: Kysely<Database>, id: number) {
  for (const table of ['telemetry_samples', 'telemetry_minute', 'telemetry_hour', 'telemetry_day'] as const)
    await db.deleteFrom(table).where('device_id', '=', id).execute();
  await db.deleteFrom('device_ingest_days').where('device_id', '=', id).execute();
  await db.deleteFrom('devices').where('id', '=', id).execute();
}

describe('the ingest store', () => {
  it('writes what the step-by-step transaction writes, with redeliveries, back-fills, two processes and a deleted device', async () => {
    const org = await buildOrganisation(t.db);
    const zones = ['Europe/Moscow', 'Asia/Kolkata', 'America/St_Johns'];
    // Each device has a twin: the same samples go to the device through two pipelines (two
    // processes on one database, each with its own store), and to its twin through a pipeline that
    // only writes step by step (the store without its one-statement write).
    const built = [];
    for (const timeZone of [...zones, 'UTC']) {
      const one = await buildSmartDevice(t.db, org.organisationId, { timeZone });
      const twin = await buildSmartDevice(t.db, org.organisationId, { timeZone });
      built.push({ one, twin, timeZone });
    }
    const gateway = (id: number, timeZone: string): GatewayDevice => ({
      id,
      organisationId: org.organisationId,
      controllerId: null,
      credentialHash: '',
      timeZone,
      idleCurrentA: 3,
      reports: new Set(),
    });
    const handle = t.database.handle;
    // How often the one-statement write (PostgreSQL) wrote a batch, found a live state moved by the
    // other process (derived again), or declined it (a redelivery, a deleted device: written step
    // by step).
    const outcomes = { written: 0, stale: 0, declined: 0 };
    const counted = () => {
      const store = createTelemetryStore(handle);
      const writeAll = store.writeAll?.bind(store);
      if (writeAll)
        store.writeAll = async (batch) => {
          const outcome = await writeAll(batch);
          outcomes[outcome] += 1;
          return outcome;
        };
      return store;
    };
    const first = new IngestPipeline({ store: counted() });
    const second = new IngestPipeline({ store: counted() });
    const stepStore = createTelemetryStore(handle);
    const stepByStep = new IngestPipeline({ store: { writeBatch: (work) => stepStore.writeBatch(work) } });

    const next = random(7);
    const start = Math.floor(Date.now() / MINUTE) * MINUTE - 3 * 86_400_000;
    const clocks = built.map(() => start);
    const sent: TelemetrySample[][] = built.map(() => []);
    const gone = built[built.length - 1] as (typeof built)[number];
    const credited: [number, number][] = [];
    for (let round = 0; round < 80; round += 1) {
      if (round === 60) {
        // The last device (and its twin) is deleted; what it sends later is dropped.
        for (const id of [gone.one.id, gone.twin.id]) await deleteDevice(t.db, id);
      }
      const pipeline = round % 5 === 4 ? second : first;
      const pending: Promise<unknown>[] = [];
      for (const [index, { one, twin, timeZone }] of built.entries()) {
        if (next() < 0.25) continue;
        const samples: TelemetrySample[] = [];
        const count = 1 + Math.floor(next() * 40);
        for (let k = 0; k < count; k += 1) {
          // Mostly 20 s apart, sometimes a gap (offline, an aborted wash), sometimes a day later.
          const gap = next() < 0.05 ? 10 * MINUTE : next() < 0.02 ? 20 * 3_600_000 : 20_000;
          clocks[index] = (clocks[index] as number) + gap;
          samples.push(sampleAt(clocks[index], next));
        }
        const earlier = sent[index] as TelemetrySample[];
        // Redeliveries of what was sent before, and an older sample sent late.
        if (earlier.length > 0 && next() < 0.05)
          samples.push(earlier[Math.floor(next() * earlier.length)] as TelemetrySample);
        if (next() < 0.05) samples.unshift(sampleAt((clocks[index] as number) - 2 * 3_600_000 - 1_000, next));
        earlier.push(...samples);
        const submit = async (target: IngestPipeline, id: number) => {
          const outcome = await target.submit(gateway(id, timeZone), samples);
          return [outcome.accepted, outcome.duplicates] as const;
        };
        pending.push(
          Promise.all([submit(pipeline, one.id), submit(stepByStep, twin.id)]).then(([a, b]) => {
            credited.push([a[0], b[0]], [a[1], b[1]]);
          }),
        );
        // The same message twice in one batch (a device that resent before its PUBACK came).
        if (next() < 0.03)
          pending.push(
            Promise.all([submit(pipeline, one.id), submit(stepByStep, twin.id)]).then(([a, b]) => {
              credited.push([a[0], b[0]], [a[1], b[1]]);
            }),
          );
      }
      await Promise.all(pending);
    }
    await Promise.all([first.close(), second.close(), stepByStep.close()]);

    for (const [viaBoth, viaSteps] of credited) expect(viaBoth).toBe(viaSteps);
    for (const { one, twin } of built) {
      const [got, expected] = [await tables(one.id), await tables(twin.id)];
      expect(got).toEqual(expected);
      if (one.id !== gone.one.id) expect(got.samples.length).toBeGreaterThan(100);
    }
    // The rollups are those of the stored samples (counts; sums are exact halves).
    for (const { one } of built.slice(0, -1)) {
      const { samples, minutes, hours } = await tables(one.id);
      const perMinute = new Map<number, number>();
      for (const sample of samples) {
        const minute = Number(sample.ts) - (Number(sample.ts) % MINUTE);
        perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      }
      expect(minutes.map((row) => [Number(row.bucket), row.samples])).toEqual([...perMinute]);
      expect(hours.reduce((sum, row) => sum + row.samples, 0)).toBe(samples.length);
      expect(hours.reduce((sum, row) => sum + row.working_minutes, 0)).toBe(
        minutes.filter((row) => row.working > 0).length,
      );
    }
    // Each path was taken (the one-statement write exists on PostgreSQL only).
    if (t.database.handle.dialect === 'postgres') {
      expect(outcomes.written).toBeGreaterThan(20);
      expect(outcomes.stale).toBeGreaterThan(3);
      expect(outcomes.declined).toBeGreaterThan(3);
    }
  });

  it('writes batches of different devices side by side on PostgreSQL, and a device in one batch at a time', async () => {
    const org = await buildOrganisation(t.db);
    const [a, b] = [
      await buildSmartDevice(t.db, org.organisationId),
      await buildSmartDevice(t.db, org.organisationId),
    ];
    const gateway = (id: number): GatewayDevice => ({
      id,
      organisationId: org.organisationId,
      controllerId: null,
      credentialHash: '',
      timeZone: 'UTC',
      idleCurrentA: 3,
      reports: new Set(),
    });
    const store = createTelemetryStore(t.database.handle);
    const postgres = t.database.handle.dialect === 'postgres';
    expect(store.concurrentBatches ?? 1).toBe(postgres ? 2 : 1);
    // Every batch's start and end, with its devices where the store shows them; the first batch
    // waits for `release` before it writes.
    const log: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let gated = false;
    const around = async <T>(devices: string, write: () => Promise<T>) => {
      log.push(`start ${devices}`);
      if (!gated) {
        gated = true;
        await gate;
      }
      try {
        return await write();
      } finally {
        log.push(`end ${devices}`);
      }
    };
    const name = (id: number) => (id === a.id ? 'a' : 'b');
    const writeAll = store.writeAll?.bind(store);
    const writeBatch = store.writeBatch.bind(store);
    if (writeAll) store.writeAll = (batch) => around(batch.deviceIds.map(name).join(), () => writeAll(batch));
    else store.writeBatch = (work) => around('…', () => writeBatch(work));
    const pipeline = new IngestPipeline({ store });
    const start = Math.floor(Date.now() / MINUTE) * MINUTE - 30 * MINUTE;
    const samples = (from: number, count: number) =>
      Array.from({ length: count }, (_, k) => ({
        ts: from + k * 1000,
        current: 1,
        state: 'idle' as const,
      }));
    const settled = () => new Promise((resolve) => setTimeout(resolve, 100));

    const a1 = pipeline.submit(gateway(a.id), samples(start, 3));
    await settled();
    const a2 = pipeline.submit(gateway(a.id), samples(start + 10_000, 2));
    const b1 = pipeline.submit(gateway(b.id), samples(start, 4));
    await settled();
    if (postgres) {
      // b's batch went past a's, which waits; a's second submission waits for a's first batch.
      expect(log).toEqual(['start a', 'start b', 'end b']);
      expect(await b1).toEqual({ accepted: 4, duplicates: 0 });
    } else expect(log).toEqual(['start …']);
    release();
    expect(await Promise.all([a1, a2, b1])).toEqual([
      { accepted: 3, duplicates: 0 },
      { accepted: 2, duplicates: 0 },
      { accepted: 4, duplicates: 0 },
    ]);
    await pipeline.close();
    if (postgres) expect(log).toEqual(['start a', 'start b', 'end b', 'end a', 'start a', 'end a']);
    else expect(log).toEqual(['start …', 'end …', 'start …', 'end …']);
    // a's samples in the order they came: its live state is its newest sample's.
    const live = await t.db
      .selectFrom('device_live')
      .select('last_ts')
      .where('device_id', '=', a.id)
      .executeTakeFirst();
    expect(Number(live?.last_ts)).toBe(start + 11_000);
    expect((await tables(a.id)).samples).toHaveLength(5);
  });
});
