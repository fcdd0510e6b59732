import { reusableQuery, type Database, type SessionsTable } from '@kontrol/db';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { clientModuleCatalogue } from '../acl/acl.repository.js';
import {
  LIST_VERSION_COLUMNS,
  roleModuleIds,
  toCurrentUser,
  type CurrentUser,
} from '../users/users.repository.js';

export type SessionRow = Selectable<SessionsTable>;

const liveSessionWithUser = reusableQuery((db, params: { idHash: string; now: string }) =>
  db
    .selectFrom('sessions')
    .leftJoin('users', (join) =>
      join.onRef('users.id', '=', 'sessions.user_id').on('users.disabled_at', 'is', null),
    )
    .leftJoin('organisations', 'organisations.id', 'users.organisation_id')
    .leftJoin('acl_roles', (join) =>
      join
        .onRef('acl_roles.id', '=', 'users.acl_role_id')
        .onRef('acl_roles.organisation_id', '=', 'users.organisation_id'),
    )
    .selectAll('sessions')
    .select([
      'users.id as u_id',
      'users.organisation_id as u_organisation_id',
      'organisations.name as u_organisation_name',
      ...LIST_VERSION_COLUMNS.map((column) => `organisations.${column} as u_${column}` as const),
      'users.name as u_name',
      'users.email as u_email',
      'users.role as u_role',
      'users.locale as u_locale',
      'users.email_verified_at as u_email_verified_at',
      'users.acl_role_id as u_acl_role_id',
      'acl_roles.name as u_acl_role_name',
      roleModuleIds(db).as('u_module_ids'),
    ])
    .where('sessions.id', '=', params.idHash)
    .where('sessions.expires_at', '>', params.now),
);

/**
 * The live session with its active user (organisation, access role, module ids) in one statement:
 * every signed-in request starts here, so it is one indexed lookup, not one per table, and a
 * statement Kysely builds only once. `user` is undefined for a session without a user or whose
 * user is disabled or gone.
 */
export async function findLiveSessionWithUser(
  db: Kysely<Database>,
  idHash: string,
  now: string,
): Promise<{ session: SessionRow; user: CurrentUser | undefined } | undefined> {
  const [row] = await liveSessionWithUser(db, { idHash, now });
  if (!row) return undefined;
  const session: SessionRow = {
    id: row.id,
    user_id: row.user_id,
    csrf_token: row.csrf_token,
    remember: row.remember,
    ip: row.ip,
    user_agent: row.user_agent,
    created_at: row.created_at,
    last_activity_at: row.last_activity_at,
    expires_at: row.expires_at,
  };
  const user =
    row.u_id === null ||
    row.u_organisation_id === null ||
    row.u_organisation_name === null ||
    row.u_name === null ||
    row.u_email === null ||
    row.u_role === null ||
    row.u_locale === null
      ? undefined
      : toCurrentUser(
          {
            id: row.u_id,
            organisation_id: row.u_organisation_id,
            organisation_name: row.u_organisation_name,
            fleet_version: Number(row.u_fleet_version),
            groups_version: Number(row.u_groups_version),
            events_version: Number(row.u_events_version),
            notifications_version: Number(row.u_notifications_version),
            recipes_version: Number(row.u_recipes_version),
            complaints_version: Number(row.u_complaints_version),
            people_version: Number(row.u_people_version),
            name: row.u_name,
            email: row.u_email,
            role: row.u_role,
            locale: row.u_locale,
            email_verified_at: row.u_email_verified_at,
            acl_role_id: row.u_acl_role_id,
            acl_role_name: row.u_acl_role_name,
            module_ids: row.u_module_ids,
          },
          await clientModuleCatalogue(db),
        );
  return { session, user };
}

export async function insertSession(db: Kysely<Database>, values: Insertable<SessionsTable>) {
  await db.insertInto('sessions').values(values).execute();
}

export async function touchSession(
  db: Kysely<Database>,
  idHash: string,
  lastActivityAt: string,
  expiresAt: string,
) {
  await db
    .updateTable('sessions')
    .set({ last_activity_at: lastActivityAt, expires_at: expiresAt })
    .where('id', '=', idHash)
    .execute();
}

export async function deleteSession(db: Kysely<Database>, idHash: string) {
  await db.deleteFrom('sessions').where('id', '=', idHash).execute();
}

/** Ends every session of a user, except `keepIdHash` when given (the one making the change). */
export async function deleteUserSessions(db: Kysely<Database>, userId: number, keepIdHash?: string) {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepIdHash) query = query.where('id', '!=', keepIdHash);
  await query.execute();
}

export async function purgeExpiredSessions(db: Kysely<Database>, now: string) {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}
