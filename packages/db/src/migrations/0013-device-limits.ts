import { type AnyDb, isPostgres, timeType } from './support.js';

/**
 * What each device sent per UTC day, as the gateways count it for the device limits
 * (docs/device-protocol.md, "Limits"): samples taken, messages and connections refused, the last
 * refusal and its reason, and when the organisation was told (one notification per device and
 * day). Each gateway process adds its counts in batches; the primary key (device, day) makes
 * every flush an upsert. No foreign key, as for telemetry: a flush must not fail for a device
 * deleted meanwhile; deleting a device removes its rows, and old days are purged.
 */
export async function up(db: AnyDb): Promise<void> {
  const big = isPostgres(db) ? 'bigint' : 'integer';
  await db.schema
    .createTable('device_ingest_days')
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('organisation_id', 'integer', (c) => c.notNull())
    .addColumn('samples', big, (c) => c.notNull().defaultTo(0))
    .addColumn('refused', big, (c) => c.notNull().defaultTo(0))
    .addColumn('last_refused_ts', big)
    .addColumn('last_reason', 'text')
    .addColumn('notified_at', timeType(db))
    .addPrimaryKeyConstraint('device_ingest_days_pkey', ['device_id', 'day'])
    .execute();
  // Purging old days walks them by day.
  await db.schema.createIndex('device_ingest_days_day_idx').on('device_ingest_days').column('day').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('device_ingest_days').execute();
}
