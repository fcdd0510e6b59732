import type { QueryClient } from '@tanstack/react-query';
import { reloadReference } from '../../../lib/reference-data/use-reference-data';

/** The users list's server-side search and filters (the query string's values). */
export interface UsersListParams {
  page: number;
  search: string;
  role: string;
  status: string;
  aclRoleId: string;
}

/**
 * Query keys of users and access roles. The whole users list and the roles list are reference data
 * (`['reference', 'users']`, `['reference', 'aclRoles']`); a user's notification settings are keyed
 * by the shared form (`['users', id, 'settings']`).
 */
export const userKeys = {
  all: ['users'] as const,
  list: (params: UsersListParams) => ['users', 'list', params] as const,
  detail: (id: number) => ['users', id] as const,
};

export const roleKeys = {
  all: ['acl-roles'] as const,
  detail: (id: number) => ['acl-roles', id] as const,
};

/** After a user changes: the pages of the list, the user's own copy, and the reference list. */
export async function reloadUsers(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: [...userKeys.all, 'list'] }),
    reloadReference(client, ['users']),
  ]);
}

/**
 * After a role changes: the roles (reference list and copies), and the users, whose rows name their
 * role and its modules.
 */
export async function reloadRoles(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: roleKeys.all }),
    client.invalidateQueries({ queryKey: userKeys.all }),
    reloadReference(client, ['aclRoles', 'users']),
  ]);
}
