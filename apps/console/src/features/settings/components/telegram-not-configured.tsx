import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Said where integrations are listed or added while the server has no Telegram bot. */
export function TelegramNotConfigured() {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t('Telegram is not set up on this server')} role="status">
      <Text size="sm">
        {t(
          'The administrator of the server must set the environment variable {{name}} to the bot’s token and restart the server.',
          { name: 'TELEGRAM_BOT_TOKEN' },
        )}{' '}
        {t('Until then no Telegram integration can be added.')}
      </Text>
    </Alert>
  );
}
