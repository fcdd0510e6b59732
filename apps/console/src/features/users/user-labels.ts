import type { AclRole, Locale, User, UserRole, UserStatus } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** What a user's status badge says: an ended account and a pending invitation come first. */
export type UserState = 'disabled' | 'invited' | UserStatus;

export function userState(user: Pick<User, 'disabled' | 'invitation_pending' | 'status'>): UserState {
  if (user.disabled) return 'disabled';
  if (user.invitation_pending) return 'invited';
  return user.status;
}

export const STATE_COLOURS: Record<UserState, string> = {
  disabled: 'gray',
  invited: 'blue',
  verified: 'green',
  not_verified: 'orange',
};

/** Each language named in itself, so a reader of either can find their own. */
export const LANGUAGE_NAMES: Record<Locale, string> = { ru: 'Русский', en: 'English' };

/** The words of the users screens in the interface language: roles (docs/contract.md, "Entities") and states. */
export function useUserLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      role: {
        regular: t('Regular user'),
        admin: t('Administrator'),
      } satisfies Record<UserRole, string>,
      state: {
        disabled: t('Disabled'),
        invited: t('Invitation pending'),
        verified: t('Verified'),
        not_verified: t('Not verified'),
      } satisfies Record<UserState, string>,
    }),
    [t],
  );
}

/**
 * A user's access role by the name the roles list gives it: the list names the built-in
 * administrator role in the interface language, a user's own copy of the name does not.
 */
export function aclRoleName(role: { id: number; name: string }, roles: readonly AclRole[]): string {
  return roles.find((candidate) => candidate.id === role.id)?.name ?? role.name;
}
