import {
  INVITATION_TTL_HOURS,
  type AclModule,
  type Filters,
  type Locale,
  type MessageKey,
  type User,
  type userAddBodySchema,
  type UserSettings,
  type userUpdateBodySchema,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { randomSecret, sha256 } from '../../lib/crypto.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { FieldValidationError, forbidden, notFound } from '@kontrol/server-kit';
import { hashPassword } from '../../lib/password.js';
import { minutesFromNow, nowIso } from '../../lib/time.js';
import { applyFilters, type FilterWhitelist } from '../../lib/pagination.js';
import { toModule } from '../acl/acl.presenter.js';
import { findRole, modulesOfRoles } from '../acl/acl.repository.js';
import { sendVerification, type AuthDeps } from '../auth/auth.service.js';
import { deleteUserSessions } from '../auth/sessions.repository.js';
import {
  deleteUnusedUserTokens,
  deleteUserAccessTokens,
  replaceUserToken,
} from '../auth/tokens.repository.js';
import { invitationMail } from '../mail/mail.templates.js';
import { countInvitation, requireVerifiedInviter, type InvitationLimits } from './invitation-limits.js';
import { toUser, toUserSettings } from './users.presenter.js';
import {
  countOtherActiveAdmins,
  deleteOrganisationUser,
  emailTaken,
  findOrganisationUser,
  findUserSettings,
  insertUser,
  lockOrganisation,
  updateUser,
  upsertUserSettings,
  usersQuery,
  type CurrentUser,
  type UserListRow,
  type UserRow,
} from './users.repository.js';

/**
 * What the users rules need: the database, the mail outbox, the console's address for links and
 * the organisation's limits on invitations.
 */
export type UsersDeps = AuthDeps & { invitations: InvitationLimits };
export type UserAddInput = z.output<typeof userAddBodySchema>;
export type UserUpdateInput = z.output<typeof userUpdateBodySchema>;

export interface NewUser {
  organisationId: number;
  name: string;
  email: string;
  password: string | null;
  role: 'regular' | 'admin';
  aclRoleId: number | null;
  locale: Locale;
  verified: boolean;
}

/**
 * A user of an existing organisation (registration's admin aside: the CLI, the demo and
 * `POST /api/users/add`); the access role must be a client-system role of the same organisation.
 */
export async function createUser(db: Kysely<Database>, input: NewUser): Promise<number> {
  await checkNewUser(db, input);
  const now = nowIso();
  try {
    return await insertUser(db, {
      organisation_id: input.organisationId,
      name: input.name,
      email: input.email,
      password_hash: input.password === null ? null : await hashPassword(input.password),
      role: input.role,
      acl_role_id: input.aclRoleId,
      email_verified_at: input.verified ? now : null,
      locale: input.locale,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new FieldValidationError({ email: ['email.taken'] });
    throw error;
  }
}

/** 422 when the e-mail is taken (in any organisation) or the access role is not the organisation's. */
async function checkNewUser(
  db: Kysely<Database>,
  input: Pick<NewUser, 'email' | 'aclRoleId' | 'organisationId'>,
) {
  if (await emailTaken(db, input.email)) throw new FieldValidationError({ email: ['email.taken'] });
  if (input.aclRoleId !== null && !(await findRole(db, input.organisationId, input.aclRoleId))) {
    throw new FieldValidationError({ acl_role_id: ['field.exists'] });
  }
}

/** Sets a password (operator CLI); the user's sessions and tokens end. */
export async function setPassword(db: Kysely<Database>, userId: number, password: string) {
  await updateUser(db, userId, { password_hash: await hashPassword(password), updated_at: nowIso() });
  await deleteUserSessions(db, userId);
  await deleteUserAccessTokens(db, userId);
}

/** `filters[field]` of `GET /api/users` (docs/people.md). */
export const USER_FILTERS: FilterWhitelist = {
  id: { column: 'id', type: 'number', operators: ['=', 'in'] },
  name: { column: 'name', type: 'string', operators: ['=', 'like'] },
  email: { column: 'email', type: 'string', operators: ['=', 'like'] },
  role: { column: 'role', type: 'string', operators: ['=', 'in'] },
  status: { column: 'status', type: 'string', operators: ['=', 'in'] },
  acl_role_id: { column: 'acl_role_id', type: 'number', operators: ['=', 'in'] },
  disabled: { column: 'disabled', type: 'boolean', operators: ['='] },
};

/** The organisation's users by name, filtered through {@link USER_FILTERS}. */
export function usersListQuery(db: Kysely<Database>, organisationId: number, filters: Filters | undefined) {
  return applyFilters(usersQuery(db, organisationId), filters, USER_FILTERS).orderBy('name').orderBy('id');
}

/** Users with their access roles' modules, read in one query for all of them. */
export async function withRoles(db: Kysely<Database>, rows: readonly UserListRow[]): Promise<User[]> {
  const roleIds = [...new Set(rows.flatMap((row) => (row.acl_role_id === null ? [] : [row.acl_role_id])))];
  const modulesByRole = new Map<number, AclModule[]>();
  for (const m of await modulesOfRoles(db, roleIds)) {
    const list = modulesByRole.get(m.acl_role_id) ?? [];
    list.push(toModule(m));
    modulesByRole.set(m.acl_role_id, list);
  }
  return rows.map((row) => toUser(row, modulesByRole));
}

export async function getUser(db: Kysely<Database>, organisationId: number, userId: number): Promise<User> {
  const row = await usersQuery(db, organisationId).where('u.id', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  const [user] = await withRoles(db, [row]);
  if (!user) throw notFound();
  return user;
}

async function findTarget(db: Kysely<Database>, organisationId: number, userId: number) {
  const target = await findOrganisationUser(db, organisationId, userId);
  if (!target) throw notFound();
  return target;
}

/**
 * E-mails the user a link to choose a password: `/auth/reset-password?…&invitation=1`, valid
 * {@link INVITATION_TTL_HOURS}. A new invitation replaces the previous one (only the newest works).
 */
async function sendInvitationMail(deps: UsersDeps, user: UserRow, inviter: CurrentUser) {
  const token = randomSecret();
  await replaceUserToken(deps.db, {
    user_id: user.id,
    purpose: 'invitation',
    token_hash: sha256(token),
    expires_at: minutesFromNow(INVITATION_TTL_HOURS * 60),
    created_at: nowIso(),
  });
  const query = new URLSearchParams({ token, email: user.email, invitation: '1' });
  await deps.mail.enqueue(
    invitationMail(
      { email: user.email, name: user.name, locale: user.locale, organisationId: user.organisation_id },
      { organisationName: inviter.organisationName, inviterName: inviter.name },
      `${deps.appUrl}/auth/reset-password?${query.toString()}`,
      INVITATION_TTL_HOURS,
    ),
  );
}

/**
 * `POST /api/users/add`: the user has no password and an unproven e-mail until they follow the
 * invitation (which sets both). Only an inviter with a proven e-mail may invite (403), and the
 * invitation counts towards the organisation's limits (429) once the body is known to be good.
 */
export async function addUser(deps: UsersDeps, inviter: CurrentUser, input: UserAddInput): Promise<User> {
  requireVerifiedInviter(inviter);
  const newUser: NewUser = {
    organisationId: inviter.organisationId,
    name: input.name,
    email: input.email,
    password: null,
    role: input.role,
    aclRoleId: input.acl_role_id,
    locale: input.locale,
    verified: false,
  };
  await checkNewUser(deps.db, newUser);
  await countInvitation(deps.rateLimiter, inviter.organisationId, deps.invitations);
  const userId = await createUser(deps.db, newUser);
  await sendInvitationMail(deps, await findTarget(deps.db, inviter.organisationId, userId), inviter);
  return getUser(deps.db, inviter.organisationId, userId);
}

/** `POST /api/users/{id}/invitation`: a fresh invitation to a user who has not set a password. */
export async function resendInvitation(deps: UsersDeps, inviter: CurrentUser, userId: number): Promise<User> {
  requireVerifiedInviter(inviter);
  const target = await findTarget(deps.db, inviter.organisationId, userId);
  if (target.password_hash !== null) throw new FieldValidationError({ id: ['users.invitation_accepted'] });
  if (target.disabled_at !== null) throw new FieldValidationError({ id: ['users.invitation_disabled'] });
  await countInvitation(deps.rateLimiter, inviter.organisationId, deps.invitations);
  await sendInvitationMail(deps, target, inviter);
  return getUser(deps.db, inviter.organisationId, userId);
}

/** Ends everything that lets the user in: sessions, API tokens and unused e-mailed links. */
async function endAccess(db: Kysely<Database>, userId: number) {
  await deleteUserSessions(db, userId);
  await deleteUserAccessTokens(db, userId);
  await deleteUnusedUserTokens(db, userId);
}

/**
 * Refuses (422 on `field`) a change that leaves the organisation without an active admin. Holds
 * the organisation's lock until the caller's transaction ends, so two admins demoting each other
 * at once cannot both succeed.
 */
async function keepAnAdmin(db: Kysely<Database>, target: UserRow, field: string) {
  await lockOrganisation(db, target.organisation_id);
  if ((await countOtherActiveAdmins(db, target.organisation_id, target.id)) === 0) {
    throw new FieldValidationError({ [field]: ['users.last_admin'] });
  }
}

/**
 * `PUT /api/users/{id}` by an admin. Nobody changes their own role or access role or disables
 * themself; the last active admin stays one; disabling ends the user's sessions and tokens; a new
 * e-mail must be proven again (a verification e-mail, or a new invitation when no password is set).
 */
export async function updateOrganisationUser(
  deps: UsersDeps,
  caller: CurrentUser,
  userId: number,
  input: UserUpdateInput,
): Promise<User> {
  const organisationId = caller.organisationId;
  await countMailToNewAddress(deps, caller, await findTarget(deps.db, organisationId, userId), input);
  const { target, emailChanged } = await deps.db.transaction().execute(async (trx) => {
    const target = await findTarget(trx, organisationId, userId);
    const self = target.id === caller.id;
    const errors: Record<string, MessageKey[]> = {};
    const roleChanged = input.role !== undefined && input.role !== target.role;
    const aclRoleChanged = input.acl_role_id !== undefined && input.acl_role_id !== target.acl_role_id;
    const disabling = input.disabled === true && target.disabled_at === null;
    const email = input.email?.toLowerCase();
    const emailChanged = email !== undefined && email !== target.email;

    if (self && roleChanged) errors.role = ['users.self_role'];
    if (self && aclRoleChanged) errors.acl_role_id = ['users.self_acl_role'];
    if (self && disabling) errors.disabled = ['users.self_disable'];
    if (!errors.acl_role_id && aclRoleChanged && input.acl_role_id != null) {
      if (!(await findRole(trx, organisationId, input.acl_role_id))) errors.acl_role_id = ['field.exists'];
    }
    if (emailChanged && (await emailTaken(trx, email, target.id))) errors.email = ['email.taken'];
    if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);

    const activeAdmin = target.role === 'admin' && target.disabled_at === null;
    if (activeAdmin && roleChanged) await keepAnAdmin(trx, target, 'role');
    else if (activeAdmin && disabling) await keepAnAdmin(trx, target, 'disabled');

    const now = nowIso();
    try {
      await updateUser(trx, target.id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(emailChanged ? { email, email_verified_at: null } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.acl_role_id !== undefined ? { acl_role_id: input.acl_role_id } : {}),
        ...(input.locale !== undefined ? { locale: input.locale } : {}),
        ...(input.disabled === true ? { disabled_at: target.disabled_at ?? now } : {}),
        ...(input.disabled === false ? { disabled_at: null } : {}),
        updated_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new FieldValidationError({ email: ['email.taken'] });
      throw error;
    }
    if (disabling) await endAccess(trx, target.id);
    return { target, emailChanged };
  });

  if (emailChanged) {
    const updated = await findTarget(deps.db, organisationId, target.id);
    if (updated.disabled_at === null && updated.password_hash === null) {
      await sendInvitationMail(deps, updated, caller);
    } else if (updated.disabled_at === null) {
      await sendVerification(deps, updated.id);
    }
  }
  return getUser(deps.db, organisationId, userId);
}

/**
 * A new e-mail of an active user is proven by an e-mail to it (an invitation, or a confirmation):
 * like an invitation, it needs the caller's own e-mail proven and counts towards the limits.
 */
async function countMailToNewAddress(
  deps: UsersDeps,
  caller: CurrentUser,
  target: UserRow,
  input: UserUpdateInput,
) {
  const email = input.email?.toLowerCase();
  if (email === undefined || email === target.email) return;
  const activeAfter = input.disabled === undefined ? target.disabled_at === null : !input.disabled;
  if (!activeAfter) return;
  requireVerifiedInviter(caller);
  if (await emailTaken(deps.db, email, target.id)) throw new FieldValidationError({ email: ['email.taken'] });
  await countInvitation(deps.rateLimiter, caller.organisationId, deps.invitations);
}

/** `DELETE /api/users/{id}` by an admin: not themself, not the last active admin. */
export async function deleteUser(db: Kysely<Database>, caller: CurrentUser, userId: number) {
  await db.transaction().execute(async (trx) => {
    const target = await findTarget(trx, caller.organisationId, userId);
    if (target.id === caller.id) throw new FieldValidationError({ id: ['users.self_delete'] });
    if (target.role === 'admin' && target.disabled_at === null) await keepAnAdmin(trx, target, 'id');
    await endAccess(trx, target.id);
    if (!(await deleteOrganisationUser(trx, caller.organisationId, target.id))) throw notFound();
  });
}

/**
 * Settings are a user's own; an admin holding the `users` module may manage those of any user of
 * the organisation. Anyone else: 403.
 */
function checkSettingsAccess(caller: CurrentUser, userId: number) {
  if (caller.id === userId) return;
  if (!caller.isAdmin || !caller.moduleSlugs.has('users')) throw forbidden();
}

export async function getUserSettings(
  db: Kysely<Database>,
  caller: CurrentUser,
  userId: number,
): Promise<UserSettings> {
  checkSettingsAccess(caller, userId);
  const target = await findTarget(db, caller.organisationId, userId);
  return toUserSettings(await findUserSettings(db, target.id), target.locale);
}

/** `POST /api/users/{id}/settings`: the whole object; `locale` is the user's language. */
export async function saveUserSettings(
  db: Kysely<Database>,
  caller: CurrentUser,
  userId: number,
  settings: UserSettings,
): Promise<UserSettings> {
  checkSettingsAccess(caller, userId);
  await db.transaction().execute(async (trx) => {
    const target = await findTarget(trx, caller.organisationId, userId);
    const now = nowIso();
    await upsertUserSettings(trx, {
      user_id: target.id,
      organisation_id: target.organisation_id,
      web: settings.channels.web ? 1 : 0,
      email: settings.channels.email ? 1 : 0,
      telegram: settings.channels.telegram ? 1 : 0,
      kinds: JSON.stringify([...new Set(settings.kinds)]),
      severities: JSON.stringify([...new Set(settings.severities)]),
      quiet_start: settings.quiet_hours?.start ?? null,
      quiet_end: settings.quiet_hours?.end ?? null,
      quiet_hours_critical: settings.quiet_hours_critical ? 1 : 0,
      time_zone: settings.time_zone,
      updated_at: now,
    });
    if (settings.locale !== target.locale)
      await updateUser(trx, target.id, { locale: settings.locale, updated_at: now });
  });
  return getUserSettings(db, caller, userId);
}
