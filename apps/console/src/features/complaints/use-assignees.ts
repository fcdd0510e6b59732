import type { User } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useCurrentUser } from '../../lib/auth/use-current-user';
import { useReferenceList } from '../../lib/reference-data/use-reference-data';

/** Whom a complaint may be assigned to: one of the organisation's users. */
export interface Assignee {
  id: number;
  name: string;
}

/**
 * The users a complaint may be assigned to, as the server allows (docs/complaints.md): active users
 * whose access role holds `requests`, from the reference list `users`. Empty when the list could
 * not be loaded: the screens still show the current assignee by the name the complaint carries.
 */
export function useAssignees(): readonly Assignee[] {
  const users = useReferenceList<User>(useCurrentUser(), 'users');
  return useMemo(
    () =>
      users
        .filter(
          (user) =>
            !user.disabled && (user.acl_role?.modules.some((module) => module.slug === 'requests') ?? false),
        )
        .map((user) => ({ id: user.id, name: user.name })),
    [users],
  );
}
