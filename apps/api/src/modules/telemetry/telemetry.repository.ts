import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';

/**
 * SQL of the telemetry store that the API runs (the gateway writes it: apps/gateway ingest/).
 * Samples and rollups carry no foreign key (migration 0004), so deleting a device deletes them here.
 */

/** Removes every sample and rollup of a device (called when the device is deleted). */
export async function deleteDeviceTelemetry(db: Kysely<Database>, deviceId: number) {
  await db.deleteFrom('telemetry_samples').where('device_id', '=', deviceId).execute();
  await db.deleteFrom('telemetry_minute').where('device_id', '=', deviceId).execute();
  await db.deleteFrom('telemetry_hour').where('device_id', '=', deviceId).execute();
}

const DEVICES_PER_STEP = 200;

/**
 * Retention (docs/telemetry.md): raw samples before `rawBefore` and minute rollups before
 * `minuteBefore` (epoch ms) are deleted, device by device, so each statement walks one device's
 * primary key range and no statement holds the database for long. Hour rollups are kept.
 * Returns the number of samples deleted.
 */
export async function purgeOldTelemetry(
  db: Kysely<Database>,
  cutoffs: { rawBefore: number; minuteBefore: number },
): Promise<number> {
  let deleted = 0;
  let after = 0;
  for (;;) {
    const ids = await db
      .selectFrom('devices')
      .select('id')
      .where('id', '>', after)
      .orderBy('id')
      .limit(DEVICES_PER_STEP)
      .execute();
    if (ids.length === 0) return deleted;
    for (const { id } of ids) {
      const samples = await db
        .deleteFrom('telemetry_samples')
        .where('device_id', '=', id)
        .where('ts', '<', cutoffs.rawBefore)
        .executeTakeFirst();
      deleted += Number(samples.numDeletedRows);
      await db
        .deleteFrom('telemetry_minute')
        .where('device_id', '=', id)
        .where('bucket', '<', cutoffs.minuteBefore)
        .execute();
    }
    after = ids[ids.length - 1]?.id ?? after;
  }
}
