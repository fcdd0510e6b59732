import type {
  AclRole,
  aclRoleAddBodySchema,
  aclRoleFindBodySchema,
  aclRoleUpdateBodySchema,
  Filters,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { FieldValidationError, HttpError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, type FilterWhitelist } from '../../lib/pagination.js';
import { lockOrganisation } from '../users/users.repository.js';
import {
  clientModuleCatalogue,
  clientModulesQuery,
  countRoleUsers,
  deleteUnusedRole,
  findRole,
  insertRole,
  modulesOfRoles,
  renameRole,
  replaceRoleModules,
  roleNameTaken,
  rolesQuery,
} from './acl.repository.js';
import { toModule } from './acl.presenter.js';

/** `filters[field]` of `POST /api/acl/roles` and `POST /api/acl/role` (docs/people.md). */
export const ROLE_FILTERS: FilterWhitelist = {
  id: { column: 'id', type: 'number', operators: ['=', 'in'] },
  name: { column: 'name', type: 'string', operators: ['=', 'like'] },
};

/** `filters[field]` of `GET /api/acl/modules`. */
const MODULE_FILTERS: FilterWhitelist = {
  slug: { column: 'slug', type: 'string', operators: ['=', 'in'] },
  is_client_system: { column: 'is_client_system', type: 'boolean', operators: ['='] },
};

/** The client-system access modules, filtered. */
export async function listClientModules(db: Kysely<Database>, filters: Filters | undefined) {
  return (await applyFilters(clientModulesQuery(db), filters, MODULE_FILTERS).execute()).map(toModule);
}

type RoleRow = Awaited<ReturnType<ReturnType<typeof rolesQuery>['executeTakeFirstOrThrow']>>;

/** Roles with their client-system modules, read in one query for all of them. */
export async function withModules(db: Kysely<Database>, rows: readonly RoleRow[]): Promise<AclRole[]> {
  const modules = await modulesOfRoles(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    account_id: r.account_id,
    is_admin_role: r.is_admin_role === 1,
    created_at: r.created_at,
    updated_at: r.updated_at,
    modules: modules.filter((m) => m.acl_role_id === r.id).map(toModule),
  }));
}

export function rolesListQuery(
  db: Kysely<Database>,
  organisationId: number,
  options: { filters?: Filters; withAdminRole: boolean },
) {
  return applyFilters(
    rolesQuery(db, organisationId, options.withAdminRole),
    options.filters,
    ROLE_FILTERS,
  ).orderBy('id');
}

export async function getRole(
  db: Kysely<Database>,
  organisationId: number,
  roleId: number,
): Promise<AclRole> {
  const row = await rolesQuery(db, organisationId, true).where('id', '=', roleId).executeTakeFirst();
  if (!row) throw notFound();
  const [role] = await withModules(db, [row]);
  if (!role) throw notFound();
  return role;
}

/** `POST /api/acl/role`: the first (lowest id) of the organisation's roles matching the filters. */
export async function findRoleByFilters(
  db: Kysely<Database>,
  organisationId: number,
  body: z.output<typeof aclRoleFindBodySchema>,
): Promise<AclRole> {
  const row = await rolesListQuery(db, organisationId, body).limit(1).executeTakeFirst();
  if (!row) throw notFound();
  const [role] = await withModules(db, [row]);
  if (!role) throw notFound();
  return role;
}

/** The distinct ids, all of them client-system modules, or a 422 on `module_ids`. */
async function checkedModuleIds(db: Kysely<Database>, moduleIds: readonly number[]) {
  const catalogue = await clientModuleCatalogue(db);
  const unique = [...new Set(moduleIds)].sort((a, b) => a - b);
  if (unique.some((id) => !catalogue.has(id)))
    throw new FieldValidationError({ module_ids: ['field.exists'] });
  return unique;
}

/**
 * The admin role always holds every client-system module: sending exactly those is accepted (a
 * form that saves the whole role), anything else is a 422 on `module_ids`.
 */
async function checkAdminRoleModules(db: Kysely<Database>, moduleIds: readonly number[]) {
  const catalogue = await clientModuleCatalogue(db);
  const unique = new Set(moduleIds);
  const same = unique.size === catalogue.size && [...catalogue.keys()].every((id) => unique.has(id));
  if (!same) throw new FieldValidationError({ module_ids: ['acl.admin_role_modules'] });
}

export async function createRole(
  db: Kysely<Database>,
  organisationId: number,
  body: z.output<typeof aclRoleAddBodySchema>,
): Promise<AclRole> {
  const moduleIds = await checkedModuleIds(db, body.module_ids);
  const roleId = await db.transaction().execute(async (trx) => {
    // One role write of the organisation at a time, so two of one name cannot both pass the check.
    await lockOrganisation(trx, organisationId);
    if (await roleNameTaken(trx, organisationId, body.name)) {
      throw new FieldValidationError({ name: ['acl.role_name_taken'] });
    }
    return insertRole(trx, { organisationId, name: body.name, isAdminRole: false, moduleIds });
  });
  return getRole(db, organisationId, roleId);
}

/**
 * `POST /api/acl/role/{id}` and `/modules`: a new name and/or the whole module list. Users holding
 * the role get the new modules on their next request (they are read with every request).
 */
export async function updateRole(
  db: Kysely<Database>,
  organisationId: number,
  roleId: number,
  body: z.output<typeof aclRoleUpdateBodySchema>,
): Promise<AclRole> {
  await db.transaction().execute(async (trx) => {
    const role = await findRole(trx, organisationId, roleId);
    if (!role) throw notFound();
    const now = nowIso();
    if (body.module_ids !== undefined) {
      if (role.is_admin_role === 1) await checkAdminRoleModules(db, body.module_ids);
      else await replaceRoleModules(trx, role.id, await checkedModuleIds(db, body.module_ids), now);
    }
    if (body.name !== undefined && body.name !== role.name) {
      await lockOrganisation(trx, organisationId);
      if (await roleNameTaken(trx, organisationId, body.name, role.id)) {
        throw new FieldValidationError({ name: ['acl.role_name_taken'] });
      }
      await renameRole(trx, role.id, body.name, now);
    }
  });
  return getRole(db, organisationId, roleId);
}

/** Refused (409) for the admin role and for a role any user holds, disabled users included. */
export async function deleteRole(db: Kysely<Database>, organisationId: number, roleId: number) {
  const role = await findRole(db, organisationId, roleId);
  if (!role) throw notFound();
  if (role.is_admin_role === 1) throw new HttpError(409, 'acl.admin_role_delete');
  if (await deleteUnusedRole(db, organisationId, role.id)) return;
  const count = await countRoleUsers(db, organisationId, role.id);
  // Nobody holds it and it was not deleted: someone else deleted it a moment ago.
  if (count === 0) throw notFound();
  throw new HttpError(409, 'acl.role_in_use', { count });
}

export async function roleUsage(db: Kysely<Database>, organisationId: number, roleId: number) {
  const role = await findRole(db, organisationId, roleId);
  if (!role) throw notFound();
  const count = await countRoleUsers(db, organisationId, role.id);
  return { is_used: count > 0, users_count: count };
}
