import type { DeviceGroup, deviceGroupBodySchema, Filters } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, type FilterWhitelist } from '../../lib/pagination.js';
import {
  deleteGroup as deleteGroupRow,
  findGroup,
  groupsQuery,
  insertGroup,
  membersOf,
  organisationDeviceIds,
  replaceMembers,
  updateGroup as updateGroupRow,
  type GroupRow,
} from './device-groups.repository.js';

export type DeviceGroupInput = z.output<typeof deviceGroupBodySchema>;

/** `filters[field]` of `GET /api/devices/client/groups` (docs/api.md). */
export const GROUP_FILTERS: FilterWhitelist = {
  id: { column: 'id', type: 'number', operators: ['=', 'in'] },
  name: { column: 'name', type: 'string', operators: ['=', 'like'] },
};

export function groupsListQuery(db: Kysely<Database>, organisationId: number, filters: Filters | undefined) {
  return applyFilters(groupsQuery(db, organisationId), filters, GROUP_FILTERS).orderBy('name').orderBy('id');
}

/** Groups with their member ids, read in one query for all of them. */
export async function withMembers(db: Kysely<Database>, rows: readonly GroupRow[]): Promise<DeviceGroup[]> {
  const members = await membersOf(
    db,
    rows.map((row) => row.id),
  );
  const byGroup = new Map<number, number[]>();
  for (const member of members) {
    const list = byGroup.get(member.group_id) ?? [];
    list.push(member.device_id);
    byGroup.set(member.group_id, list);
  }
  return rows.map((row) => {
    const deviceIds = byGroup.get(row.id) ?? [];
    return { ...row, device_ids: deviceIds, devices_count: deviceIds.length };
  });
}

export async function getGroup(
  db: Kysely<Database>,
  organisationId: number,
  groupId: number,
): Promise<DeviceGroup> {
  const row = await findGroup(db, organisationId, groupId);
  if (!row) throw notFound();
  const [group] = await withMembers(db, [row]);
  if (!group) throw notFound();
  return group;
}

/** The distinct requested ids, all of them devices of the organisation, or a 422 on device_ids. */
async function checkedDeviceIds(db: Kysely<Database>, organisationId: number, deviceIds: readonly number[]) {
  const unique = [...new Set(deviceIds)].sort((a, b) => a - b);
  const found = await organisationDeviceIds(db, organisationId, unique);
  if (found.size !== unique.length) throw new FieldValidationError({ device_ids: ['field.exists'] });
  return unique;
}

/** A device deleted between the check and the insert: the foreign key refuses; same 422. */
async function saving<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new FieldValidationError({ device_ids: ['field.exists'] });
    throw error;
  }
}

export async function createGroup(
  db: Kysely<Database>,
  organisationId: number,
  input: DeviceGroupInput,
): Promise<DeviceGroup> {
  const groupId = await saving(() =>
    db.transaction().execute(async (trx) => {
      const deviceIds = await checkedDeviceIds(trx, organisationId, input.device_ids);
      const id = await insertGroup(trx, {
        organisationId,
        name: input.name,
        description: input.description,
        now: nowIso(),
      });
      await replaceMembers(trx, id, deviceIds);
      return id;
    }),
  );
  return getGroup(db, organisationId, groupId);
}

/** Replaces name, description and the whole member list in one transaction. */
export async function updateGroup(
  db: Kysely<Database>,
  organisationId: number,
  groupId: number,
  input: DeviceGroupInput,
): Promise<DeviceGroup> {
  await saving(() =>
    db.transaction().execute(async (trx) => {
      if (!(await findGroup(trx, organisationId, groupId))) throw notFound();
      const deviceIds = await checkedDeviceIds(trx, organisationId, input.device_ids);
      await updateGroupRow(trx, organisationId, groupId, {
        name: input.name,
        description: input.description,
        now: nowIso(),
      });
      await replaceMembers(trx, groupId, deviceIds);
    }),
  );
  return getGroup(db, organisationId, groupId);
}

export async function deleteGroup(db: Kysely<Database>, organisationId: number, groupId: number) {
  if (!(await deleteGroupRow(db, organisationId, groupId))) throw notFound();
}
