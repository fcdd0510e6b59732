import { sql } from 'kysely';
import { type AnyDb, isPostgres } from './support.js';

/**
 * `telemetry_day`: one row per device and **local** day (the address's zone when the samples
 * came): samples, working minutes, the first and last working sample, temperature. The worktime
 * and temperature reports read one row per device and day (1 000 devices: 1 000 rows), never
 * hours or minutes. The gateway keeps it with the other rollups. Days of samples stored before
 * this migration are not summed here (no organisation had telemetry then).
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  const big = postgres ? 'bigint' : 'integer';
  const real = postgres ? 'double precision' : 'real';
  await db.schema
    .createTable('telemetry_day')
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull())
    .addColumn('working_minutes', 'integer', (c) => c.notNull())
    .addColumn('first_working_ts', big)
    .addColumn('last_working_ts', big)
    .addColumn('temperature_samples', 'integer', (c) => c.notNull())
    .addColumn('temperature_sum', real, (c) => c.notNull())
    .addColumn('temperature_min', real)
    .addColumn('temperature_max', real)
    .addPrimaryKeyConstraint('telemetry_day_pk', ['device_id', 'date'])
    .modifyEnd(postgres ? sql`` : sql`without rowid`)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('telemetry_day').execute();
}
