import type { TFunction } from 'i18next';
import {
  SERVICE_ENTRY_KINDS,
  type Device,
  type ServiceEntry,
  type ServiceEntryKind,
} from '@kontrol/contracts';
import { PART_MAX_LENGTH, PERFORMER_MAX_LENGTH, SERVICE_NOTE_MAX_LENGTH } from '@kontrol/contracts';
import {
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteModal } from '../../../components/confirm-delete';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { DateField } from '../../../components/date-fields';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import { useApiForm } from '../../../lib/use-api-form';
import { useAddServiceEntry } from '../api/add-service-entry';
import { useDeleteServiceEntry } from '../api/delete-service-entry';
import { useServiceLog } from '../api/get-service-log';
import { formatCalendarDate } from '../device-format';

type Translate = TFunction;

export function serviceKindLabel(t: Translate, kind: ServiceEntryKind): string {
  switch (kind) {
    case 'maintenance':
      return t('Maintenance');
    case 'repair':
      return t('Repair');
    case 'part_replaced':
      return t('Part replaced');
    case 'inspection':
      return t('Inspection');
  }
}

/** Today's local date as `YYYY-MM-DD`. */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The device's Service tab: next service date, the service log, a form to add an entry. */
export function ServicePanel({ device }: { device: Device }) {
  const { t } = useTranslation();
  const log = useServiceLog(device.id);
  const remove = useDeleteServiceEntry(device.id);
  const [deleting, setDeleting] = useState<ServiceEntry | null>(null);
  const columns = useMemo<DataTableColumn<ServiceEntry>[]>(
    () => [
      { id: 'date', header: t('Date'), width: '9rem', cell: (entry) => formatCalendarDate(entry.date) },
      {
        id: 'kind',
        header: t('Kind of work'),
        width: 'minmax(10rem, 1fr)',
        cell: (entry) => serviceKindLabel(t, entry.kind),
      },
      {
        id: 'performed_by',
        header: t('Performed by'),
        width: 'minmax(10rem, 1fr)',
        cell: (entry) => entry.performed_by,
      },
      { id: 'part', header: t('Part'), width: 'minmax(8rem, 1fr)', cell: (entry) => entry.part ?? '' },
      { id: 'note', header: t('Note'), width: 'minmax(12rem, 2fr)', cell: (entry) => entry.note ?? '' },
      {
        id: 'actions',
        header: t('Actions'),
        width: '7rem',
        cell: (entry) => (
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            onClick={() => setDeleting(entry)}
            aria-label={t('Delete the entry of {{date}}', { date: formatCalendarDate(entry.date) })}
          >
            {t('Delete')}
          </Button>
        ),
      },
    ],
    [t],
  );

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }} component="dl" m={0}>
        <div>
          <Text size="sm" c="dimmed" component="dt">
            {t('Next service date')}
          </Text>
          <Text component="dd" m={0}>
            {device.next_service_date ? formatCalendarDate(device.next_service_date) : t('Not planned')}
          </Text>
        </div>
        <div>
          <Text size="sm" c="dimmed" component="dt">
            {t('Service interval, days')}
          </Text>
          <Text component="dd" m={0}>
            {device.service_interval_days ?? t('Not set')}
          </Text>
        </div>
      </SimpleGrid>

      <section aria-labelledby="device-service-log">
        <Title order={3} size="h5" id="device-service-log" mb="xs">
          {t('Service log')}
        </Title>
        {log.isPending ? (
          <PageLoader inline />
        ) : (
          <DataTable
            data={log.data ?? []}
            columns={columns}
            getRowId={(entry) => String(entry.id)}
            label={t('Service log')}
            maxHeight={400}
          />
        )}
      </section>

      <ServiceEntryForm deviceId={device.id} />

      <ConfirmDeleteModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('Delete the service entry of {{date}}?', {
          date: deleting ? formatCalendarDate(deleting.date) : '',
        })}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting.id) : Promise.resolve())}
      />
    </Stack>
  );
}

interface ServiceEntryFormValues extends Record<string, unknown> {
  date: string;
  kind: string | null;
  performed_by: string;
  part: string;
  note: string;
}

function ServiceEntryForm({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const add = useAddServiceEntry(deviceId);
  const [saved, setSaved] = useState(false);
  const { form, onSubmit, submitting, failure, fields } = useApiForm<ServiceEntryFormValues, ServiceEntry>({
    initialValues: {
      date: today(),
      kind: 'maintenance',
      performed_by: '',
      part: '',
      note: '',
    },
    submit: (values) => {
      setSaved(false);
      return add.mutateAsync({
        date: values.date,
        kind: (values.kind ?? '') as ServiceEntryKind,
        performed_by: values.performed_by,
        part: values.part || null,
        note: values.note || null,
      });
    },
    onSuccess: (_entry, changed) => {
      changed.reset();
      setSaved(true);
    },
  });
  const kinds = SERVICE_ENTRY_KINDS.map((kind) => ({ value: kind, label: serviceKindLabel(t, kind) }));

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="device-service-add">
      <Title order={3} size="h5" id="device-service-add" mb="md">
        {t('Add a service entry')}
      </Title>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={fields} />
          {saved && (
            <Text size="sm" c="green" role="status">
              {t('Saved.')}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateField label={t('Date')} name="date" required {...form.getInputProps('date')} />
            <Select
              label={t('Kind of work')}
              name="kind"
              required
              data={kinds}
              {...form.getInputProps('kind')}
            />
            <TextInput
              label={t('Performed by')}
              name="performed_by"
              required
              description={t('An engineer or a company.')}
              maxLength={PERFORMER_MAX_LENGTH}
              {...form.getInputProps('performed_by')}
            />
            <TextInput
              label={t('Part')}
              name="part"
              description={t('Required when a part was replaced.')}
              maxLength={PART_MAX_LENGTH}
              {...form.getInputProps('part')}
            />
          </SimpleGrid>
          <Textarea
            label={t('Note')}
            name="note"
            autosize
            minRows={2}
            maxLength={SERVICE_NOTE_MAX_LENGTH}
            {...form.getInputProps('note')}
          />
          <Group>
            <Button type="submit" loading={submitting}>
              {t('Add the entry')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
