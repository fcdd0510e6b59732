import type { IngestResult, TelemetrySampleInput } from '@kontrol/contracts';
import { dropSamplePartitionsBefore, sampleDay, samplePartitionDays } from '@kontrol/db';
import { testDialect } from '@kontrol/db/testing';
import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice } from '../test/builders.js';
import { useTestGateway } from '../test/test-gateway.js';

const t = useTestGateway();
const MINUTE = 60_000;

/** A combi oven sample (its type reports temperature and door) at `ts`. */
const sample = (ts: number | string, extra: Partial<TelemetrySampleInput> = {}): TelemetrySampleInput => ({
  ts,
  current: 1.2,
  temperature: 25,
  door_open: false,
  state: 'idle',
  ...extra,
});

function ingest(credential: string | undefined, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/ingest/v1/telemetry',
    headers: {
      'content-type': 'application/json',
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
    },
    payload: JSON.stringify(body),
  });
}

async function storedSamples(deviceId: number) {
  return t.db
    .selectFrom('telemetry_samples')
    .selectAll()
    .where('device_id', '=', deviceId)
    .orderBy('ts')
    .execute();
}

/** A recent minute boundary, so every sample is inside the retention and not in the future. */
function recentMinute(minutesAgo = 60) {
  const now = Date.now();
  return now - (now % MINUTE) - minutesAgo * MINUTE;
}

