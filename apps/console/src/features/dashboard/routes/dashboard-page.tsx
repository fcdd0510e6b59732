import type { AuthUser } from '@kontrol/contracts';
import { Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../../components/screen-title';
import { authUserKey } from '../../auth/session';

/**
 * `/account/dashboard`: the frame of the dashboard. Its counters, graph and lists come with the
 * dashboard issue; until then it says whose dashboard this is and nothing more.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Dashboard')} · Kontrol`);
  const user = useQueryClient().getQueryData<AuthUser>(authUserKey);
  return (
    <>
      <ScreenTitle mb="xs">{t('Dashboard')}</ScreenTitle>
      {user && <Text c="dimmed">{user.organisation.name}</Text>}
    </>
  );
}
