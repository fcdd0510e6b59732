import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Loading state: never a blank page while data is on its way. `inline` fits inside a layout. */
export function PageLoader({ inline = false }: { inline?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center mih={inline ? 240 : '100dvh'} role="status" aria-label={t('Loading…')}>
      <Loader aria-hidden="true" />
    </Center>
  );
}
