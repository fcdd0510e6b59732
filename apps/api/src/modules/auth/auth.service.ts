import {
  type Locale,
  type RegisterBody,
  type ResetPasswordBody,
  type UpdatePasswordBody,
  type UpdateProfileBody,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { isCommonPassword } from '../../lib/common-passwords.js';
import { randomSecret, sha256 } from '../../lib/crypto.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { FieldValidationError, tooManyRequests } from '@kontrol/server-kit';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import { minutesFromNow, nowIso } from '../../lib/time.js';
import type { Hit, RateLimiter } from '../../plugins/rate-limit.js';
import type { MailService } from '../mail/mail.service.js';
import { passwordResetMail, verificationMail } from '../mail/mail.templates.js';
import { createOrganisationWithAdmin } from '../organisations/organisations.service.js';
import { countInvitation, type InvitationLimits } from '../users/invitation-limits.js';
import {
  emailTaken,
  findUserByEmail,
  findUserById,
  loadCurrentUser,
  updateUser,
  type CurrentUser,
} from '../users/users.repository.js';
import { toAuthUser } from '../users/users.presenter.js';
import { deleteUserSessions } from './sessions.repository.js';
import {
  deleteAccessToken,
  deleteUnusedUserTokens,
  deleteUserAccessTokens,
  insertAccessToken,
  replaceUserToken,
  useUserToken,
} from './tokens.repository.js';

export interface AuthDeps {
  db: Kysely<Database>;
  mail: MailService;
  rateLimiter: RateLimiter;
  appUrl: string;
}

/** Login throttling (docs/security.md "Throttling"): attempts per account (a right password clears them) and per IP. */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60_000,
  maxAttemptsPerAccount: 5,
  maxAttemptsPerIp: 100,
};
export const PASSWORD_RESET_MINUTES = 60;
/** Reset e-mails one address may receive per window; further requests are silently dropped. */
export const RESET_LINKS_PER_ADDRESS = { max: 3, windowMs: 15 * 60_000 };
export const EMAIL_VERIFICATION_HOURS = 48;
export const LOGIN_LINK_MINUTES = 15;

/**
 * Checks e-mail and password and returns the user id. Throttled per IP and per account, across all
 * API instances. Each attempt is counted by one atomic upsert before the password is looked at, so
 * parallel attempts cannot all pass a check made before any of them was counted; a right password
 * clears the account's count.
 */
/** The signed-in user as login and the profile's changes answer it, read again from the database. */
export async function authUser(db: Kysely<Database>, userId: number) {
  const user = await loadCurrentUser(db, userId);
  if (!user) throw new Error(`user ${userId} vanished`);
  return toAuthUser(user);
}

/** A bearer token's logout: the token stops working at once. */
export async function revokeAccessToken(db: Kysely<Database>, tokenId: number) {
  await deleteAccessToken(db, tokenId);
}

export async function authenticate(
  deps: AuthDeps,
  email: string,
  password: string,
  ip: string,
): Promise<number> {
  const byIp = await deps.rateLimiter.hit(`login:ip:${ip}`, LOGIN_THROTTLE.windowMs);
  if (byIp.hits > LOGIN_THROTTLE.maxAttemptsPerIp) throw loginThrottled(byIp);
  const accountKey = `login:account:${email.toLowerCase()}`;
  const account = await deps.rateLimiter.hit(accountKey, LOGIN_THROTTLE.windowMs);
  if (account.hits > LOGIN_THROTTLE.maxAttemptsPerAccount) throw loginThrottled(account);

  const user = await findUserByEmail(deps.db, email);
  const valid = await verifyPassword(user?.password_hash ?? null, password);
  if (!user || !valid) throw new FieldValidationError({ email: ['auth.failed'] });
  await deps.rateLimiter.clear(accountKey);
  if (user.disabled_at) throw new FieldValidationError({ email: ['auth.disabled'] });
  return user.id;
}

function loginThrottled(hit: Hit) {
  return tooManyRequests(Math.max(1, Math.ceil(hit.ttlMs / 1000)), 'auth.throttle');
}

