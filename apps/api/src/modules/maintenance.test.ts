import {
  dropSamplePartitionsBefore,
  ensureSamplePartitions,
  sampleDay,
  samplePartitionDays,
  samplePartitionName,
} from '@kontrol/db';
import { testDialect } from '@kontrol/db/testing';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../lib/crypto.js';
import { buildOrganisation, buildSmartDevice } from '../test/builders.js';
import { deleteDevice } from './devices/devices.service.js';
import { useTestApp } from '../test/test-app.js';
import { purgeExpired } from './maintenance.js';

const t = useTestApp();

describe('purgeExpired', () => {
  it('removes expired sessions, tokens and rate-limit windows, and keeps live ones', async () => {
    const db = t.db;
    const org = await buildOrganisation(db);
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const session = (id: string, expires: string) => ({
      id: sha256(id),
      user_id: org.admin.id,
      csrf_token: 'x',
      remember: 0,
      ip: null,
      user_agent: null,
      created_at: past,
      last_activity_at: past,
      expires_at: expires,
    });
    await db
      .insertInto('sessions')
      .values([session('old', past), session('live', future)])
      .execute();
    const token = (hash: string, expires: string) => ({
      user_id: org.admin.id,
      purpose: 'password_reset' as const,
      token_hash: sha256(hash),
      expires_at: expires,
      used_at: null,
      created_at: past,
    });
    await db
      .insertInto('user_tokens')
      .values([token('old', past), token('live', future)])
      .execute();
    await db
      .insertInto('rate_limits')
      .values([
        { key: 'old', hits: 3, reset_at: Date.now() - 1000 },
        { key: 'live', hits: 3, reset_at: Date.now() + 60_000 },
      ])
      .execute();

    await purgeExpired(t.app);

    const sessions = await db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', org.admin.id)
      .execute();
    expect(sessions.map((s) => s.id)).toEqual([sha256('live')]);
    const tokens = await db
      .selectFrom('user_tokens')
      .select('token_hash')
      .where('user_id', '=', org.admin.id)
      .execute();
    expect(tokens.map((r) => r.token_hash)).toEqual([sha256('live')]);
    const limits = await db
      .selectFrom('rate_limits')
      .select('key')
      .where('key', 'in', ['old', 'live'])
      .execute();
    expect(limits.map((r) => r.key)).toEqual(['live']);
  });
});