describe('POST /api/ingest/v1/telemetry', () => {
  it('refuses a missing or unknown credential with 401, storing nothing', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const ts = recentMinute();
    expect((await ingest(undefined, sample(ts))).statusCode).toBe(401);
    const wrong = await ingest('kdc_not-a-credential', sample(ts));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    expect(await storedSamples(device.id)).toEqual([]);
  });

  it('stores the valid samples of a batch and rejects the bad ones one by one (202)', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const ts = recentMinute();
    const res = await ingest(device.credential, [
      sample(ts),
      sample(ts + 10_000, { current: -5 }), // out of range
      { ...sample(ts + 20_000), state: 'dancing' }, // unknown state
      sample(ts + 30_000, { temperature: undefined }), // a combi oven reports temperature
      { ...sample(ts + 40_000), ts: 'yesterday' },
      sample(ts + 50_000, { unknown_field: 1 } as Partial<TelemetrySampleInput>), // ignored field
      sample(new Date(ts + 55_000).toISOString().replace('Z', '+00:00'), { state: 'heating', current: 24 }),
    ]);
    expect(res.statusCode).toBe(202);
    const result = res.json<{ data: IngestResult }>().data;
    expect(result.accepted).toBe(3);
    expect(result.duplicates).toBe(0);
    expect(result.rejected.map((r) => [r.index, r.reason, Object.keys(r.errors)])).toEqual([
      [1, 'invalid', ['current']],
      [2, 'invalid', ['state']],
      [3, 'not_reported_by_type', ['temperature']],
      [4, 'invalid', ['ts']],
    ]);
    const rows = await storedSamples(device.id);
    expect(rows.map((row) => [Number(row.ts) - ts, row.state, row.current])).toEqual([
      [0, 1, 1.2],
      [50_000, 1, 1.2],
      [55_000, 2, 24],
    ]);
  });

  it('answers 422 with the fields of each sample when none is valid', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const res = await ingest(device.credential, [{ ts: recentMinute(), current: 'a lot' }]);
    expect(res.statusCode).toBe(422);
    const body = res.json<{ errors: Record<string, string[]> }>();
    expect(Object.keys(body.errors).sort()).toEqual(['0.current', '0.state']);
    expect((await ingest(device.credential, 'not samples')).statusCode).toBe(422);
    expect((await ingest(device.credential, [])).statusCode).toBe(422);
  });

  it('refuses samples older than the retention or more than 5 minutes ahead', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const now = Date.now();
    const res = await ingest(device.credential, [
      sample(now - 91 * 86_400_000),
      sample(now + 10 * MINUTE),
      sample(now - MINUTE),
    ]);
    expect(res.statusCode).toBe(202);
    expect(res.json<{ data: IngestResult }>().data.rejected.map((r) => r.reason)).toEqual([
      'too_old',
      'in_future',
    ]);
  });

  it('stores a redelivered sample once and does not count it twice in the rollups', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const ts = recentMinute();
    const batch = [sample(ts), sample(ts + 20_000, { current: 3 }), sample(ts + 40_000, { current: 0.5 })];
    expect((await ingest(device.credential, batch)).json<{ data: IngestResult }>().data).toMatchObject({
      accepted: 3,
      duplicates: 0,
    });
    const again = await ingest(device.credential, [...batch, sample(ts + 50_000)]);
    expect(again.json<{ data: IngestResult }>().data).toMatchObject({ accepted: 1, duplicates: 3 });
    expect(await storedSamples(device.id)).toHaveLength(4);
    const minute = await t.db
      .selectFrom('telemetry_minute')
      .selectAll()
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(minute).toMatchObject({ samples: 4, current_min: 0.5, current_max: 3, temperature_samples: 4 });
    expect(minute.current_sum).toBeCloseTo(1.2 + 3 + 0.5 + 1.2);
  });

  it('keeps minute and hour rollups: sums, extremes, working samples and working minutes', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const hour = recentMinute(180) - (recentMinute(180) % 3_600_000);
    // Minute 0: idle; minute 1: heating (working); minute 2: 5 A while idle (above the idle level 3 A).
    await ingest(device.credential, [
      sample(hour, { temperature: 20 }),
      sample(hour + MINUTE, { state: 'heating', current: 20, temperature: 120 }),
      sample(hour + MINUTE + 30_000, { state: 'heating', current: 22, temperature: 140, door_open: true }),
    ]);
    // Later, in another request: more of minute 2 and a working sample in minute 2 again.
    await ingest(device.credential, [
      sample(hour + 2 * MINUTE, { current: 5 }),
      sample(hour + 2 * MINUTE + 10_000),
    ]);
    await ingest(device.credential, [sample(hour + 2 * MINUTE + 20_000, { current: 6 })]);

    const minutes = await t.db
      .selectFrom('telemetry_minute')
      .select(['bucket', 'samples', 'working', 'door_open', 'temperature_min', 'temperature_max'])
      .where('device_id', '=', device.id)
      .orderBy('bucket')
      .execute();
    expect(minutes.map((m) => [Number(m.bucket) - hour, m.samples, m.working, m.door_open])).toEqual([
      [0, 1, 0, 0],
      [MINUTE, 2, 2, 1],
      [2 * MINUTE, 3, 2, 0],
    ]);
    const hourRow = await t.db
      .selectFrom('telemetry_hour')
      .selectAll()
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(hourRow).toMatchObject({
      samples: 6,
      working: 4,
      working_minutes: 2,
      current_max: 22,
      temperature_min: 20,
      temperature_max: 140,
    });
  });

  // The device's page shows what is written here (apps/api/src/modules/devices/devices.test.ts).
  it('derives last_online and work_start in the address time zone', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'Asia/Novosibirsk' });
    // 2 days ago, 05:00 and 06:10 local (UTC+7): idle, then heating.
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const local = (time: string) => Date.parse(`${day}T${time}:00+07:00`);
    await ingest(device.credential, [
      sample(local('06:10'), { state: 'heating', current: 25 }),
      sample(local('05:00')),
      sample(local('07:00'), { state: 'cooking', current: 10 }),
    ]);
    let live = await t.db
      .selectFrom('device_live')
      .selectAll()
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect([live.work_start_date, live.work_start_time]).toEqual([day, '06:10']);
    expect(live.last_online_at).toBe(new Date(local('07:00')).toISOString());

    // A late, earlier working sample of the same day corrects the start; an old sample does not move last_online.
    await ingest(device.credential, [sample(local('05:45'), { state: 'heating', current: 25 })]);
    live = await t.db
      .selectFrom('device_live')
      .selectAll()
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(live.work_start_time).toBe('05:45');
    expect(live.last_online_at).toBe(new Date(local('07:00')).toISOString());
  });

  it('records wash cycles: completed after a full run, aborted by a fault or a gap', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'dishwasher' });
    const start = recentMinute(240);
    const wash = (ts: number) => sample(ts, { state: 'washing', current: 12, temperature: 60 });
    // Every 2 minutes for 20 minutes, then idle.
    const run = Array.from({ length: 10 }, (_, k) => wash(start + k * 2 * MINUTE));
    await ingest(device.credential, [...run, sample(start + 20 * MINUTE)]);
    await ingest(device.credential, [
      wash(start + 30 * MINUTE),
      sample(start + 31 * MINUTE, { state: 'fault', error_code: 'E12' }),
    ]);
    // A run that loses its connection for longer than 5 minutes ends at its last washing sample.
    await ingest(device.credential, [wash(start + 40 * MINUTE), wash(start + 41 * MINUTE)]);
    await ingest(device.credential, [sample(start + 60 * MINUTE)]);
    const cycles = await t.db
      .selectFrom('wash_cycles')
      .selectAll()
      .where('device_id', '=', device.id)
      .orderBy('started_ts')
      .execute();
    expect(
      cycles.map((c) => [
        (Number(c.started_ts) - start) / MINUTE,
        (Number(c.ended_ts) - start) / MINUTE,
        c.outcome,
      ]),
    ).toEqual([
      [0, 20, 'completed'],
      [30, 31, 'aborted'],
      [40, 41, 'aborted'],
    ]);
    const live = await t.db
      .selectFrom('device_live')
      .select(['error_code', 'state', 'wash_started_ts'])
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(live).toEqual({ error_code: null, state: 1, wash_started_ts: null });
  });

  it('writes concurrent requests together (group commit) and answers each with its own counts', async () => {
    const org = await buildOrganisation(t.db);
    const devices = await Promise.all(
      Array.from({ length: 5 }, () => buildSmartDevice(t.db, org.organisationId)),
    );
    const before = t.gateway.stats.batches;
    const ts = recentMinute();
    const answers = await Promise.all(
      devices.flatMap((device) =>
        [0, 1, 2, 3].map((k) =>
          ingest(device.credential, [sample(ts + k * 1000), sample(ts + k * 1000 + 500)]),
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(202));
    expect(answers.every((a) => a.json<{ data: IngestResult }>().data.accepted === 2)).toBe(true);
    expect(t.gateway.stats.batches - before).toBeLessThan(20);
    for (const device of devices) expect(await storedSamples(device.id)).toHaveLength(8);
  });

  it("never writes to another organisation's device: a credential names its own device only", async () => {
    const mine = await buildOrganisation(t.db);
    const theirs = await buildOrganisation(t.db);
    const myDevice = await buildSmartDevice(t.db, mine.organisationId);
    const theirDevice = await buildSmartDevice(t.db, theirs.organisationId);
    const ts = recentMinute();
    await ingest(myDevice.credential, [sample(ts), { ...sample(ts + 1000), device_id: theirDevice.id }]);
    expect(await storedSamples(myDevice.id)).toHaveLength(2);
    expect(await storedSamples(theirDevice.id)).toHaveLength(0);
    const theirLive = await t.db
      .selectFrom('device_live')
      .selectAll()
      .where('device_id', '=', theirDevice.id)
      .execute();
    expect(theirLive).toEqual([]);
  });

  it('stores samples of days that have no partition yet, and of a day dropped after it was made', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const day = 86_400_000;
    const times = [recentMinute(30 * 24 * 60), recentMinute(5 * 24 * 60), recentMinute()];
    const first = await ingest(
      device.credential,
      times.map((ts) => sample(ts)),
    );
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json<{ data: IngestResult }>().data.accepted).toBe(3);
    expect((await storedSamples(device.id)).map((row) => row.ts)).toEqual(times);
    if (testDialect() === 'postgres') {
      expect(await samplePartitionDays(t.db)).toEqual(expect.arrayContaining(times.map(sampleDay)));
      // Retention drops the oldest day, which the gateway saw made; a sample of that day that
      // arrives afterwards (a clock set back) makes it again, whichever way the batch is written.
      const oldest = sampleDay(times[0] as number);
      const dropped = await dropSamplePartitionsBefore(t.db, (oldest + 1) * day);
      expect(dropped.map((d) => d.day)).toContain(oldest);
      expect(await samplePartitionDays(t.db)).not.toContain(oldest);
      const again = await ingest(device.credential, [sample((times[0] as number) + 1000)]);
      expect(again.statusCode, again.body).toBe(202);
      expect(again.json<{ data: IngestResult }>().data.accepted).toBe(1);
      await dropSamplePartitionsBefore(t.db, (oldest + 1) * day);
      const twice = await ingest(device.credential, [
        sample((times[0] as number) + 2000),
        sample(times[2] as number),
      ]);
      expect(twice.statusCode, twice.body).toBe(202);
      expect(twice.json<{ data: IngestResult }>().data).toMatchObject({ accepted: 1, duplicates: 1 });
      expect(await samplePartitionDays(t.db)).toContain(oldest);
    }
  });

  it.runIf(testDialect() === 'sqlite')(
    'refuses with 503 and Retry-After, storing nothing, while the database is read-only or full; accepts again after',
    async () => {
      const { driver } = t.database.handle;
      if (driver.dialect !== 'sqlite') return;
      const org = await buildOrganisation(t.db);
      const device = await buildSmartDevice(t.db, org.organisationId);
      const ts = recentMinute(120);
      const batch = Array.from({ length: 2_000 }, (_, k) => sample(ts + k * 1000));

      driver.sqlite.pragma('query_only = ON'); // writes fail with SQLITE_READONLY, as on a read-only disk
      try {
        const readOnly = await ingest(device.credential, batch);
        expect(readOnly.statusCode).toBe(503);
        expect(readOnly.headers['retry-after']).toBe('5');
        expect(readOnly.json<{ message: string }>().message).toMatch(
          /read-only; send the samples again later/,
        );
      } finally {
        driver.sqlite.pragma('query_only = OFF');
      }

      // No page may be added (SQLITE_FULL, as on a full disk); the batch needs new pages.
      const pages = Number(driver.sqlite.pragma('page_count', { simple: true }));
      driver.sqlite.pragma(`max_page_count = ${pages}`);
      try {
        const full = await ingest(device.credential, batch);
        expect(full.statusCode).toBe(503);
        expect(full.json<{ message: string }>().message).toMatch(/full \(no disk space left\)/);
      } finally {
        driver.sqlite.pragma('max_page_count = 1073741823');
      }
      expect(await storedSamples(device.id)).toEqual([]);

      const again = await ingest(device.credential, batch);
      expect(again.statusCode).toBe(202);
      expect(again.json<{ data: IngestResult }>().data.accepted).toBe(2_000);
    },
  );
});
