import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { statusOf } from '../../../lib/api-errors';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useTelegramBinding, type TelegramBinding } from '../api/get-telegram-binding';
import { TimeLeft } from '../components/time-left';
import { chatName } from '../integration-labels';

/**
 * `/account/settings/integrations/telegram/{token}`: the link a new Telegram integration gave
 * (open it in Telegram, or copy it to another device) and the time it stays valid. The page asks
 * the server every 2 s until the chat is bound (its name shows, with a link to the integration) or
 * the link expires (a new one can be made); leaving the page stops asking.
 */
export function TelegramBindingPage() {
  const { t } = useTranslation();
  const token = useParams().token ?? '';
  const { data: binding, error, isPending } = useTelegramBinding(token);

  const back = (
    <Anchor component={Link} to={paths.account.settings.list} size="sm">
      ← {t('All integrations')}
    </Anchor>
  );
  if (!binding) {
    if (isPending) return <PageLoader inline />;
    const status = statusOf(error);
    return (
      <Stack gap="md">
        {back}
        {status === 404 ? (
          <Alert color="gray" title={t('Link not found')}>
            {t('It may belong to a deleted integration, or the address may be mistyped.')}
          </Alert>
        ) : (
          <Alert color="red" role="alert">
            {t('The link could not be loaded. Please try again later.')}
          </Alert>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md" maw={640}>
      {back}
      {binding.status === 'pending' ? <Waiting binding={binding} /> : <Finished binding={binding} />}
    </Stack>
  );
}

/** The link, how to use it, the time left, and that the page is waiting. */
function Waiting({ binding }: { binding: TelegramBinding }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <Title order={2}>{t('Connect a Telegram chat')}</Title>
        <List type="ordered" size="sm" spacing={4}>
          <List.Item>
            {t('Open the link in Telegram on the phone or computer that should get the notifications.')}
          </List.Item>
          <List.Item>{t('Press Start in the chat with the bot (or add the bot to a group).')}</List.Item>
          <List.Item>{t('This page notices the chat by itself.')}</List.Item>
        </List>
        <Group gap="sm">
          <Button component="a" href={binding.url} target="_blank" rel="noopener noreferrer">
            {t('Open Telegram')}
          </Button>
        </Group>
        <Group gap="sm" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('Link')}
            value={binding.url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1, minWidth: 0 }}
          />
          <CopyButton value={binding.url}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy} color={copied ? 'teal' : undefined}>
                {copied ? t('Copied') : t('Copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        {binding.expires_at && <TimeLeft until={binding.expires_at} />}
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm" c="dimmed">
            {t('Waiting for the chat…')}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}

/** What became of the link: bound, expired, or blocked by the chat. */
function Finished({ binding }: { binding: TelegramBinding }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const integration = (
    <Anchor component={Link} to={paths.account.settings.detail(binding.integration_id)}>
      {t('Open the integration')}
    </Anchor>
  );
  if (binding.status === 'active') {
    return (
      <Alert color="green" title={t('Telegram is connected')} role="status">
        <Stack gap="xs">
          <Text size="sm">
            {t('Notifications will be sent to the chat «{{chat}}».', { chat: chatName(binding.chat) ?? '—' })}
          </Text>
          {integration}
        </Stack>
      </Alert>
    );
  }
  if (binding.status === 'expired') {
    return (
      <Alert color="gray" title={t('The link has expired')} role="status">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('It was not used in time. A new integration gives a new link.')}</Text>
          {me.isAdmin && (
            <Button component={Link} to={paths.account.settings.add} size="sm">
              {t('Create a new link')}
            </Button>
          )}
          {integration}
        </Stack>
      </Alert>
    );
  }
  return (
    <Alert color="red" title={t('The chat blocked the bot')} role="status">
      <Stack gap="xs">
        <Text size="sm">{t('Nothing more is sent to it.')}</Text>
        {integration}
      </Stack>
    </Alert>
  );
}
