import type { AclModule, ModuleSlug } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
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

export function findRole(db: Kysely<Database>, organisationId: number, roleId: number) {
  return db
    .selectFrom('acl_roles')
    .select(['id', 'name'])
    .where('id', '=', roleId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
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
