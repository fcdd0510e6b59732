import { Alert, Anchor, Divider, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { paths } from '../../../config/paths';
import { useDeleteDeviceGroup } from '../api/delete-device-group';
import { useDeviceGroup } from '../api/get-device-group';
import { useUpdateDeviceGroup } from '../api/update-device-group';
import { GroupForm } from '../components/group-form';
import { parseId } from './device-page';

/** `/account/devices/groups/{id}`: a group's name, description and devices; deleting it. */
export function GroupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = parseId(useParams().id);
  const { data: group, isPending, error } = useDeviceGroup(id ?? 0);
  const update = useUpdateDeviceGroup(id ?? 0);
  const remove = useDeleteDeviceGroup(id ?? 0);
  const [saved, setSaved] = useState(false);

  const back = (
    <Anchor component={Link} to={paths.account.devices.groups} size="sm">
      ← {t('All groups')}
    </Anchor>
  );
  if (id === null || !group) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Group not found')}
        back={back}
      />
    );
  }

  return (
    <Stack gap="md">
      {back}
      <Title order={2}>{group.name}</Title>
      {saved && (
        <Alert color="green" role="status">
          {t('Saved.')}
        </Alert>
      )}
      <GroupForm
        key={group.id}
        group={group}
        submit={(body) => {
          setSaved(false);
          return update.mutateAsync(body);
        }}
        onSuccess={() => setSaved(true)}
        submitLabel={t('Save')}
      />
      <Divider />
      <div>
        <ConfirmDeleteButton
          label={t('Delete the group')}
          title={t('Delete the group «{{name}}»?', { name: group.name })}
          message={t('The group is deleted; its devices stay. This cannot be undone.')}
          onConfirm={async () => {
            await remove.mutateAsync();
            await navigate(paths.account.devices.groups, { replace: true });
          }}
        />
      </div>
    </Stack>
  );
}
