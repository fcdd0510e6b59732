import {
  COMPLAINT_PRIORITIES,
  COMPLAINT_TEXT_MAX_LENGTH,
  COMPLAINT_TITLE_MAX_LENGTH,
  type Complaint,
  type ComplaintBody,
  type ComplaintPriority,
} from '@kontrol/contracts';
import { Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import type { Assignee } from '../use-assignees';
import { useComplaintLabels } from '../complaint-labels';
import type { ComplaintReferences } from '../use-complaint-references';
import { photoErrorsOf, usePhotoUploads } from '../use-photo-uploads';
import { PhotoPicker } from './photo-picker';

interface ComplaintFormValues extends Record<string, unknown> {
  title: string;
  text: string;
  priority: ComplaintPriority;
  device_id: string | null;
  address_id: string | null;
  assignee_id: string | null;
}

const idOrNull = (value: string | null) => (value ? Number(value) : null);

/**
 * A new complaint: title, text, priority, what it is about — a device (searched by name; its
 * address goes with it) or else an address —, an assignee and photos (sent as they are chosen).
 * The server checks everything; its messages show under the fields.
 */
export function ComplaintForm({
  references,
  assignees,
  presetDevice,
  submit,
  onSuccess,
}: {
  references: ComplaintReferences;
  assignees: readonly Assignee[];
  /** A device chosen beforehand (`?device=`). */
  presetDevice: number | null;
  submit: (body: ComplaintBody) => Promise<Complaint>;
  onSuccess: (complaint: Complaint) => void;
}) {
  const { t } = useTranslation();
  const labels = useComplaintLabels();
  const uploads = usePhotoUploads();
  const { devices, addresses, addressById, deviceById } = references;
  const { form, onSubmit, submitting, failure, fields } = useApiForm<ComplaintFormValues, Complaint>({
    initialValues: {
      title: '',
      text: '',
      priority: 'normal',
      device_id: presetDevice !== null && deviceById.has(presetDevice) ? String(presetDevice) : null,
      address_id: null,
      assignee_id: null,
    },
    submit: (values) =>
      submit({
        title: values.title,
        text: values.text,
        priority: values.priority,
        device_id: idOrNull(values.device_id),
        // A device names its address: the server takes the device's.
        address_id: values.device_id ? null : idOrNull(values.address_id),
        assignee_id: idOrNull(values.assignee_id),
        photos: uploads.photos,
      }),
    onSuccess,
  });

  const deviceOptions = useMemo(
    () =>
      devices.map((device) => {
        const address = addressById.get(device.address_id);
        return {
          value: String(device.id),
          label: address ? `${device.name} · ${address.name}` : device.name,
        };
      }),
    [devices, addressById],
  );
  const addressOptions = useMemo(
    () => addresses.map((address) => ({ value: String(address.id), label: address.name })),
    [addresses],
  );
  const assigneeOptions = useMemo(
    () => assignees.map((assignee) => ({ value: String(assignee.id), label: assignee.name })),
    [assignees],
  );
  const chosenDevice = form.values.device_id ? deviceById.get(Number(form.values.device_id)) : undefined;
  const photosError = photoErrorsOf(form.errors);

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={760}>
        <FormFailure
          failure={failure}
          fields={[...fields, ...Object.keys(form.errors).filter((key) => key.startsWith('photos'))]}
        />
        <TextInput
          label={t('Title')}
          withAsterisk
          maxLength={COMPLAINT_TITLE_MAX_LENGTH}
          {...form.getInputProps('title')}
        />
        <Textarea
          label={t('Description of the problem')}
          autosize
          minRows={4}
          maxRows={12}
          maxLength={COMPLAINT_TEXT_MAX_LENGTH}
          {...form.getInputProps('text')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label={t('Device')}
            description={t('Start typing its name.')}
            placeholder={t('Not chosen')}
            data={deviceOptions}
            searchable
            clearable
            limit={100}
            nothingFoundMessage={t('Nothing found')}
            {...form.getInputProps('device_id')}
          />
          <Select
            label={t('Address')}
            description={
              chosenDevice ? t('The device’s address.') : t('When the problem is not with one device.')
            }
            placeholder={t('Not chosen')}
            data={addressOptions}
            searchable
            clearable
            nothingFoundMessage={t('Nothing found')}
            disabled={chosenDevice !== undefined}
            {...form.getInputProps('address_id')}
            value={chosenDevice ? String(chosenDevice.address_id) : form.values.address_id}
          />
          <Select
            label={t('Priority')}
            data={COMPLAINT_PRIORITIES.map((value) => ({ value, label: labels.priority[value] }))}
            allowDeselect={false}
            {...form.getInputProps('priority')}
          />
          <Select
            label={t('Assignee')}
            placeholder={t('Nobody')}
            data={assigneeOptions}
            searchable
            clearable
            nothingFoundMessage={t('Nothing found')}
            {...form.getInputProps('assignee_id')}
          />
        </SimpleGrid>
        <PhotoPicker uploads={uploads} error={photosError} />
        <Group>
          <Button type="submit" loading={submitting} disabled={uploads.busy}>
            {t('File the complaint')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
