import { Box, Group, Paper, Text } from '@mantine/core';
import { Outlet } from 'react-router';
import { LanguageSwitch } from '../../components/language-switch';

/** The guest pages: one centred card with the product name and the language switch. */
export function AuthLayout() {
  return (
    <Box component="main" mih="100dvh" p="md" style={{ display: 'grid', placeItems: 'center' }}>
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={440}>
        <Group justify="space-between" mb="lg">
          <Text fw={700} size="lg">
            Kontrol
          </Text>
          <LanguageSwitch />
        </Group>
        <Outlet />
      </Paper>
    </Box>
  );
}
