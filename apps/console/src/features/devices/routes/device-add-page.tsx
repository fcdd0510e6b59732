import type { DeviceWithCredential } from '@kontrol/contracts';
import { Anchor, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useCreateDevice } from '../api/create-device';
import { CredentialModal } from '../components/credential-modal';
import { DeviceForm } from '../components/device-form';
import { useEquipmentReferences } from '../use-equipment-references';

/**
 * `/account/devices/add`. A smart device comes back with its gateway key: it shows once, in a
 * dialog, and then the device's page opens.
 */
export function DeviceAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { types, addresses, rooms, templates } = useEquipmentReferences();
  const create = useCreateDevice();
  const [created, setCreated] = useState<DeviceWithCredential | null>(null);
  const open = (id: number) => void navigate(paths.account.devices.detail(id), { replace: true });

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account.devices.list} size="sm">
        ← {t('All equipment')}
      </Anchor>
      <DeviceForm
        types={types}
        addresses={addresses}
        rooms={rooms}
        templates={templates}
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(device) => {
          if (device.credential) setCreated(device);
          else open(device.id);
        }}
        submitLabel={t('Add device')}
      />
      <CredentialModal
        credential={created?.credential ?? null}
        controllerId={created?.controller_id ?? null}
        onClose={() => {
          if (created) open(created.id);
          setCreated(null);
        }}
      />
    </Stack>
  );
}
