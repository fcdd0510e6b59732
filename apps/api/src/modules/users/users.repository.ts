import type { AclModule, Locale, ModuleSlug } from '@kontrol/contracts';
import type { Database, UsersTable } from '@kontrol/db';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';

export type UserRow = Selectable<UsersTable>;

/** Who is making a request, with what their access role grants. Loaded once per request. */
export interface CurrentUser {
  id: number;
  organisationId: number;
  organisationName: string;
  name: string;
  email: string;
  role: 'regular' | 'admin';
  isAdmin: boolean;
  locale: Locale;
  emailVerifiedAt: string | null;
  aclRole: { id: number; name: string } | null;
  modules: AclModule[];
  moduleSlugs: ReadonlySet<ModuleSlug>;
}

export function findUserByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Kysely<Database>, values: Insertable<UsersTable>) {
  const row = await db
    .insertInto('users')
    .values({ ...values, email: values.email.toLowerCase() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: Kysely<Database>, id: number, values: Updateable<UsersTable>) {
  await db.updateTable('users').set(values).where('id', '=', id).execute();
}

export async function emailTaken(db: Kysely<Database>, email: string, exceptUserId?: number) {
  let query = db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The active (not disabled) user with organisation, access role and the role's client modules. */
export async function loadCurrentUser(
  db: Kysely<Database>,
  userId: number,
): Promise<CurrentUser | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('organisations', 'organisations.id', 'users.organisation_id')
    .leftJoin('acl_roles', (join) =>
      join
        .onRef('acl_roles.id', '=', 'users.acl_role_id')
        .onRef('acl_roles.organisation_id', '=', 'users.organisation_id'),
    )
    .select([
      'users.id',
      'users.organisation_id',
      'organisations.name as organisation_name',
      'users.name',
      'users.email',
      'users.role',
      'users.locale',
      'users.email_verified_at',
      'users.acl_role_id',
      'acl_roles.name as acl_role_name',
    ])
    .where('users.id', '=', userId)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;

  const modules =
    row.acl_role_name === null || row.acl_role_id === null
      ? []
      : await db
          .selectFrom('acl_role_modules')
          .innerJoin('acl_modules', 'acl_modules.id', 'acl_role_modules.acl_module_id')
          .select(['acl_modules.id', 'acl_modules.slug', 'acl_modules.name', 'acl_modules.is_client_system'])
          .where('acl_role_modules.acl_role_id', '=', row.acl_role_id)
          .where('acl_modules.is_client_system', '=', 1)
          .orderBy('acl_modules.id')
          .execute();
  const aclModules = modules.map((m) => ({
    id: m.id,
    slug: m.slug as ModuleSlug,
    name: m.name,
    is_client_system: m.is_client_system === 1,
  }));
  return {
    id: row.id,
    organisationId: row.organisation_id,
    organisationName: row.organisation_name,
    name: row.name,
    email: row.email,
    role: row.role,
    isAdmin: row.role === 'admin',
    locale: row.locale,
    emailVerifiedAt: row.email_verified_at,
    aclRole:
      row.acl_role_id !== null && row.acl_role_name !== null
        ? { id: row.acl_role_id, name: row.acl_role_name }
        : null,
    modules: aclModules,
    moduleSlugs: new Set(aclModules.map((m) => m.slug)),
  };
}
