import {
  EVENT_COMMENT_MAX_LENGTH,
  EVENT_SEVERITIES,
  EVENT_TITLE_MAX_LENGTH,
  type DeviceEvent,
  type EventSeverity,
} from '@kontrol/contracts';
import {
  Alert,
  Button,
  Fieldset,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../components/date-fields';
import { FormFailure } from '../../../components/form-failure';
import { isAbortError, toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { useApiForm } from '../../../lib/use-api-form';
import { useUpdateDeviceEvent } from '../api/update-device-event';
import { useEventLabels } from '../event-labels';
import { fromLocalInput, toLocalInput } from '../event-time';

interface ManualEditValues extends Record<string, unknown> {
  title: string;
  description: string;
  severity: EventSeverity;
  ended_at: string;
}

/**
 * A manual event's own fields (title, description, severity, end), and closing it now or opening
 * it again. Events raised by rules are closed by their rules, so they never show this.
 */
export function ManualEventEditor({ event }: { event: DeviceEvent }) {
  const { t } = useTranslation();
  const labels = useEventLabels();
  const update = useUpdateDeviceEvent();
  const [saved, setSaved] = useState(false);
  const { form, onSubmit, submitting, failure, fields } = useApiForm<ManualEditValues, DeviceEvent>({
    initialValues: {
      title: event.title,
      description: event.description ?? '',
      severity: event.severity,
      ended_at: event.ended_at ? toLocalInput(event.ended_at) : '',
    },
    submit: (values) => {
      setSaved(false);
      setEndFailure(null);
      return update.mutateAsync({
        id: event.id,
        body: {
          title: values.title,
          description: values.description || null,
          severity: values.severity,
          ended_at: fromLocalInput(values.ended_at),
        },
      });
    },
    onSuccess: (changed, own) => {
      own.setValues({ ended_at: changed.ended_at ? toLocalInput(changed.ended_at) : '' });
      own.resetDirty();
      setSaved(true);
    },
  });
  const [endFailure, setEndFailure] = useState<ApiFailure | null>(null);
  const setEnd = async (endedAt: string | null) => {
    setSaved(false);
    setEndFailure(null);
    try {
      const changed = await update.mutateAsync({ id: event.id, body: { ended_at: endedAt } });
      form.setFieldValue('ended_at', changed.ended_at ? toLocalInput(changed.ended_at) : '');
      form.resetDirty();
      setSaved(true);
    } catch (error) {
      if (!isAbortError(error)) setEndFailure(toApiFailure(error));
    }
  };

  return (
    <Fieldset legend={t('Edit the event')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <FormFailure failure={failure ?? endFailure} fields={fields} />
          {saved && (
            <Alert color="green" role="status">
              {t('Saved.')}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('Title')}
              name="title"
              required
              maxLength={EVENT_TITLE_MAX_LENGTH}
              {...form.getInputProps('title')}
            />
            <Select
              label={t('Severity')}
              name="severity"
              data={EVENT_SEVERITIES.map((value) => ({ value, label: labels.severity[value] }))}
              allowDeselect={false}
              {...form.getInputProps('severity')}
            />
          </SimpleGrid>
          <Textarea
            label={t('Description')}
            name="description"
            autosize
            minRows={2}
            maxLength={EVENT_COMMENT_MAX_LENGTH}
            {...form.getInputProps('description')}
          />
          <DateTimeField
            label={t('Ended')}
            name="ended_at"
            description={t('Empty: the event is open.')}
            clearable
            maw={320}
            {...form.getInputProps('ended_at')}
          />
          <Group>
            <Button type="submit" loading={submitting}>
              {t('Save')}
            </Button>
            {event.ended_at === null ? (
              <Button variant="default" onClick={() => void setEnd(new Date().toISOString())}>
                {t('Close the event now')}
              </Button>
            ) : (
              <Button variant="default" onClick={() => void setEnd(null)}>
                {t('Open the event again')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Fieldset>
  );
}
