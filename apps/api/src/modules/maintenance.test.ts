import { ensureSamplePartitions, sampleDay, samplePartitionDays } from '@kontrol/db';
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
