import type { AuthUser } from '@kontrol/contracts';
import type { CurrentUser } from './users.repository.js';

/** The `GET /api/users/auth` shape of SPEC §3 (Auth user). */
export function toAuthUser(user: CurrentUser): AuthUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    role: user.role,
    status: user.emailVerifiedAt ? 'verified' : 'not_verified',
    email_verified_at: user.emailVerifiedAt,
    locale: user.locale,
    organisation: { id: user.organisationId, name: user.organisationName },
    acl_role: user.aclRole,
    acl_modules: user.modules,
  };
}
