import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The gateway credential of a device, shown once: right after creating a smart device, making a
 * device smart or issuing a new key. The secret lives only in the caller's state; once this
 * dialog closes nobody can see it again (the server keeps a hash). It closes only by its button,
 * so a stray click or Escape does not lose the key.
 */
export function CredentialModal({
  credential,
  controllerId,
  onClose,
}: {
  /** The secret; `null` keeps the dialog closed. */
  credential: string | null;
  controllerId: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={credential !== null}
      onClose={onClose}
      title={t('Device connection key')}
      centered
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      size="lg"
    >
      <Stack gap="md">
        <Alert color="yellow" title={t('The key is shown only once')}>
          {t(
            'Copy it now and keep it safe: it cannot be shown again. If it is lost, issue a new key on the Connection tab of the device; the old key then stops working.',
          )}
        </Alert>
        {controllerId && (
          <Text size="sm">
            {t('Controller ID')}: <code>{controllerId}</code>
          </Text>
        )}
        <Group align="end" gap="xs" wrap="nowrap">
          <TextInput
            label={t('Connection key')}
            value={credential ?? ''}
            readOnly
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1 }}
            data-autofocus
          />
          <CopyButton value={credential ?? ''}>
            {({ copied, copy }) => (
              <Button
                variant={copied ? 'light' : 'filled'}
                color={copied ? 'green' : undefined}
                onClick={copy}
              >
                {copied ? t('Copied') : t('Copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('I have saved the key')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
