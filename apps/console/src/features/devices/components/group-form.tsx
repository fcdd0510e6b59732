import type { DeviceGroup, DeviceGroupBody } from '@kontrol/contracts';
import { DESCRIPTION_MAX_LENGTH, GROUP_NAME_MAX_LENGTH } from '@kontrol/contracts';
import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { sortItems, toListItems } from '../device-list';
import { useEquipmentReferences } from '../use-equipment-references';
import { DevicePicker } from './device-picker';

interface GroupFormValues extends Record<string, unknown> {
  name: string;
  description: string;
  device_ids: number[];
}

/** Name, description and members of a device group; the add page and the group page share it. */
export function GroupForm({
  group,
  submit,
  onSuccess,
  submitLabel,
}: {
  group?: DeviceGroup;
  submit: (body: DeviceGroupBody) => Promise<DeviceGroup>;
  onSuccess: (group: DeviceGroup) => void;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const { devices, types, addresses, rooms } = useEquipmentReferences();
  const items = useMemo(
    () => sortItems(toListItems(devices, types, addresses, rooms), 'name'),
    [devices, types, addresses, rooms],
  );
  const { form, onSubmit, submitting, failure, fields } = useApiForm<GroupFormValues, DeviceGroup>({
    initialValues: {
      name: group?.name ?? '',
      description: group?.description ?? '',
      device_ids: group?.device_ids ?? [],
    },
    submit: (values) =>
      submit({ name: values.name, description: values.description || null, device_ids: values.device_ids }),
    onSuccess: (saved, changed) => {
      changed.resetDirty();
      onSuccess(saved);
    },
  });
  // The server names a bad member `device_ids` or `device_ids.3`: either shows under the picker.
  const deviceError = Object.entries(form.errors)
    .filter(([field]) => field === 'device_ids' || field.startsWith('device_ids.'))
    .map(([, message]) => (typeof message === 'string' ? message : ''))
    .join(' ');

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={720}>
        <FormFailure
          failure={failure}
          fields={
            failure?.kind === 'validation'
              ? [...fields, ...Object.keys(failure.errors).filter((f) => f.startsWith('device_ids.'))]
              : fields
          }
        />
        <TextInput
          label={t('Group name')}
          name="name"
          required
          maxLength={GROUP_NAME_MAX_LENGTH}
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('Description')}
          name="description"
          autosize
          minRows={2}
          maxLength={DESCRIPTION_MAX_LENGTH}
          {...form.getInputProps('description')}
        />
        <DevicePicker
          items={items}
          value={form.values.device_ids}
          onChange={(ids) => form.setFieldValue('device_ids', ids)}
          error={deviceError || undefined}
        />
        <Group>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
