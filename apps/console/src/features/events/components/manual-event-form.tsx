import {
  EVENT_COMMENT_MAX_LENGTH,
  EVENT_SEVERITIES,
  EVENT_TITLE_MAX_LENGTH,
  type Device,
  type DeviceEvent,
  type DeviceEventBody,
  type EventSeverity,
} from '@kontrol/contracts';
import { Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../components/date-fields';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { useEventLabels } from '../event-labels';
import { fromLocalInput, toLocalInput } from '../event-time';

/** The manual event's fields, named as `deviceEventBodySchema` names them. */
interface ManualEventValues extends Record<string, unknown> {
  device_id: string | null;
  severity: EventSeverity;
  title: string;
  description: string;
  started_at: string;
  ended_at: string;
}

/**
 * An event written by hand (a fault seen on site, a technician's visit): device, severity, title,
 * description, start (now by default) and, when it is over already, end.
 */
export function ManualEventForm({
  devices,
  deviceId,
  submit,
  onSuccess,
}: {
  devices: readonly Device[];
  /** The device chosen beforehand (`?device=`). */
  deviceId: number | null;
  submit: (body: DeviceEventBody) => Promise<DeviceEvent>;
  onSuccess: (event: DeviceEvent) => void;
}) {
  const { t } = useTranslation();
  const labels = useEventLabels();
  const { form, onSubmit, submitting, failure, fields } = useApiForm<ManualEventValues, DeviceEvent>({
    initialValues: {
      device_id:
        deviceId !== null && devices.some((device) => device.id === deviceId) ? String(deviceId) : null,
      severity: 'info',
      title: '',
      description: '',
      started_at: toLocalInput(Date.now()),
      ended_at: '',
    },
    submit: (values) => {
      const started = fromLocalInput(values.started_at);
      return submit({
        // None is sent as null: the server answers "required" under the field (docs/contract.md, "Validation and errors shown").
        device_id: (values.device_id ? Number(values.device_id) : null) as unknown as number,
        severity: values.severity,
        title: values.title,
        description: values.description || null,
        ...(started ? { started_at: started } : {}),
        ended_at: fromLocalInput(values.ended_at),
      });
    },
    onSuccess: (created) => onSuccess(created),
  });
  const deviceData = useMemo(
    () => devices.map((device) => ({ value: String(device.id), label: device.name })),
    [devices],
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={720}>
        <FormFailure failure={failure} fields={fields} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('Device')}
            name="device_id"
            required
            data={deviceData}
            searchable
            limit={100}
            nothingFoundMessage={t('Nothing found')}
            {...form.getInputProps('device_id')}
          />
          <Select
            label={t('Severity')}
            name="severity"
            required
            data={EVENT_SEVERITIES.map((value) => ({ value, label: labels.severity[value] }))}
            allowDeselect={false}
            {...form.getInputProps('severity')}
          />
        </SimpleGrid>
        <TextInput
          label={t('Title')}
          name="title"
          required
          maxLength={EVENT_TITLE_MAX_LENGTH}
          {...form.getInputProps('title')}
        />
        <Textarea
          label={t('Description')}
          name="description"
          autosize
          minRows={3}
          maxLength={EVENT_COMMENT_MAX_LENGTH}
          {...form.getInputProps('description')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <DateTimeField
            label={t('Started')}
            name="started_at"
            description={t('Empty: now.')}
            clearable
            {...form.getInputProps('started_at')}
          />
          <DateTimeField
            label={t('Ended')}
            name="ended_at"
            description={t('Empty: the event stays open until someone closes it.')}
            clearable
            {...form.getInputProps('ended_at')}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={submitting}>
            {t('Add the event')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
