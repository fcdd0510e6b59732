import type { ModuleSlug } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { insertRole } from '../modules/acl/acl.repository.js';
import { createOrganisationWithAdmin } from '../modules/organisations/organisations.service.js';
import { createUser } from '../modules/users/users.service.js';

export interface BuiltUser {
  id: number;
  email: string;
  password: string;
  organisationId: number;
}

const unique = () => randomBytes(4).toString('hex');

/** A new organisation whose admin holds every module (as registration makes it). */
export async function buildOrganisation(
  db: Kysely<Database>,
  options: { name?: string; locale?: 'ru' | 'en' } = {},
) {
  const email = `admin-${unique()}@example.test`;
  const password = `pass-${unique()}`;
  const created = await createOrganisationWithAdmin(db, {
    organisationName: options.name ?? `Org ${unique()}`,
    admin: { name: 'Admin', email, password, locale: options.locale ?? 'en', verified: true },
  });
  const admin: BuiltUser = { id: created.userId, email, password, organisationId: created.organisationId };
  return { organisationId: created.organisationId, adminRoleId: created.adminRoleId, admin };
}

/** A user of the organisation holding exactly `modules` (through a new access role). */
export async function buildUser(
  db: Kysely<Database>,
  organisationId: number,
  options: {
    modules?: ModuleSlug[];
    role?: 'regular' | 'admin';
    verified?: boolean;
    locale?: 'ru' | 'en';
  } = {},
): Promise<BuiltUser & { roleId: number | null }> {
  let roleId: number | null = null;
  if (options.modules) {
    const all = await db.selectFrom('acl_modules').select(['id', 'slug']).execute();
    roleId = await insertRole(db, {
      organisationId,
      name: `Role ${unique()}`,
      isAdminRole: false,
      moduleIds: all.filter((m) => options.modules?.includes(m.slug as ModuleSlug)).map((m) => m.id),
    });
  }
  const email = `user-${unique()}@example.test`;
  const password = `pass-${unique()}`;
  const id = await createUser(db, {
    organisationId,
    name: 'User',
    email,
    password,
    role: options.role ?? 'regular',
    aclRoleId: roleId,
    locale: options.locale ?? 'en',
    verified: options.verified ?? true,
  });
  return { id, email, password, organisationId, roleId };
}
