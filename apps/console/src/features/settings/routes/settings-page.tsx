import type { Integration } from '@kontrol/contracts';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { NoRecords } from '../../../components/no-records';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useIntegrations } from '../api/get-integrations';
import { IntegrationStatusBadge } from '../components/integration-status-badge';
import { TelegramNotConfigured } from '../components/telegram-not-configured';
import { chatName, useIntegrationLabels } from '../integration-labels';

/**
 * `/account/settings`: the organisation's integrations (who each one is for, its status, chat and
 * last delivery), what integrations are when there are none, the notice when the server has no
 * Telegram bot, and, for admins, the way to add one.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const labels = useIntegrationLabels();
  const { data, isPending, error } = useIntegrations();

  const columns = useMemo<DataTableColumn<Integration>[]>(() => {
    return [
      {
        id: 'name',
        header: t('Integration name'),
        width: 'minmax(11rem, 2fr)',
        sortValue: (row) => row.name,
        cell: (row) => (
          <Anchor component={Link} to={paths.account.settings.detail(row.id)} size="sm">
            {row.name}
          </Anchor>
        ),
      },
      { id: 'kind', header: t('Kind'), width: 'minmax(7rem, 1fr)', cell: (row) => labels.kind[row.kind] },
      {
        id: 'user',
        header: t('For whom'),
        width: 'minmax(10rem, 1.5fr)',
        sortValue: (row) => row.user.name,
        cell: (row) => row.user.name,
      },
      {
        id: 'status',
        header: t('Status'),
        width: 'minmax(11rem, 1.5fr)',
        sortValue: (row) => labels.status[row.status],
        cell: (row) => <IntegrationStatusBadge status={row.status} />,
      },
      {
        id: 'chat',
        header: t('Chat'),
        width: 'minmax(10rem, 1.5fr)',
        cell: (row) => chatName(row.chat) ?? '—',
      },
      {
        id: 'last_delivery_at',
        header: t('Last delivery'),
        width: 'minmax(9rem, 1fr)',
        sortValue: (row) => row.last_delivery_at,
        cell: (row) => (row.last_delivery_at ? formatDateTime(row.last_delivery_at) : '—'),
      },
    ];
  }, [t, labels]);

  if (isPending) return <PageLoader inline />;
  if (error || !data) {
    return (
      <Alert color="red" role="alert">
        {t('The integrations could not be loaded. Please try again later.')}
      </Alert>
    );
  }
  const { configured, bot_username: bot } = data.meta.telegram;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={2}>{t('Integrations')}</Title>
        {user.isAdmin &&
          (configured ? (
            <Button component={Link} to={paths.account.settings.add}>
              {t('Add integration')}
            </Button>
          ) : (
            // Nothing can be added until the server has a bot: the notice below says why.
            <Button disabled>{t('Add integration')}</Button>
          ))}
      </Group>
      {configured ? (
        bot && (
          <Text size="sm" c="dimmed">
            {t('Telegram notifications are sent by the bot @{{bot}}.', { bot })}
          </Text>
        )
      ) : (
        <TelegramNotConfigured />
      )}
      {data.data.length === 0 ? (
        <Stack gap={0}>
          <NoRecords />
          <Text size="sm" ta="center" maw={560} mx="auto">
            {t(
              'An integration carries a user’s notifications outside the console: a Telegram integration sends them to a Telegram chat. Whoever it is for chooses which notifications they get in their notification settings.',
            )}{' '}
            {user.isAdmin
              ? t('Add one, open the link it gives in Telegram and press Start.')
              : t('Ask an administrator to add one for you.')}
          </Text>
        </Stack>
      ) : (
        <DataTable
          data={data.data}
          columns={columns}
          getRowId={(row) => String(row.id)}
          label={t('Integrations')}
        />
      )}
    </Stack>
  );
}
