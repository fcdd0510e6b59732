import { Alert, Anchor, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useDeleteIntegration } from '../api/delete-integration';
import { useIntegration } from '../api/get-integration';
import { IntegrationStatusBadge } from '../components/integration-status-badge';
import { parseId } from '../../../lib/parse-id';
import { chatName, useIntegrationLabels } from '../integration-labels';

/** One fact of the integration: a term and its value (a description list's pair). */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {term}
      </Text>
      <Text component="dd" size="sm" m={0}>
        {children}
      </Text>
    </div>
  );
}

/**
 * `/account/settings/{id}`: an integration's status, kind, recipient, chat, when it was bound, its
 * last delivery and last error; admins can delete it (after confirming).
 */
export function IntegrationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const labels = useIntegrationLabels();
  const id = parseId(useParams().id);
  const { data: integration, isPending, error } = useIntegration(id ?? 0);
  const remove = useDeleteIntegration();

  const back = (
    <Anchor component={Link} to={paths.account.settings.list} size="sm">
      ← {t('All integrations')}
    </Anchor>
  );
  if (id === null || !integration) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Integration not found')}
        back={back}
      />
    );
  }
  const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

  return (
    <Stack gap="md">
      {back}
      <Group gap="sm" align="center">
        <Title order={2}>{integration.name}</Title>
        <IntegrationStatusBadge status={integration.status} />
      </Group>
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 3 }} spacing="md" verticalSpacing="sm" m={0}>
        <Fact term={t('Kind')}>{labels.kind[integration.kind]}</Fact>
        <Fact term={t('For whom')}>{integration.user.name}</Fact>
        <Fact term={t('Chat')}>{chatName(integration.chat) ?? '—'}</Fact>
        <Fact term={t('Created')}>{when(integration.created_at)}</Fact>
        {integration.status === 'pending' && (
          <Fact term={t('The link is valid until')}>{when(integration.link_expires_at)}</Fact>
        )}
        <Fact term={t('Bound at')}>{when(integration.bound_at)}</Fact>
        <Fact term={t('Last delivery')}>{when(integration.last_delivery_at)}</Fact>
      </SimpleGrid>
      {integration.last_error && (
        <Alert color="red" title={t('Last error')}>
          {integration.last_error}
        </Alert>
      )}
      {integration.status === 'pending' && (
        <Text size="sm" c="dimmed">
          {t(
            'The link was shown once, when the integration was added. If it is lost, delete this integration and add a new one.',
          )}
        </Text>
      )}
      {me.isAdmin && (
        <>
          <Divider />
          <div>
            <ConfirmDeleteButton
              label={t('Delete the integration')}
              title={t('Delete the integration «{{name}}»?', { name: integration.name })}
              message={t('Notifications will no longer be sent to this chat. This cannot be undone.')}
              onConfirm={async () => {
                await remove.mutateAsync(integration.id);
                await navigate(paths.account.settings.list, { replace: true });
              }}
            />
          </div>
        </>
      )}
    </Stack>
  );
}
