import type { Locale } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { FieldValidationError } from '../../lib/http-errors.js';
import { hashPassword } from '../../lib/password.js';
import { nowIso } from '../../lib/time.js';
import { deleteUserAccessTokens } from '../auth/tokens.repository.js';
import { deleteUserSessions } from '../auth/sessions.repository.js';
import { findRole } from '../acl/acl.repository.js';
import { emailTaken, insertUser, updateUser } from './users.repository.js';

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

/** A user of an existing organisation; the access role must belong to the same organisation. */
export async function createUser(db: Kysely<Database>, input: NewUser): Promise<number> {
  if (await emailTaken(db, input.email)) throw new FieldValidationError({ email: ['email.taken'] });
  if (input.aclRoleId !== null && !(await findRole(db, input.organisationId, input.aclRoleId))) {
    throw new FieldValidationError({ acl_role_id: ['field.invalid'] });
  }
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

/** Sets a password (operator CLI); the user's sessions and tokens end. */
export async function setPassword(db: Kysely<Database>, userId: number, password: string) {
  await updateUser(db, userId, { password_hash: await hashPassword(password), updated_at: nowIso() });
  await deleteUserSessions(db, userId);
  await deleteUserAccessTokens(db, userId);
}
