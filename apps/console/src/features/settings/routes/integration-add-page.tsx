import type { User } from '@kontrol/contracts';
import { Alert, Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useLoadingFlag, useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useCreateIntegration } from '../api/create-integration';
import { useIntegrations } from '../api/get-integrations';
import { IntegrationForm } from '../components/integration-form';
import { TelegramNotConfigured } from '../components/telegram-not-configured';

/**
 * `/account/settings/add` (admins): a new integration; then the page that shows its Telegram link
 * and waits for the chat opens. The organisation's users (reference data `users`, read by holders
 * of the modules that may list them) are offered; for anyone else the integration is the caller's.
 */
export function IntegrationAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const users = useReferenceList<User>(me, 'users');
  const usersLoading = useLoadingFlag('users');
  const { data: integrations } = useIntegrations();
  const create = useCreateIntegration();

  const back = (
    <Anchor component={Link} to={paths.account.settings.list} size="sm">
      ← {t('All integrations')}
    </Anchor>
  );
  if (!me.isAdmin) {
    return (
      <Stack gap="md">
        {back}
        <Alert color="gray" title={t('Only administrators can add integrations.')}>
          {t('Ask an administrator to add one for you.')}
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {back}
      {integrations?.meta.telegram.configured === false && <TelegramNotConfigured />}
      <IntegrationForm
        me={me}
        users={users}
        usersLoading={usersLoading}
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(created) =>
          void navigate(paths.account.settings.telegram(created.link.token), { replace: true })
        }
      />
    </Stack>
  );
}
