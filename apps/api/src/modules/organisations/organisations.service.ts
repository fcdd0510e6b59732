import { ADMIN_ROLE_NAMES, type Locale } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { FieldValidationError } from '@kontrol/server-kit';
import { hashPassword } from '../../lib/password.js';
import { nowIso } from '../../lib/time.js';
import { insertRole, listClientModules } from '../acl/acl.repository.js';
import { emailTaken, insertUser } from '../users/users.repository.js';
import { insertOrganisation } from './organisations.repository.js';

export interface NewOrganisation {
  organisationName: string;
  admin: { name: string; email: string; password: string; locale: Locale; verified: boolean };
}

/**
 * A new tenant: the organisation, its administrator access role holding every client-system
 * module, and its first user (role admin). Used by registration, the operator CLI and the demo.
 */
export async function createOrganisationWithAdmin(db: Kysely<Database>, input: NewOrganisation) {
  if (await emailTaken(db, input.admin.email)) throw new FieldValidationError({ email: ['email.taken'] });
  const passwordHash = await hashPassword(input.admin.password);
  const created = db.transaction().execute(async (trx) => {
    const organisationId = await insertOrganisation(trx, input.organisationName);
    const modules = await listClientModules(trx);
    const roleId = await insertRole(trx, {
      organisationId,
      name: ADMIN_ROLE_NAMES[input.admin.locale],
      isAdminRole: true,
      moduleIds: modules.map((m) => m.id),
    });
    const now = nowIso();
    const userId = await insertUser(trx, {
      organisation_id: organisationId,
      name: input.admin.name,
      email: input.admin.email,
      password_hash: passwordHash,
      role: 'admin',
      acl_role_id: roleId,
      email_verified_at: input.admin.verified ? now : null,
      locale: input.admin.locale,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    });
    return { organisationId, userId, adminRoleId: roleId };
  });
  // Two registrations with one e-mail at once: the unique index decides, the loser gets a 422.
  return created.catch((error: unknown) => {
    if (isUniqueViolation(error)) throw new FieldValidationError({ email: ['email.taken'] });
    throw error;
  });
}
