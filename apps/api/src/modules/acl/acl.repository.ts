import type { AclModule, ModuleSlug } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { sql, type Kysely } from 'kysely';
import { nowIso } from '../../lib/time.js';

const catalogues = new WeakMap<Kysely<Database>, Promise<ReadonlyMap<number, AclModule>>>();

/**
 * The client-system modules by id, read once per database handle: the module list is the
 * system's own (migrations write it, nothing at run time changes it), so every request can name
 * its user's modules from their ids alone.
 */
export function clientModuleCatalogue(db: Kysely<Database>): Promise<ReadonlyMap<number, AclModule>> {
  let catalogue = catalogues.get(db);
  if (!catalogue) {
    catalogue = clientModulesQuery(db)
      .execute()
      .then(
        (rows) =>
          new Map(
            rows.map((m) => [
              m.id,
              {
                id: m.id,
                slug: m.slug as ModuleSlug,
                name: m.name,
                is_client_system: m.is_client_system === 1,
              },
            ]),
          ),
      );
    catalogue.catch(() => catalogues.delete(db));
    catalogues.set(db, catalogue);
  }
  return catalogue;
}

export function clientModulesQuery(db: Kysely<Database>) {
  return db
    .selectFrom('acl_modules')
    .select(['id', 'slug', 'name', 'is_client_system'])
    .where('is_client_system', '=', 1)
    .orderBy('id');
}

export function listClientModules(db: Kysely<Database>) {
  return clientModulesQuery(db).execute();
}

export async function insertRole(
  db: Kysely<Database>,
  values: { organisationId: number; name: string; isAdminRole: boolean; moduleIds: number[] },
) {
  const now = nowIso();
  const role = await db
    .insertInto('acl_roles')
    .values({
      organisation_id: values.organisationId,
      name: values.name,
      is_client_system: 1,
      is_admin_role: values.isAdminRole ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (values.moduleIds.length > 0) {
    await db
      .insertInto('acl_role_modules')
      .values(values.moduleIds.map((moduleId) => ({ acl_role_id: role.id, acl_module_id: moduleId })))
      .execute();
  }
  return role.id;
}

/** The organisation's client-system roles; another organisation's never appear. */
export function rolesQuery(db: Kysely<Database>, organisationId: number, withAdminRole: boolean) {
  let query = db
    .selectFrom('acl_roles')
    .select(['id', 'name', 'organisation_id as account_id', 'is_admin_role', 'created_at', 'updated_at'])
    .where('organisation_id', '=', organisationId)
    .where('is_client_system', '=', 1);
  if (!withAdminRole) query = query.where('is_admin_role', '=', 0);
  return query;
}

export async function modulesOfRoles(db: Kysely<Database>, roleIds: number[]) {
  if (roleIds.length === 0) return [];
  return db
    .selectFrom('acl_role_modules')
    .innerJoin('acl_modules', 'acl_modules.id', 'acl_role_modules.acl_module_id')
    .select([
      'acl_role_modules.acl_role_id',
      'acl_modules.id',
      'acl_modules.slug',
      'acl_modules.name',
      'acl_modules.is_client_system',
    ])
    .where('acl_role_modules.acl_role_id', 'in', roleIds)
    .where('acl_modules.is_client_system', '=', 1)
    .orderBy('acl_modules.id')
    .execute();
}

/** A client-system role of the organisation; another organisation's is not found. */
export function findRole(db: Kysely<Database>, organisationId: number, roleId: number) {
  return db
    .selectFrom('acl_roles')
    .select(['id', 'name', 'is_admin_role'])
    .where('id', '=', roleId)
    .where('organisation_id', '=', organisationId)
    .where('is_client_system', '=', 1)
    .executeTakeFirst();
}

/** Whether another role of the organisation has this name, compared without regard to case. */
export async function roleNameTaken(
  db: Kysely<Database>,
  organisationId: number,
  name: string,
  exceptRoleId?: number,
) {
  let query = db
    .selectFrom('acl_roles')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where(sql<string>`lower(${sql.ref('name')})`, '=', name.toLowerCase());
  if (exceptRoleId !== undefined) query = query.where('id', '!=', exceptRoleId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function renameRole(db: Kysely<Database>, roleId: number, name: string, now: string) {
  await db.updateTable('acl_roles').set({ name, updated_at: now }).where('id', '=', roleId).execute();
}

/** Sets the role's modules to exactly `moduleIds` (run it inside the caller's transaction). */
export async function replaceRoleModules(
  db: Kysely<Database>,
  roleId: number,
  moduleIds: readonly number[],
  now: string,
) {
  await db.deleteFrom('acl_role_modules').where('acl_role_id', '=', roleId).execute();
  if (moduleIds.length > 0) {
    await db
      .insertInto('acl_role_modules')
      .values(moduleIds.map((moduleId) => ({ acl_role_id: roleId, acl_module_id: moduleId })))
      .execute();
  }
  await db.updateTable('acl_roles').set({ updated_at: now }).where('id', '=', roleId).execute();
}

/**
 * Deletes the organisation's role unless a user holds it, in one statement (a user given the
 * role at the same moment is not left without one); true when it was deleted.
 */
export async function deleteUnusedRole(db: Kysely<Database>, organisationId: number, roleId: number) {
  const result = await db
    .deleteFrom('acl_roles')
    .where('id', '=', roleId)
    .where('organisation_id', '=', organisationId)
    .where('is_admin_role', '=', 0)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('users').select('users.id').whereRef('users.acl_role_id', '=', 'acl_roles.id'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countRoleUsers(db: Kysely<Database>, organisationId: number, roleId: number) {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where('acl_role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
