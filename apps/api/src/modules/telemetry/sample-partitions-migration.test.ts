import { migrateTo, migrateToLatest, sampleDay, samplePartitionDays } from '@kontrol/db';
import { createTestDatabase, testDialect } from '@kontrol/db/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice } from '../../test/builders.js';

describe('migration 0017-sample-partitions', () => {
  it('keeps every raw sample, in a partition of its day on PostgreSQL, and back', async () => {
    const database = await createTestDatabase();
    const { db } = database.handle;
    try {
      await migrateTo(db, '0016-list-versions');
      const org = await buildOrganisation(db);
      const device = await buildSmartDevice(db, org.organisationId);
      const day = 86_400_000;
      const times = [Date.UTC(2026, 7, 1, 23, 59, 59, 999), Date.UTC(2026, 7, 2), Date.UTC(2026, 10, 3, 12)];
      const rows = times.map((ts, index) => ({
        device_id: device.id,
        ts,
        current: index + 0.5,
        temperature: 20 + index,
        door_open: index % 2,
        state: 1,
        program: `P${index}`,
        error_code: null,
        core_temperature: null,
        humidity: 40,
      }));
      await db.insertInto('telemetry_samples').values(rows).execute();
      const stored = () => db.selectFrom('telemetry_samples').selectAll().orderBy('ts').execute();

      await migrateToLatest(db);
      expect(await stored()).toEqual(rows);
      if (testDialect() === 'postgres') {
        const { rows: kind } = await sql<{ partitioned: boolean }>`
          select exists (select 1 from pg_partitioned_table
                          where partrelid = 'telemetry_samples'::regclass) as partitioned`.execute(db);
        expect(kind[0]?.partitioned).toBe(true);
        // The first two samples are a millisecond apart across midnight: two days, two partitions.
        expect(await samplePartitionDays(db)).toEqual(
          expect.arrayContaining([...new Set([...times, Date.now()].map(sampleDay))]),
        );
        expect(sampleDay(times[1] as number) - sampleDay(times[0] as number)).toBe(1);
        // A sample of a day without its partition is refused rather than stored anywhere.
        await expect(
          db
            .insertInto('telemetry_samples')
            .values({ ...rows[0], ts: (times[0] as number) - 30 * day } as (typeof rows)[number])
            .execute(),
        ).rejects.toThrow(/no partition/);
      }

      await migrateTo(db, '0016-list-versions');
      expect(await stored()).toEqual(rows);
      if (testDialect() === 'postgres') {
        const { rows: left } = await sql<{ n: number }>`
          select count(*)::int as n from pg_class where relname ~ '^telemetry_samples_[0-9]{8}$'`.execute(db);
        expect(left[0]?.n).toBe(0);
      }
    } finally {
      await database.drop();
    }
  });
});
