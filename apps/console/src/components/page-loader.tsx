import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Full-page loading state: never a blank page while the first data is on its way. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" role="status" aria-label={t('Loading…')}>
      <Loader aria-hidden="true" />
    </Center>
  );
}
