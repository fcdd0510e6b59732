import type { Device } from '@kontrol/contracts';
import { Button, Code, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteModal } from '../../../components/confirm-delete';
import { FormFailure } from '../../../components/form-failure';
import { toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { useRotateDeviceCredential } from '../api/rotate-device-credential';
import { formatMoment } from '../device-format';
import { ConnectionHistory } from './connection-history';
import { CredentialModal } from './credential-modal';
import { DeviceLimitsPanel } from './device-limits';
import { DeviceStatus } from './device-status';
import { useNow } from './use-now';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The device's Connection tab: how it talks to Kontrol, when it last did, its limits (with a mark
 * when it sends more), its gateway key (issue a new one, shown once) and short connection
 * instructions.
 */
export function ConnectionPanel({ device }: { device: Device }) {
  const { t } = useTranslation();
  const now = useNow();
  const [confirming, confirm] = useDisclosure(false);
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useRotateDeviceCredential(device.id);
  const lastOnline = device.last_online.last_utc;
  const [firstFailure, setFirstFailure] = useState<ApiFailure | null>(null);
  const issueFirst = async () => {
    setFirstFailure(null);
    try {
      setSecret((await rotate.mutateAsync()).credential);
    } catch (error) {
      setFirstFailure(toApiFailure(error));
    }
  };

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }} component="dl" m={0}>
        <Fact label={t('Controller ID')}>
          {device.controller_id ? <Code>{device.controller_id}</Code> : t('Not set')}
        </Fact>
        <Fact label={t('Smart')}>{device.is_smart ? t('Yes') : t('No')}</Fact>
        <Fact label={t('Status')}>
          <DeviceStatus lastOnlineMs={lastOnline ? Date.parse(lastOnline) : null} now={now} />
        </Fact>
        <Fact label={t('Last online')}>{lastOnline ? formatMoment(lastOnline) : t('Never')}</Fact>
        <Fact label={t('Connection key issued')}>
          {device.credential_issued_at ? formatMoment(device.credential_issued_at) : t('No key issued')}
        </Fact>
      </SimpleGrid>

      {device.is_smart && <ConnectionHistory device={device} />}
      {device.is_smart && <DeviceLimitsPanel device={device} />}

      {device.is_smart && device.has_credential && (
        <div>
          <Button variant="outline" color="orange" onClick={confirm.open}>
            {t('Issue a new connection key')}
          </Button>
        </div>
      )}
      {device.is_smart && !device.has_credential && (
        // No key yet: nothing stops working, so no confirmation.
        <Stack gap={4} align="flex-start">
          <Button onClick={() => void issueFirst()} loading={rotate.isPending}>
            {t('Issue a connection key')}
          </Button>
          <FormFailure failure={firstFailure} fields={[]} />
        </Stack>
      )}
      {!device.is_smart && (
        <Text size="sm">
          {t(
            'This device is not smart: set a controller ID or a current template in Settings to connect it.',
          )}
        </Text>
      )}

      <Paper withBorder p="md" component="section" aria-labelledby="device-how-to-connect">
        <Title order={3} size="h5" id="device-how-to-connect" mb="xs">
          {t('How to connect')}
        </Title>
        <List size="sm" spacing={4}>
          <List.Item>{t('The controller connects to the MQTT broker of Kontrol.')}</List.Item>
          <List.Item>
            {t('Client ID: the controller ID')}
            {device.controller_id && (
              <>
                {' '}
                (<Code>{device.controller_id}</Code>)
              </>
            )}
            .
          </List.Item>
          <List.Item>{t('Password: the connection key, shown once when it is issued.')}</List.Item>
        </List>
      </Paper>

      <ConfirmDeleteModal
        opened={confirming}
        onClose={confirm.close}
        title={t('Issue a new connection key?')}
        message={t('The current key stops working at once: the device must be given the new one.')}
        confirmLabel={t('Issue a new key')}
        onConfirm={async () => {
          const rotated = await rotate.mutateAsync();
          setSecret(rotated.credential);
        }}
      />
      <CredentialModal
        credential={secret}
        controllerId={device.controller_id}
        onClose={() => setSecret(null)}
      />
    </Stack>
  );
}
