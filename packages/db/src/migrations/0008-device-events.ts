import { sql } from 'kysely';
import { type AnyDb, isPostgres, primaryId, timeType } from './support.js';

/**
 * Current templates, device events and the rules' state (docs/events.md).
 *
 * - `device_event_templates`: a device type's norm of current (`norms`, JSON: a band per state) and
 *   its rules (`rules`, JSON array, each with a `key` unique in the template).
 * - `device_events`: what happened to a device. A rule's event names its template and rule key;
 *   at most one event per device and condition is open at a time (the partial unique index
 *   `device_events_open_idx`), so two gateways, or one restarted, never open it twice.
 *   `started_ts`/`ended_ts` are epoch ms (device clock), like telemetry.
 * - `device_rule_state`: per device, since when each of its conditions has held (`conditions`,
 *   JSON: condition key → epoch ms). Kept in the database so that whichever gateway gets the
 *   device's next samples goes on from where another one stopped.
 */
export async function up(db: AnyDb): Promise<void> {
  const time = timeType(db);
  const big = isPostgres(db) ? 'bigint' : 'integer';
  const real = isPostgres(db) ? 'double precision' : 'real';

  await db.schema
    .createTable('device_event_templates')
    .addColumn('id', 'integer', primaryId(db))
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('device_type_id', 'integer', (c) => c.notNull().references('device_types.id'))
    .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('cascade'))
    .addColumn('norms', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_event_templates_organisation_idx')
    .on('device_event_templates')
    .columns(['organisation_id', 'name'])
    .execute();

  await db.schema.createIndex('devices_template_idx').on('devices').column('template_id').execute();

  await db.schema
    .createTable('device_events')
    .addColumn('id', 'integer', primaryId(db))
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) =>
      c.references('device_event_templates.id').onDelete('set null'),
    )
    .addColumn('rule_key', 'varchar(32)')
    /** `template_id:rule_key` for a rule's event, null for a manual one. */
    .addColumn('condition_key', 'varchar(48)')
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)')
    .addColumn('description', 'text')
    /** What the rule saw (JSON: state, band, code, minutes), to word the event in any language. */
    .addColumn('details', 'text')
    .addColumn('value', real)
    .addColumn('started_ts', big, (c) => c.notNull())
    .addColumn('ended_ts', big)
    .addColumn('acknowledged_at', time)
    .addColumn('acknowledged_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('ack_comment', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_events_open_idx')
    .on('device_events')
    .columns(['device_id', 'condition_key'])
    .unique()
    .where(sql.ref('ended_ts'), 'is', null)
    .execute();
  await db.schema
    .createIndex('device_events_organisation_started_idx')
    .on('device_events')
    .columns(['organisation_id', 'started_ts'])
    .execute();
  // The live updates look for events changed in the last second.
  await db.schema
    .createIndex('device_events_organisation_updated_idx')
    .on('device_events')
    .columns(['organisation_id', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('device_events_device_started_idx')
    .on('device_events')
    .columns(['device_id', 'started_ts'])
    .execute();

  await db.schema
    .createTable('device_rule_state')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('template_id', 'integer')
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('updated_ts', big, (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('device_rule_state').execute();
  await db.schema.dropTable('device_events').execute();
  await db.schema.dropIndex('devices_template_idx').execute();
  await db.schema.dropTable('device_event_templates').execute();
}
