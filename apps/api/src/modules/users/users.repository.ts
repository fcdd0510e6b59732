import type { AclModule, Locale, ModuleSlug } from '@kontrol/contracts';
import { dialectOf, type Database, type UserSettingsTable, type UsersTable } from '@kontrol/db';
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { clientModuleCatalogue } from '../acl/acl.repository.js';

export type UserRow = Selectable<UsersTable>;

/** Who is making a request, with what their access role grants. Loaded once per request. */
export interface CurrentUser {
  id: number;
  organisationId: number;
  organisationName: string;
  /**
   * The organisation's list counters when this request began (moved by the database on every change
   * of what each kind of list is built from): an answer is reused while those it was built from hold.
   */
  versions: ListVersions;
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

/**
 * The organisation's counters (migrations 0003 and 0016), by what moves them: `fleet` its addresses,
 * rooms and devices; `groups` device groups and members; `events` device events; `notifications`;
 * `recipes` recipes and recipe sets; `complaints`; `people` users and access roles.
 */
export interface ListVersions {
  fleet: number;
  groups: number;
  events: number;
  notifications: number;
  recipes: number;
  complaints: number;
  people: number;
}

/** The organisation's columns that hold {@link ListVersions}. */
export const LIST_VERSION_COLUMNS = [
  'fleet_version',
  'groups_version',
  'events_version',
  'notifications_version',
  'recipes_version',
  'complaints_version',
  'people_version',
] as const;

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

/**
 * The ids of the client-system modules the user's access role holds, as one comma-separated text
 * (null without a role): a scalar subquery, so the user and their modules are one statement.
 * `users.acl_role_id` must be in scope.
 */
export function roleModuleIds(db: Kysely<Database>) {
  const ids = sql.ref('acl_role_modules.acl_module_id');
  const aggregate =
    dialectOf(db) === 'sqlite'
      ? sql<string>`group_concat(${ids}, ',')`
      : sql<string>`string_agg(${ids}::text, ',')`;
  return db
    .selectFrom('acl_role_modules')
    .select(aggregate.as('ids'))
    .where('acl_role_modules.acl_role_id', '=', sql.ref<number>('users.acl_role_id'))
    .$asScalar();
}

/** What {@link toCurrentUser} reads: the user's row with organisation, access role and module ids. */
export interface CurrentUserRow {
  id: number;
  organisation_id: number;
  organisation_name: string;
  fleet_version: number;
  groups_version: number;
  events_version: number;
  notifications_version: number;
  recipes_version: number;
  complaints_version: number;
  people_version: number;
  name: string;
  email: string;
  role: 'regular' | 'admin';
  locale: Locale;
  email_verified_at: string | null;
  acl_role_id: number | null;
  acl_role_name: string | null;
  module_ids: string | null;
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
      ...LIST_VERSION_COLUMNS.map((column) => `organisations.${column}` as const),
      'users.name',
      'users.email',
      'users.role',
      'users.locale',
      'users.email_verified_at',
      'users.acl_role_id',
      'acl_roles.name as acl_role_name',
      roleModuleIds(db).as('module_ids'),
    ])
    .where('users.id', '=', userId)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  return row ? toCurrentUser(row, await clientModuleCatalogue(db)) : undefined;
}

const modulesByIds = new WeakMap<
  ReadonlyMap<number, AclModule>,
  Map<string, { modules: AclModule[]; slugs: ReadonlySet<ModuleSlug> }>
>();

/** The modules named by `ids` ("3,1,7"), sorted by id; the same frozen lists for the same ids. */
function modulesOf(ids: string, catalogue: ReadonlyMap<number, AclModule>) {
  let known = modulesByIds.get(catalogue);
  if (!known) {
    known = new Map();
    modulesByIds.set(catalogue, known);
  }
  let found = known.get(ids);
  if (!found) {
    const modules = ids
      .split(',')
      .map((id) => catalogue.get(Number(id)))
      .filter((m): m is AclModule => m !== undefined)
      .sort((a, b) => a.id - b.id)
      .map((m) => Object.freeze({ ...m }));
    found = { modules: Object.freeze(modules) as AclModule[], slugs: new Set(modules.map((m) => m.slug)) };
    if (known.size > 1000) known.clear();
    known.set(ids, found);
  }
  return found;
}

const NO_MODULES = { modules: Object.freeze([]) as unknown as AclModule[], slugs: new Set<ModuleSlug>() };

