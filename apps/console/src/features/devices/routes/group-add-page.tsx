import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useCreateDeviceGroup } from '../api/create-device-group';
import { GroupForm } from '../components/group-form';

/** `/account/devices/groups/add`; the new group's page opens after saving. */
export function GroupAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateDeviceGroup();
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account.devices.groups} size="sm">
        ← {t('All groups')}
      </Anchor>
      <GroupForm
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(group) => void navigate(paths.account.devices.group(group.id), { replace: true })}
        submitLabel={t('Add group')}
      />
    </Stack>
  );
}
