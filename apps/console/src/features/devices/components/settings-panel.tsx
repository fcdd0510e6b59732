import type { Device } from '@kontrol/contracts';
import { Alert, Divider, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { paths } from '../../../config/paths';
import { useDeleteDevice } from '../api/delete-device';
import { useUpdateDevice } from '../api/update-device';
import { useEquipmentReferences } from '../use-equipment-references';
import { CredentialModal } from './credential-modal';
import { DeviceForm } from './device-form';

/** The device's Settings tab: the add page's form, filled in, and deleting the device. */
export function SettingsPanel({ device }: { device: Device }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { types, addresses, rooms, templates } = useEquipmentReferences();
  const update = useUpdateDevice(device.id);
  const remove = useDeleteDevice(device.id);
  const [saved, setSaved] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  return (
    <Stack gap="xl">
      {saved && (
        <Alert color="green" role="status">
          {t('Saved.')}
        </Alert>
      )}
      <DeviceForm
        device={device}
        types={types}
        addresses={addresses}
        rooms={rooms}
        templates={templates}
        submit={(body) => {
          setSaved(false);
          return update.mutateAsync(body);
        }}
        onSuccess={(updated) => {
          setSaved(true);
          // Made smart just now: its first key, shown once.
          if (updated.credential) setSecret(updated.credential);
        }}
        submitLabel={t('Save')}
      />
      <CredentialModal
        credential={secret}
        controllerId={device.controller_id}
        onClose={() => setSecret(null)}
      />

      <Divider />
      <Stack gap="xs" component="section" aria-labelledby="device-delete">
        <Title order={3} size="h5" id="device-delete">
          {t('Delete the device')}
        </Title>
        <Text size="sm">{t('The device, its service log and its group memberships are deleted.')}</Text>
        <div>
          <ConfirmDeleteButton
            label={t('Delete the device')}
            title={t('Delete the device «{{name}}»?', { name: device.name })}
            message={t(
              'The device, its service log and its group memberships are deleted. This cannot be undone.',
            )}
            onConfirm={async () => {
              await remove.mutateAsync();
              await navigate(paths.account.devices.list, { replace: true });
            }}
          />
        </div>
      </Stack>
    </Stack>
  );
}
