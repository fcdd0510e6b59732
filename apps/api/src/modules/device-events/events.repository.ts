import type { Database, DeviceEventsTable } from '@kontrol/db';
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * SQL of device events (docs/events.md); every read is scoped to the organisation. The device is
 * joined for its name (a list names each event's device, whoever's fleet a screen has loaded) and
 * its type (the `device_type_id` filter); an event is deleted with its device, so it always has one.
 */
export function eventsQuery(db: Db, organisationId: number) {
  return (
    db
      .selectFrom('device_events as e')
      // The device of the same organisation, said twice so the database may start from either side.
      .innerJoin('devices as d', (join) =>
        join.onRef('d.id', '=', 'e.device_id').on('d.organisation_id', '=', organisationId),
      )
      .leftJoin('users as ack', 'ack.id', 'e.acknowledged_by')
      .leftJoin('users as author', 'author.id', 'e.created_by')
      .select([
        'e.id',
        'e.device_id',
        'd.name as device_name',
        'e.template_id',
        'e.rule_key',
        'e.kind',
        'e.severity',
        'e.title',
        'e.description',
        'e.details',
        'e.value',
        'e.started_ts',
        'e.ended_ts',
        'e.acknowledged_at',
        'e.acknowledged_by',
        'ack.name as acknowledged_by_name',
        'e.ack_comment',
        'e.created_by',
        'author.name as created_by_name',
        'e.created_at',
        'e.updated_at',
      ])
      .where('e.organisation_id', '=', organisationId)
  );
}
export type EventRow = Awaited<ReturnType<ReturnType<typeof eventsQuery>['executeTakeFirstOrThrow']>>;

export function findEvent(db: Db, organisationId: number, id: number) {
  return eventsQuery(db, organisationId).where('e.id', '=', id).executeTakeFirst();
}

export async function insertEvent(db: Db, values: Insertable<DeviceEventsTable>) {
  return (await db.insertInto('device_events').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateEvent(
  db: Db,
  organisationId: number,
  id: number,
  values: Updateable<DeviceEventsTable>,
) {
  const result = await db
    .updateTable('device_events')
    .set(values)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteEvent(db: Db, organisationId: number, id: number) {
  const result = await db
    .deleteFrom('device_events')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function findOrganisationDevice(db: Db, organisationId: number, deviceId: number) {
  return db
    .selectFrom('devices')
    .select(['id', 'name'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', deviceId)
    .executeTakeFirst();
}
