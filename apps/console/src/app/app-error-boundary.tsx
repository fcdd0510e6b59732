import { Button, Center, Stack, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Last line of defence: a screen that throws while rendering, or a script chunk that fails to load
 * (SPEC §8), shows a message and a way out instead of an empty page.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <CrashScreen /> : this.props.children;
  }
}

function CrashScreen() {
  const { t } = useTranslation();
  return (
    <Center component="main" mih="100dvh" p="md">
      <Stack align="center" role="alert">
        <Text size="lg">{t('Something went wrong. Reload the page to continue.')}</Text>
        <Button onClick={() => window.location.reload()}>{t('Reload the page')}</Button>
      </Stack>
    </Center>
  );
}
