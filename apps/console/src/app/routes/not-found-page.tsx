import { Anchor, Box, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScreenTitle } from '../../components/screen-title';
import { paths } from '../../config/paths';

/** Any unknown path (SPEC §2), inside the account frame or on its own, with a way back. */
export function NotFoundPage({ standalone = false }: { standalone?: boolean }) {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Page not found')} · Kontrol`);
  const content = (
    <Stack gap="md" maw={560}>
      <ScreenTitle>{t('Page not found')}</ScreenTitle>
      <Text>{t('There is no page at this address. It may have moved, or the link may be mistyped.')}</Text>
      <Anchor component={Link} to={paths.root}>
        {t('Go to the home page')}
      </Anchor>
    </Stack>
  );
  return standalone ? (
    <Box component="main" p="xl">
      {content}
    </Box>
  ) : (
    content
  );
}

export function StandaloneNotFoundPage() {
  return <NotFoundPage standalone />;
}
