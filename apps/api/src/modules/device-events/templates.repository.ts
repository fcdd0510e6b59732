import type { Database, DeviceEventTemplatesTable } from '@kontrol/db';
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** SQL of current templates (docs/events.md); every read is scoped to the organisation. */

const COLUMNS = [
  'id',
  'name',
  'description',
  'device_type_id',
  'device_id',
  'norms',
  'rules',
  'created_at',
  'updated_at',
] as const;

export function templatesQuery(db: Db, organisationId: number) {
  return db
    .selectFrom('device_event_templates')
    .select(COLUMNS)
    .where('organisation_id', '=', organisationId);
}
export type TemplateRow = Awaited<ReturnType<ReturnType<typeof templatesQuery>['executeTakeFirstOrThrow']>>;

export function findTemplate(db: Db, organisationId: number, id: number) {
  return templatesQuery(db, organisationId).where('id', '=', id).executeTakeFirst();
}

/** Which devices use each template. */
export async function templateDevices(db: Db, organisationId: number, templateIds: readonly number[]) {
  const byTemplate = new Map<number, number[]>();
  if (templateIds.length === 0) return byTemplate;
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'template_id'])
    .where('organisation_id', '=', organisationId)
    .where('template_id', 'in', [...templateIds])
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byTemplate.get(row.template_id as number) ?? [];
    list.push(row.id);
    byTemplate.set(row.template_id as number, list);
  }
  return byTemplate;
}

/** The organisation's devices among `ids`, with their type. */
export function organisationDevices(db: Db, organisationId: number, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('devices')
    .select(['id', 'type_id'])
    .where('organisation_id', '=', organisationId)
    .where('id', 'in', [...ids])
    .execute();
}

export async function deviceTypeExists(db: Db, typeId: number) {
  return (
    (await db.selectFrom('device_types').select('id').where('id', '=', typeId).executeTakeFirst()) !==
    undefined
  );
}

export async function insertTemplate(db: Db, values: Insertable<DeviceEventTemplatesTable>) {
  const row = await db
    .insertInto('device_event_templates')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTemplate(
  db: Db,
  organisationId: number,
  id: number,
  values: Updateable<DeviceEventTemplatesTable>,
) {
  const result = await db
    .updateTable('device_event_templates')
    .set(values)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives the template to exactly these devices of the organisation (others lose it). */
export async function replaceTemplateDevices(
  db: Db,
  organisationId: number,
  templateId: number,
  deviceIds: readonly number[],
  now: string,
) {
  let release = db
    .updateTable('devices')
    .set({ template_id: null, updated_at: now })
    .where('organisation_id', '=', organisationId)
    .where('template_id', '=', templateId);
  if (deviceIds.length > 0) release = release.where('id', 'not in', [...deviceIds]);
  await release.execute();
  for (let start = 0; start < deviceIds.length; start += 500) {
    await db
      .updateTable('devices')
      .set({ template_id: templateId, updated_at: now })
      .where('organisation_id', '=', organisationId)
      .where('id', 'in', deviceIds.slice(start, start + 500))
      .where((eb) => eb.or([eb('template_id', 'is', null), eb('template_id', '!=', templateId)]))
      .execute();
  }
}

/** Takes the template off its devices and closes its open events at `endedTs`, then deletes it. */
export async function deleteTemplate(
  db: Db,
  organisationId: number,
  id: number,
  endedTs: number,
  now: string,
) {
  await db
    .updateTable('devices')
    .set({ template_id: null, updated_at: now })
    .where('organisation_id', '=', organisationId)
    .where('template_id', '=', id)
    .execute();
  await db
    .updateTable('device_events')
    .set({ ended_ts: endedTs, updated_at: now })
    .where('organisation_id', '=', organisationId)
    .where('template_id', '=', id)
    .where('ended_ts', 'is', null)
    .execute();
  const result = await db
    .deleteFrom('device_event_templates')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Closes the open events of rules a template no longer has. */
export async function closeEventsOfRules(
  db: Db,
  templateId: number,
  keep: readonly string[],
  endedTs: number,
  now: string,
) {
  let query = db
    .updateTable('device_events')
    .set({ ended_ts: endedTs, updated_at: now })
    .where('template_id', '=', templateId)
    .where('ended_ts', 'is', null)
    .where('condition_key', 'is not', null);
  if (keep.length > 0) query = query.where('condition_key', 'not in', [...keep]);
  await query.execute();
}