/**
 * A new password must not be on the common-passwords list (lib/common-passwords.ts): 422
 * `passwords.common` on `password`. Every way of setting one checks it before changing anything;
 * login never does.
 */
export function refuseCommonPassword(password: string) {
  if (isCommonPassword(password)) throw new FieldValidationError({ password: ['passwords.common'] });
}

/** `POST /api/register`: a new organisation with its first user, who must confirm the e-mail. */
export async function register(deps: AuthDeps, body: RegisterBody, requestLocale: Locale) {
  refuseCommonPassword(body.password);
  const locale = body.locale ?? requestLocale;
  const created = await createOrganisationWithAdmin(deps.db, {
    organisationName: body.organisation_name ?? body.name,
    admin: { name: body.name, email: body.email, password: body.password, locale, verified: false },
  });
  await sendVerification(deps, created.userId);
  return created;
}

export async function sendVerification(deps: AuthDeps, userId: number) {
  const user = await findUserById(deps.db, userId);
  if (!user || user.email_verified_at) return;
  const token = randomSecret();
  await replaceUserToken(deps.db, {
    user_id: user.id,
    purpose: 'email_verification',
    token_hash: sha256(token),
    expires_at: minutesFromNow(EMAIL_VERIFICATION_HOURS * 60),
    created_at: nowIso(),
  });
  const link = `${deps.appUrl}/api/email/verify/${token}`;
  await deps.mail.enqueue(
    verificationMail(
      { email: user.email, name: user.name, locale: user.locale, organisationId: user.organisation_id },
      link,
      EMAIL_VERIFICATION_HOURS,
    ),
  );
}

/** Marks the e-mail verified; false when the link is unknown, used or expired. */
export async function verifyEmail(deps: AuthDeps, token: string): Promise<boolean> {
  const now = nowIso();
  const userId = await useUserToken(deps.db, 'email_verification', sha256(token), now);
  if (userId === undefined) return false;
  await updateUser(deps.db, userId, { email_verified_at: now, updated_at: now });
  return true;
}

/**
 * `POST /api/send-reset-link`: e-mails a single-use link when the address is registered. The caller
 * answers the same either way, so the endpoint does not reveal who has an account.
 */
export async function sendResetLink(deps: AuthDeps, email: string) {
  // At most a few links per address per window, whoever asks from wherever: nobody can flood an
  // inbox by rotating IPs. Counted for unknown addresses too, and the answer stays the same.
  const perAddress = await deps.rateLimiter.hit(
    `reset:email:${email.toLowerCase()}`,
    RESET_LINKS_PER_ADDRESS.windowMs,
  );
  if (perAddress.hits > RESET_LINKS_PER_ADDRESS.max) return;
  const user = await findUserByEmail(deps.db, email);
  if (!user || user.disabled_at) return;
  const token = randomSecret();
  await replaceUserToken(deps.db, {
    user_id: user.id,
    purpose: 'password_reset',
    token_hash: sha256(token),
    expires_at: minutesFromNow(PASSWORD_RESET_MINUTES),
    created_at: nowIso(),
  });
  const query = new URLSearchParams({ token, email: user.email });
  const link = `${deps.appUrl}/auth/reset-password?${query.toString()}`;
  await deps.mail.enqueue(
    passwordResetMail(
      { email: user.email, name: user.name, locale: user.locale, organisationId: user.organisation_id },
      link,
      PASSWORD_RESET_MINUTES,
    ),
  );
}

/**
 * `POST /api/reset-password`: a new password with a password-reset link or an invitation (the
 * same form, docs/people.md); every session and token of the user ends. A link of a user disabled
 * since it was sent no longer works, as no new one would be sent.
 */
