import {
  DEFAULT_USER_SETTINGS,
  type AclModule,
  type AuthUser,
  type Locale,
  type NotificationKind,
  type NotificationSeverity,
  type User,
  type UserSettings,
} from '@kontrol/contracts';
import type { CurrentUser, UserListRow, UserSettingsRow } from './users.repository.js';

/** The `GET /api/users/auth` shape of docs/contract.md, "Entities" (Auth user). */
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

/** A user as the users screens see them; `modulesByRole` holds the client modules of their roles. */
export function toUser(row: UserListRow, modulesByRole: ReadonlyMap<number, AclModule[]>): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    acl_role_id: row.acl_role_id,
    acl_role:
      row.acl_role_id !== null && row.acl_role_name !== null
        ? { id: row.acl_role_id, name: row.acl_role_name, modules: modulesByRole.get(row.acl_role_id) ?? [] }
        : null,
    locale: row.locale,
    disabled: Number(row.disabled) === 1,
    invitation_pending: Number(row.invitation_pending) === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * A user's notification settings: the stored row, or {@link DEFAULT_USER_SETTINGS} for a user who
 * never saved any; `locale` is the user's own (users.locale). The notification channels read
 * settings through this too.
 */
export function toUserSettings(row: UserSettingsRow | undefined, locale: Locale): UserSettings {
  if (!row) return { ...structuredClone(DEFAULT_USER_SETTINGS), locale };
  return {
    channels: { web: row.web === 1, email: row.email === 1, telegram: row.telegram === 1 },
    kinds: JSON.parse(row.kinds) as NotificationKind[],
    severities: JSON.parse(row.severities) as NotificationSeverity[],
    quiet_hours:
      row.quiet_start !== null && row.quiet_end !== null
        ? { start: row.quiet_start, end: row.quiet_end }
        : null,
    quiet_hours_critical: row.quiet_hours_critical === 1,
    locale,
    time_zone: row.time_zone,
  };
}
