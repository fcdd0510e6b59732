import type {
  Address,
  Device,
  DeviceBody,
  DeviceEventTemplate,
  DeviceType,
  DeviceWithCredential,
  Room,
} from '@kontrol/contracts';
import {
  DEVICE_NAME_MAX_LENGTH,
  NOTES_MAX_LENGTH,
  SERIAL_NUMBER_MAX_LENGTH,
  SERVICE_INTERVAL_MAX_DAYS,
  WASH_INTERVAL_MAX_HOURS,
} from '@kontrol/contracts';
import {
  Button,
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { DateField } from '../../../components/date-fields';
import { TimeField } from '../../../components/time-field';
import { useApiForm } from '../../../lib/use-api-form';

/** The form's fields: the keys of `deviceBodySchema`, so the server's 422 messages land under them. */
export interface DeviceFormValues extends Record<string, unknown> {
  name: string;
  type_id: string | null;
  room_id: string | null;
  serial_number: string;
  controller_id: string;
  template_id: string | null;
  shift_start: string;
  wash_interval_hours: number | string;
  service_interval_days: number | string;
  next_service_date: string;
  notes: string;
}

export function deviceFormValues(device?: Device): DeviceFormValues {
  return {
    name: device?.name ?? '',
    type_id: device ? String(device.type_id) : null,
    room_id: device ? String(device.room_id) : null,
    serial_number: device?.serial_number ?? '',
    controller_id: device?.controller_id ?? '',
    template_id: device?.template_id == null ? null : String(device.template_id),
    shift_start: device?.shift_start ?? '',
    wash_interval_hours: device?.wash_interval_hours ?? '',
    service_interval_days: device?.service_interval_days ?? '',
    next_service_date: device?.next_service_date ?? '',
    notes: device?.notes ?? '',
  };
}

const numberOrNull = (value: number | string) => (typeof value === 'number' ? value : null);
/**
 * An id from a select; none is sent as null, which the server answers with "required" under the
 * field (docs/contract.md, "Validation and errors shown": the server owns the rules). The body type wants a number: it describes valid input.
 */
const idOrNull = (value: string | null) => (value ? Number(value) : (null as unknown as number));

/** Empty fields become null; the server checks the rest (docs/contract.md, "Validation and errors shown": no client-side rules). */
export function toDeviceBody(values: DeviceFormValues): DeviceBody {
  return {
    name: values.name,
    type_id: idOrNull(values.type_id),
    room_id: idOrNull(values.room_id),
    serial_number: values.serial_number || null,
    controller_id: values.controller_id || null,
    template_id: values.template_id ? Number(values.template_id) : null,
    shift_start: values.shift_start || null,
    wash_interval_hours: numberOrNull(values.wash_interval_hours),
    service_interval_days: numberOrNull(values.service_interval_days),
    next_service_date: values.next_service_date || null,
    notes: values.notes || null,
  };
}

/** Rooms grouped by address, for the room select; a room's label names its address too. */
export function roomOptions(addresses: readonly Address[], rooms: readonly Room[]) {
  return addresses
    .map((address) => ({
      group: address.name,
      items: rooms
        .filter((room) => room.address_id === address.id)
        .map((room) => ({ value: String(room.id), label: `${room.name} · ${address.name}` })),
    }))
    .filter((group) => group.items.length > 0);
}

/**
 * The current templates a device of `typeId` may use, by name: the type's templates for any device
 * and those tuned for this device. The one it uses now is offered whatever it is (named by its
 * number when the list does not hold it: a user without the templates module reads no list).
 */
export function templateOptions(
  templates: readonly DeviceEventTemplate[],
  typeId: number | null,
  deviceId: number | undefined,
  current: string | null,
  unnamed: (id: string) => string,
) {
  const options = templates
    .filter(
      (template) =>
        template.device_type_id === typeId &&
        (template.device_id === null || template.device_id === deviceId),
    )
    .map((template) => ({ value: String(template.id), label: template.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  if (current && !options.some((option) => option.value === current)) {
    const held = templates.find((template) => String(template.id) === current);
    options.unshift({ value: current, label: held?.name ?? unnamed(current) });
  }
  return options;
}

/**
 * The device form of the add page and of the device's Settings tab: every field of
 * `deviceBodySchema`. The server's field errors show under the fields and under "Please fix the
 * following errors".
 */
export function DeviceForm({
  device,
  types,
  addresses,
  rooms,
  templates,
  submit,
  onSuccess,
  submitLabel,
}: {
  /** The device being edited; none on the add page. */
  device?: Device;
  types: readonly DeviceType[];
  addresses: readonly Address[];
  rooms: readonly Room[];
  /** The organisation's current templates (empty without the templates module). */
  templates: readonly DeviceEventTemplate[];
  submit: (body: DeviceBody) => Promise<DeviceWithCredential>;
  onSuccess: (device: DeviceWithCredential) => void;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const { form, onSubmit, submitting, failure, fields } = useApiForm({
    initialValues: deviceFormValues(device),
    submit: (values) => submit(toDeviceBody(values)),
    onSuccess: (saved: DeviceWithCredential, changed) => {
      changed.resetDirty();
      onSuccess(saved);
    },
  });
  const typeData = useMemo(
    () => types.map((type) => ({ value: String(type.id), label: type.name })),
    [types],
  );
  const roomData = useMemo(() => roomOptions(addresses, rooms), [addresses, rooms]);
  const type = types.find((candidate) => String(candidate.id) === form.values.type_id);
  const templateData = useMemo(
    () =>
      templateOptions(templates, type?.id ?? null, device?.id, form.values.template_id, (id) =>
        t('Template #{{id}}', { id }),
      ),
    [templates, type, device?.id, form.values.template_id, t],
  );
  const washPlaceholder =
    type === undefined
      ? undefined
      : type.wash_interval_hours === null
        ? t('This type does not wash')
        : t('Type default: {{hours}}', { hours: type.wash_interval_hours });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={720}>
        <FormFailure failure={failure} fields={fields} />
        <TextInput
          label={t('Device name')}
          name="name"
          required
          maxLength={DEVICE_NAME_MAX_LENGTH}
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('Type')}
            name="type_id"
            required
            data={typeData}
            searchable
            nothingFoundMessage={t('Nothing found')}
            {...form.getInputProps('type_id')}
          />
          <Select
            label={t('Room')}
            name="room_id"
            required
            data={roomData}
            searchable
            nothingFoundMessage={t('Nothing found')}
            description={roomData.length === 0 ? t('Add an address and a room first.') : undefined}
            {...form.getInputProps('room_id')}
          />
          <TextInput
            label={t('Serial number')}
            name="serial_number"
            maxLength={SERIAL_NUMBER_MAX_LENGTH}
            spellCheck={false}
            {...form.getInputProps('serial_number')}
          />
          <TextInput
            label={t('Controller ID')}
            name="controller_id"
            description={t('What the device calls itself when it connects. Makes the device smart.')}
            spellCheck={false}
            autoComplete="off"
            {...form.getInputProps('controller_id')}
          />
        </SimpleGrid>
        <Fieldset legend={t('Work and service')} variant="unstyled">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('Current template')}
              name="template_id"
              description={t('Optional; a current template also makes the device smart.')}
              data={templateData}
              searchable
              clearable
              placeholder={
                type === undefined
                  ? t('Choose the type first')
                  : templateData.length === 0
                    ? t('No templates of this type')
                    : undefined
              }
              nothingFoundMessage={t('Nothing found')}
              {...form.getInputProps('template_id')}
            />
            <TimeField
              label={t('Shift start')}
              name="shift_start"
              clearable
              description={t('Local time at the address when the device should be working.')}
              {...form.getInputProps('shift_start')}
            />
            <NumberInput
              label={t('Wash interval, hours')}
              name="wash_interval_hours"
              placeholder={washPlaceholder}
              description={t('Empty: the type’s default.')}
              min={1}
              max={WASH_INTERVAL_MAX_HOURS}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('wash_interval_hours')}
            />
            <NumberInput
              label={t('Service interval, days')}
              name="service_interval_days"
              min={1}
              max={SERVICE_INTERVAL_MAX_DAYS}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('service_interval_days')}
            />
            <DateField
              label={t('Next service date')}
              name="next_service_date"
              clearable
              {...form.getInputProps('next_service_date')}
            />
          </SimpleGrid>
        </Fieldset>
        <Textarea
          label={t('Notes')}
          name="notes"
          autosize
          minRows={2}
          maxLength={NOTES_MAX_LENGTH}
          {...form.getInputProps('notes')}
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