/** A {@link CurrentUserRow} as the request sees it; modules of a role from another organisation never count. */
export function toCurrentUser(row: CurrentUserRow, catalogue: ReadonlyMap<number, AclModule>): CurrentUser {
  const hasRole = row.acl_role_id !== null && row.acl_role_name !== null;
  const granted = hasRole && row.module_ids ? modulesOf(row.module_ids, catalogue) : NO_MODULES;
  return {
    id: row.id,
    organisationId: row.organisation_id,
    organisationName: row.organisation_name,
    versions: {
      fleet: Number(row.fleet_version),
      groups: Number(row.groups_version),
      events: Number(row.events_version),
      notifications: Number(row.notifications_version),
      recipes: Number(row.recipes_version),
      complaints: Number(row.complaints_version),
      people: Number(row.people_version),
    },
    name: row.name,
    email: row.email,
    role: row.role,
    isAdmin: row.role === 'admin',
    locale: row.locale,
    emailVerifiedAt: row.email_verified_at,
    aclRole: hasRole ? { id: row.acl_role_id as number, name: row.acl_role_name as string } : null,
    modules: granted.modules,
    moduleSlugs: granted.slugs,
  };
}

/**
 * The organisation's users as the users screens list them, with `status` (e-mail proven or not),
 * `disabled` and `invitation_pending` (no password yet) worked out in SQL, so they can be
 * filtered like stored columns.
 */
export function usersQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('users')
        .leftJoin('acl_roles', (join) =>
          join
            .onRef('acl_roles.id', '=', 'users.acl_role_id')
            .onRef('acl_roles.organisation_id', '=', 'users.organisation_id')
            .on('acl_roles.is_client_system', '=', 1),
        )
        .select([
          'users.id',
          'users.name',
          'users.email',
          'users.role',
          'users.acl_role_id',
          'acl_roles.name as acl_role_name',
          'users.locale',
          'users.created_at',
          'users.updated_at',
          sql<
            'verified' | 'not_verified'
          >`case when ${sql.ref('users.email_verified_at')} is null then 'not_verified' else 'verified' end`.as(
            'status',
          ),
          sql<number>`case when ${sql.ref('users.disabled_at')} is null then 0 else 1 end`.as('disabled'),
          sql<number>`case when ${sql.ref('users.password_hash')} is null then 1 else 0 end`.as(
            'invitation_pending',
          ),
        ])
        .where('users.organisation_id', '=', organisationId)
        .as('u'),
    )
    .selectAll('u');
}
export type UserListRow = Awaited<ReturnType<ReturnType<typeof usersQuery>['executeTakeFirstOrThrow']>>;

/** A user of the organisation (the stored row); another organisation's is not found. */
export function findOrganisationUser(db: Kysely<Database>, organisationId: number, userId: number) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
}

/** Admins of the organisation who are not disabled, apart from `exceptUserId`. */
export async function countOtherActiveAdmins(
  db: Kysely<Database>,
  organisationId: number,
  exceptUserId: number,
) {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organisation_id', '=', organisationId)
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .where('id', '!=', exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Inside a transaction: waits for, then holds, the organisation's row until the transaction ends,
 * so changes that must see each other (the last admin, a role's unique name) take turns. SQLite
 * runs one writing transaction at a time anyway.
 */
export async function lockOrganisation(db: Kysely<Database>, organisationId: number) {
  if (dialectOf(db) !== 'postgres') return;
  await db.selectFrom('organisations').select('id').where('id', '=', organisationId).forUpdate().execute();
}

/** True when the user was deleted; sessions, tokens and settings go with the row (cascade). */
export async function deleteOrganisationUser(db: Kysely<Database>, organisationId: number, userId: number) {
  const result = await db
    .deleteFrom('users')
    .where('id', '=', userId)
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function findUserSettings(db: Kysely<Database>, userId: number) {
  return db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
}
export type UserSettingsRow = Selectable<UserSettingsTable>;

export async function upsertUserSettings(db: Kysely<Database>, values: UserSettingsRow) {
  await db
    .insertInto('user_settings')
    .values(values)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        web: values.web,
        email: values.email,
        telegram: values.telegram,
        kinds: values.kinds,
        severities: values.severities,
        quiet_start: values.quiet_start,
        quiet_end: values.quiet_end,
        quiet_hours_critical: values.quiet_hours_critical,
        time_zone: values.time_zone,
        updated_at: values.updated_at,
      }),
    )
    .execute();
}
