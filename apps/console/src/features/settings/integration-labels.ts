import type { IntegrationKind, IntegrationStatus } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Status colours: the badge's word carries the meaning, the colour only helps. */
export const STATUS_COLOURS: Record<IntegrationStatus, string> = {
  pending: 'yellow',
  active: 'green',
  expired: 'gray',
  blocked: 'red',
};

/** The words of an integration's status and kind, in the interface language. */
export function useIntegrationLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      status: {
        pending: t('Waiting for the chat'),
        active: t('Active'),
        expired: t('Link expired'),
        blocked: t('Blocked'),
      } satisfies Record<IntegrationStatus, string>,
      kind: { telegram: t('Telegram') } satisfies Record<IntegrationKind, string>,
    }),
    [t],
  );
}

/** The bound chat as people know it: its title and, when it has one, its @username. */
export function chatName(chat: { title: string; username: string | null } | null): string | null {
  if (!chat) return null;
  return chat.username ? `${chat.title} (@${chat.username})` : chat.title;
}
