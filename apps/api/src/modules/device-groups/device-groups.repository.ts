import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';

/** Rows per statement when a list of ids is long: well inside both dialects' parameter limits. */
const CHUNK = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export function groupsQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('device_groups')
    .select(['id', 'name', 'description', 'created_at', 'updated_at'])
    .where('organisation_id', '=', organisationId);
}
export type GroupRow = Awaited<ReturnType<ReturnType<typeof groupsQuery>['executeTakeFirstOrThrow']>>;

export function findGroup(db: Kysely<Database>, organisationId: number, groupId: number) {
  return groupsQuery(db, organisationId).where('id', '=', groupId).executeTakeFirst();
}

/** Members of the given groups in one query (no query per group), in device id order. */
export async function membersOf(db: Kysely<Database>, groupIds: readonly number[]) {
  if (groupIds.length === 0) return [];
  return db
    .selectFrom('device_group_devices')
    .select(['group_id', 'device_id'])
    .where('group_id', 'in', groupIds)
    .orderBy('group_id')
    .orderBy('device_id')
    .execute();
}

/** Which of `deviceIds` are devices of the organisation. */
export async function organisationDeviceIds(
  db: Kysely<Database>,
  organisationId: number,
  deviceIds: readonly number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const part of chunks(deviceIds)) {
    const rows = await db
      .selectFrom('devices')
      .select('id')
      .where('organisation_id', '=', organisationId)
      .where('id', 'in', part)
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

export async function insertGroup(
  db: Kysely<Database>,
  values: { organisationId: number; name: string; description: string | null; now: string },
) {
  const row = await db
    .insertInto('device_groups')
    .values({
      organisation_id: values.organisationId,
      name: values.name,
      description: values.description,
      created_at: values.now,
      updated_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateGroup(
  db: Kysely<Database>,
  organisationId: number,
  groupId: number,
  values: { name: string; description: string | null; now: string },
) {
  await db
    .updateTable('device_groups')
    .set({ name: values.name, description: values.description, updated_at: values.now })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', groupId)
    .execute();
}

/** Sets the group's members to exactly `deviceIds` (run it inside the caller's transaction). */
export async function replaceMembers(db: Kysely<Database>, groupId: number, deviceIds: readonly number[]) {
  await db.deleteFrom('device_group_devices').where('group_id', '=', groupId).execute();
  for (const part of chunks(deviceIds)) {
    await db
      .insertInto('device_group_devices')
      .values(part.map((deviceId) => ({ group_id: groupId, device_id: deviceId })))
      .execute();
  }
}

/** True when a group was deleted; its member rows go with it (cascade), the devices stay. */
export async function deleteGroup(db: Kysely<Database>, organisationId: number, groupId: number) {
  const result = await db
    .deleteFrom('device_groups')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', groupId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
