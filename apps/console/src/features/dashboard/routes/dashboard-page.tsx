import { Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../../components/screen-title';
import { useCurrentUser } from '../../auth/use-current-user';

/**
 * `/account/dashboard`: the frame of the dashboard. Its counters, graph and lists come with the
 * dashboard issue; until then it says whose dashboard this is and nothing more.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Dashboard')} · Kontrol`);
  const user = useCurrentUser();
  return (
    <>
      <ScreenTitle mb="xs">{t('Dashboard')}</ScreenTitle>
      <Text c="dimmed">{user.organisation.name}</Text>
    </>
  );
}
