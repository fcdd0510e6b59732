import { Anchor, Box, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScreenTitle } from '../../components/screen-title';
import { paths } from '../../config/paths';

/** Any unknown path (docs/contract.md, "Screens and routes"), with a way back; inside the account frame the frame shows the title. */
export function NotFoundPage({ standalone = false }: { standalone?: boolean }) {
  const { t } = useTranslation();
  const content = (
    <Stack gap="md" maw={560}>
      {standalone && <ScreenTitle>{t('Page not found')}</ScreenTitle>}
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

/** The not-found page outside the account frame, with its own title. */
export function StandaloneNotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Page not found')} · Kontrol`);
  return <NotFoundPage standalone />;
}