describe('telemetry retention', () => {
  it('deletes raw samples past TELEMETRY_RAW_DAYS and minute rollups past TELEMETRY_MINUTE_DAYS, keeping hours', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const day = 86_400_000;
    // Noon UTC: a whole day's partition 91 days back ended well before the cutoff.
    const now = Math.floor(Date.now() / day) * day + day / 2;
    const row = (ts: number) => ({ device_id: device.id, ts, current: 1, state: 1 });
    const times = [now - 91 * day, now - 89 * day, now - day];
    await ensureSamplePartitions(t.db, times.map(sampleDay));
    await t.db.insertInto('telemetry_samples').values(times.map(row)).execute();
    const rollup = (bucket: number) => ({
      device_id: device.id,
      bucket,
      samples: 1,
      current_sum: 1,
      current_min: 1,
      current_max: 1,
      temperature_samples: 0,
      temperature_sum: 0,
      working: 0,
      washing: 0,
      fault: 0,
      door_open: 0,
    });
    await t.db
      .insertInto('telemetry_minute')
      .values([rollup(now - 401 * day), rollup(now - 10 * day)])
      .execute();
    await t.db
      .insertInto('telemetry_hour')
      .values([{ ...rollup(now - 800 * day), working_minutes: 0 }])
      .execute();

    await purgeExpired(t.app, now);

    const left = async (table: 'telemetry_samples' | 'telemetry_minute' | 'telemetry_hour') =>
      (await t.db.selectFrom(table).select('device_id').where('device_id', '=', device.id).execute()).length;
    expect(await left('telemetry_samples')).toBe(2);
    expect(await left('telemetry_minute')).toBe(1);
    expect(await left('telemetry_hour')).toBe(1);
    if (testDialect() === 'postgres') {
      // PostgreSQL dropped the old day's partition whole, and made today's and tomorrow's.
      const days = await samplePartitionDays(t.db);
      expect(days).not.toContain(sampleDay(now - 91 * day));
      expect(days).toEqual(expect.arrayContaining([...times.slice(1), now, now + day].map(sampleDay)));
    }
  });

  it.runIf(testDialect() === 'postgres')(
    'on PostgreSQL, drops a day only once it has wholly passed the retention, by an hour',
    async () => {
      const day = 86_400_000;
      const late = sampleDay(Date.now()) - 100;
      await ensureSamplePartitions(t.db, [late - 1, late]);
      // The cutoff (90 days before "now") half an hour after `late` ended: the gateway may still be
      // writing a sample of `late` it accepted, so that day stays; the day before it goes.
      await purgeExpired(t.app, (late + 1) * day + 30 * 60_000 + 90 * day);
      const days = await samplePartitionDays(t.db);
      expect(days).toContain(late);
      expect(days).not.toContain(late - 1);
    },
  );

  it.runIf(testDialect() === 'postgres')(
    "on PostgreSQL, makes a day's partition once when asked at once",
    async () => {
      const day = sampleDay(Date.now()) - 200;
      const made = await Promise.all([
        ensureSamplePartitions(t.db, [day]),
        ensureSamplePartitions(t.db, [day, day + 1]),
        ensureSamplePartitions(t.db, [day + 1]),
      ]);
      expect(made.flat().sort()).toEqual([day, day + 1]);
      expect(await samplePartitionDays(t.db)).toEqual(expect.arrayContaining([day, day + 1]));
    },
  );

  it.runIf(testDialect() === 'postgres')(
    'on PostgreSQL, finishes a detach that stopped halfway without holding up new inserts, then drops the day',
    async () => {
      const { driver } = t.database.handle;
      if (driver.dialect !== 'postgres') return;
      const dayMs = 86_400_000;
      const today = sampleDay(Date.now());
      const day = today - 300;
      await ensureSamplePartitions(t.db, [day, today]);
      const name = samplePartitionName(day);
      // A sample of device 1 (samples carry no foreign key) on a connection of its own.
      const insert = (client: { query: (text: string, values: unknown[]) => Promise<unknown> }, ts: number) =>
        client.query('insert into telemetry_samples (device_id, ts, current, state) values (1, $1, 1, 1)', [
          ts,
        ]);
      // A transaction that read the day keeps its snapshot, so the concurrent detach waits for it
      // in its second step, and its time limit stops it there: the day is left "detach pending".
      const holder = await driver.pool.connect();
      const detacher = await driver.pool.connect();
      try {
        await holder.query('begin isolation level repeatable read');
        await holder.query('select count(*) from telemetry_samples where ts >= $1 and ts < $2', [
          day * dayMs,
          (day + 1) * dayMs,
        ]);
        await detacher.query('set statement_timeout = 500');
        await expect(
          detacher.query(`alter table telemetry_samples detach partition ${name} concurrently`),
        ).rejects.toThrow(/statement timeout/);
        const { rows } = await detacher.query<{ pending: boolean }>(
          'select inhdetachpending as pending from pg_inherits where inhrelid = $1::regclass',
          [name],
        );
        expect(rows).toEqual([{ pending: true }]);
        expect(await samplePartitionDays(t.db)).not.toContain(day);
      } finally {
        await holder.query('rollback');
        await detacher.query('reset statement_timeout');
        holder.release();
        detacher.release();
      }

      // An ingest transaction is open while retention finishes the detach: the detach waits for
      // it, and meanwhile a new insert goes through (dropping the partition outright would queue
      // every statement on samples behind its lock on the whole table).
      const open = await driver.pool.connect();
      const other = await driver.pool.connect();
      try {
        await open.query('begin');
        await insert(open, Date.now());
        const retention = dropSamplePartitionsBefore(t.db, (day + 1) * dayMs);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await other.query('set statement_timeout = 5000');
        await insert(other, Date.now() + 1);
        await open.query('commit');
        const dropped = await retention;
        expect(dropped.map((d) => d.day)).toContain(day);
        const left = await other.query<{ still: string | null }>('select to_regclass($1) as still', [name]);
        expect(left.rows).toEqual([{ still: null }]);
      } finally {
        await open.query('rollback');
        await other.query('reset statement_timeout');
        open.release();
        other.release();
      }
    },
  );

  it('deletes a device with its samples and rollups', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const ts = Date.now();
    // Written as the gateway writes it: into today's partition on PostgreSQL, made first.
    await ensureSamplePartitions(t.db, [sampleDay(ts)]);
    await t.db
      .insertInto('telemetry_samples')
      .values({ device_id: device.id, ts, current: 1, state: 1 })
      .execute();
    await deleteDevice(t.db, t.gateway.accounts, org.organisationId, device.id);
    const samples = await t.db
      .selectFrom('telemetry_samples')
      .select('ts')
      .where('device_id', '=', device.id)
      .execute();
    expect(samples).toEqual([]);
  });
});
