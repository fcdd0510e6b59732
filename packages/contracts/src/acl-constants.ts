// Kept free of zod so the console's first bundle can name the built-in role without evaluating
// the validator (acl.ts holds the schemas).

/**
 * The name the built-in administrator role is created with, in the creator's language. Until an
 * admin renames it, the console shows it in the interface language (either name counts as unchanged).
 */
export const ADMIN_ROLE_NAMES = { ru: 'Администратор', en: 'Administrator' } as const;

/** Whether a role is the built-in administrator role still under the name it was created with. */
export function isBuiltInAdminRole(role: { name: string; is_admin_role: boolean }): boolean {
  return role.is_admin_role && Object.values(ADMIN_ROLE_NAMES).some((name) => name === role.name);
}