export async function resetPassword(deps: AuthDeps, body: ResetPasswordBody) {
  // Before the link is used up: the person picks another password with the same link.
  refuseCommonPassword(body.password);
  const found = await findUserByEmail(deps.db, body.email);
  const user = found && !found.disabled_at ? found : undefined;
  const now = nowIso();
  const tokenHash = sha256(body.token);
  // Used up only together with the address it was sent to: a wrong e-mail leaves the link working.
  const tokenUserId = user
    ? ((await useUserToken(deps.db, 'password_reset', tokenHash, now, user.id)) ??
      (await useUserToken(deps.db, 'invitation', tokenHash, now, user.id)))
    : undefined;
  if (!user || tokenUserId !== user.id) throw new FieldValidationError({ email: ['passwords.token'] });
  await updateUser(deps.db, user.id, {
    password_hash: await hashPassword(body.password),
    // Following an e-mailed link proves the address.
    email_verified_at: user.email_verified_at ?? now,
    updated_at: now,
  });
  // The other link (an invitation or a reset, whichever was not used) has no more purpose.
  await deleteUnusedUserTokens(deps.db, user.id, ['password_reset', 'invitation']);
  await deleteUserSessions(deps.db, user.id);
  await deleteUserAccessTokens(deps.db, user.id);
  await deps.rateLimiter.clear(`login:account:${user.email}`);
}

/** `PUT /api/user/password`: needs the current password; the user's other sessions end. */
export async function updatePassword(
  deps: AuthDeps,
  user: CurrentUser,
  body: UpdatePasswordBody,
  keepSessionId: string | undefined,
) {
  const row = await findUserById(deps.db, user.id);
  if (!row || !(await verifyPassword(row.password_hash, body.current_password))) {
    throw new FieldValidationError({ current_password: ['passwords.current'] });
  }
  refuseCommonPassword(body.password);
  await updateUser(deps.db, user.id, {
    password_hash: await hashPassword(body.password),
    updated_at: nowIso(),
  });
  await deleteUserSessions(deps.db, user.id, keepSessionId);
}

/**
 * `PUT /api/user/profile-information`: a changed e-mail must be confirmed again; the confirmation
 * goes to an address nobody has proven yet, so it counts towards the organisation's invitation
 * limits (429 before anything changes).
 */
export async function updateProfile(
  deps: AuthDeps,
  user: CurrentUser,
  body: UpdateProfileBody,
  limits: InvitationLimits,
) {
  const email = body.email.toLowerCase();
  const emailChanged = email !== user.email;
  if (emailChanged && (await emailTaken(deps.db, email, user.id))) {
    throw new FieldValidationError({ email: ['email.taken'] });
  }
  if (emailChanged) await countInvitation(deps.rateLimiter, user.organisationId, limits);
  try {
    await updateUser(deps.db, user.id, {
      name: body.name,
      email,
      ...(body.locale ? { locale: body.locale } : {}),
      ...(emailChanged ? { email_verified_at: null } : {}),
      updated_at: nowIso(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new FieldValidationError({ email: ['email.taken'] });
    throw error;
  }
  if (emailChanged) await sendVerification(deps, user.id);
}

/**
 * A one-time link that signs a support operator in as the user (`npm run kontrol --
 * user:login-link`). The console sends its `auth_token` as a bearer token; the API consumes it
 * and answers with a session.
 */
export async function createLoginLink(deps: AuthDeps, userId: number) {
  const secret = randomSecret();
  const id = await insertAccessToken(deps.db, {
    user_id: userId,
    name: 'login link',
    token_hash: sha256(secret),
    single_use: 1,
    expires_at: minutesFromNow(LOGIN_LINK_MINUTES),
    last_used_at: null,
    created_at: nowIso(),
  });
  const token = `${id}|${secret}`;
  return { token, url: `${deps.appUrl}/auth/login?auth_token=${encodeURIComponent(token)}` };
}

/** A long-lived personal access token for API clients (`Authorization: Bearer <token>`). */
export async function createPersonalAccessToken(deps: AuthDeps, userId: number, name: string, days?: number) {
  const secret = randomSecret();
  const id = await insertAccessToken(deps.db, {
    user_id: userId,
    name,
    token_hash: sha256(secret),
    single_use: 0,
    expires_at: days ? minutesFromNow(days * 24 * 60) : null,
    last_used_at: null,
    created_at: nowIso(),
  });
  return `${id}|${secret}`;
}
