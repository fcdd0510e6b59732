import type { AuthUser } from '@kontrol/contracts';
import { Alert, Box, Button, Container, Group, List, Paper, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../../components/language-switch';
import { ScreenTitle } from '../../../components/screen-title';
import { toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { getLocale } from '../../../lib/i18n';
import { getModuleLabel } from '../../../lib/module-labels';

export type AccountScreenProps = {
  user: AuthUser;
  /** Ends the session; rejects when the server could not be reached. */
  onLogout: () => Promise<void>;
};

/** Who is signed in, for which organisation, and which access modules they hold. */
export function AccountScreen({ user, onLogout }: AccountScreenProps) {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Account')} · Kontrol`);
  const locale = getLocale();

  const [loggingOut, setLoggingOut] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);

  async function handleLogout() {
    setLoggingOut(true);
    setFailure(null);
    try {
      await onLogout();
    } catch (error) {
      setFailure(toApiFailure(error));
      setLoggingOut(false);
    }
  }

  const details = [
    { term: t('Name'), value: user.name },
    { term: t('E-mail'), value: user.email },
    { term: t('Organisation'), value: user.organisation.name },
  ];

  return (
    <>
      <Box
        component="header"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700} size="lg">
            Kontrol
          </Text>
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitch />
            <Button variant="default" size="xs" loading={loggingOut} onClick={() => void handleLogout()}>
              {t('Log out')}
            </Button>
          </Group>
        </Group>
      </Box>

      <Container component="main" size="sm" py="xl">
        <ScreenTitle size="h2" mb="lg">
          {t('Account')}
        </ScreenTitle>

        {failure && (
          <Alert color="red" mb="lg">
            {failure.kind === 'connection' ? t('Connection error. Please try again later') : failure.message}
          </Alert>
        )}

        <Paper withBorder radius="md" p="lg" mb="xl">
          <Box
            component="dl"
            m={0}
            style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.5rem 1.5rem' }}
          >
            {details.map(({ term, value }) => (
              <Box key={term} style={{ display: 'contents' }}>
                <Text component="dt" c="dimmed">
                  {term}
                </Text>
                <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {value}
                </Text>
              </Box>
            ))}
          </Box>
        </Paper>

        <Title order={2} size="h3" mb="sm">
          {t('Available modules')}
        </Title>
        {user.acl_modules.length > 0 ? (
          <List spacing="xs">
            {user.acl_modules.map((module) => (
              <List.Item key={module.id}>
                {getModuleLabel(module, locale)}{' '}
                <Text component="span" c="dimmed" size="sm">
                  ({module.slug})
                </Text>
              </List.Item>
            ))}
          </List>
        ) : (
          <Text>{t('No records found')}</Text>
        )}
      </Container>
    </>
  );
}
