import type { Device, DeviceEventTemplate, DeviceEventTemplateBody, DeviceType } from '@kontrol/contracts';
import {
  DESCRIPTION_MAX_LENGTH,
  MAX_BAND_CURRENT_A,
  MAX_TEMPLATE_RULES,
  NORM_STATES,
  TEMPLATE_NAME_MAX_LENGTH,
} from '@kontrol/contracts';
import {
  Button,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import {
  drawnBands,
  isTemplateField,
  newRule,
  templateFormValues,
  toTemplateBody,
  type TemplateFormValues,
} from '../template-form-values';
import { useTemplateLabels } from '../template-labels';
import { NormPreview } from './norm-preview';
import { RuleEditor } from './rule-editor';

/** The messages of `field` and of the fields under it (`device_ids`, `device_ids.3`), joined. */
function messagesUnder(errors: Record<string, unknown>, field: string): string | undefined {
  const text = Object.entries(errors)
    .filter(([key]) => key === field || key.startsWith(`${field}.`))
    .map(([, message]) => (typeof message === 'string' ? message : ''))
    .join(' ');
  return text || undefined;
}

/**
 * The template editor of the add page and of a template's page: name, description, device type
 * (and optionally the one device it is tuned for), the norm (a band of current per state), the
 * rules, and the devices that use it; with a preview of the bands over a device's real current.
 * The server's field errors show under the fields and under "Please fix the following errors".
 */
export function TemplateForm({
  template,
  preset,
  types,
  devices,
  templates,
  submit,
  onSuccess,
  submitLabel,
}: {
  /** The template being edited; none on the add page. */
  template?: DeviceEventTemplate;
  /** A new template's device type (`?type=` on the add page). */
  preset?: { deviceTypeId?: number };
  types: readonly DeviceType[];
  devices: readonly Device[];
  /** Every template, to say which one a device uses now. */
  templates: readonly DeviceEventTemplate[];
  submit: (body: DeviceEventTemplateBody) => Promise<DeviceEventTemplate>;
  onSuccess: (template: DeviceEventTemplate) => void;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const labels = useTemplateLabels();
  const { form, onSubmit, submitting, failure } = useApiForm<TemplateFormValues, DeviceEventTemplate>({
    initialValues: templateFormValues(template, preset),
    submit: (values) => submit(toTemplateBody(values)),
    onSuccess: (saved, changed) => {
      changed.resetDirty();
      onSuccess(saved);
    },
  });
  const { values } = form;

  const typeData = useMemo(
    () => types.map((type) => ({ value: String(type.id), label: type.name })),
    [types],
  );
  const ofType = useMemo(
    () => devices.filter((device) => String(device.type_id) === values.device_type_id),
    [devices, values.device_type_id],
  );
  const templateNames = useMemo(() => new Map(templates.map((other) => [other.id, other.name])), [templates]);
  const deviceData = useMemo(
    () => ofType.map((device) => ({ value: String(device.id), label: device.name })),
    [ofType],
  );
  // A template tuned for one device may be used by that device only.
  const usableData = useMemo(
    () =>
      ofType
        .filter((device) => values.device_id === null || String(device.id) === values.device_id)
        .map((device) => {
          const other =
            device.template_id !== null && device.template_id !== template?.id
              ? templateNames.get(device.template_id)
              : undefined;
          return {
            value: String(device.id),
            label: other
              ? t('{{device}} (now: {{template}})', { device: device.name, template: other })
              : device.name,
          };
        }),
    [ofType, values.device_id, templateNames, template?.id, t],
  );
  const bands = useMemo(() => drawnBands(values.norms), [values.norms]);
  const previewDevices = useMemo(() => {
    const using = new Set(values.device_ids);
    return [...ofType].sort((a, b) => Number(using.has(String(b.id))) - Number(using.has(String(a.id))));
  }, [ofType, values.device_ids]);
  const firstUsing = values.device_ids[0];
  const preferred = values.device_id
    ? Number(values.device_id)
    : firstUsing !== undefined && ofType.some((device) => String(device.id) === firstUsing)
      ? Number(firstUsing)
      : null;

  const changeType = (value: string | null) => {
    form.setFieldValue('device_type_id', value);
    // Devices of another type cannot use the template.
    const kept = new Set(
      devices.filter((device) => String(device.type_id) === value).map((d) => String(d.id)),
    );
    form.setFieldValue(
      'device_ids',
      values.device_ids.filter((id) => kept.has(id)),
    );
    if (values.device_id !== null && !kept.has(values.device_id)) form.setFieldValue('device_id', null);
  };
  const changeOwnDevice = (value: string | null) => {
    form.setFieldValue('device_id', value);
    // Tuned for one device: that device uses it, no other may.
    if (value !== null) form.setFieldValue('device_ids', [value]);
  };

  const shownFields =
    failure?.kind === 'validation'
      ? Object.keys(failure.errors).filter((field) => isTemplateField(field, values.rules.length))
      : [];

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="lg">
        <FormFailure failure={failure} fields={shownFields} />
        <Stack gap="md" maw={720}>
          <TextInput
            label={t('Template name')}
            name="name"
            required
            maxLength={TEMPLATE_NAME_MAX_LENGTH}
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
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('Device type')}
              name="device_type_id"
              required
              data={typeData}
              searchable
              nothingFoundMessage={t('Nothing found')}
              {...form.getInputProps('device_type_id')}
              onChange={changeType}
            />
            <Select
              label={t('Only for this device')}
              name="device_id"
              description={t('Empty: any device of the type may use it.')}
              data={deviceData}
              disabled={values.device_type_id === null}
              searchable
              clearable
              limit={100}
              nothingFoundMessage={t('Nothing found')}
              {...form.getInputProps('device_id')}
              onChange={changeOwnDevice}
            />
          </SimpleGrid>
        </Stack>

        <Fieldset legend={t('Norm')} variant="unstyled">
          <Text size="sm" c="dimmed" mb="sm">
            {t(
              'The normal current in each state, in amperes. Leave a state empty when the template says nothing about it.',
            )}
          </Text>
          {form.errors.norms && (
            <Text size="sm" c="red" mb="sm">
              {form.errors.norms}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
            {NORM_STATES.map((state) => {
              const bandError = form.errors[`norms.${state}`];
              return (
                <Fieldset key={state} legend={labels.state[state]}>
                  <Group grow gap="xs" align="start">
                    <NumberInput
                      label={t('From, A')}
                      min={0}
                      max={MAX_BAND_CURRENT_A}
                      decimalScale={2}
                      allowNegative={false}
                      {...form.getInputProps(`norms.${state}.min`)}
                    />
                    <NumberInput
                      label={t('To, A')}
                      min={0}
                      max={MAX_BAND_CURRENT_A}
                      decimalScale={2}
                      allowNegative={false}
                      {...form.getInputProps(`norms.${state}.max`)}
                    />
                  </Group>
                  {bandError && (
                    <Text size="sm" c="red" mt={4}>
                      {bandError}
                    </Text>
                  )}
                </Fieldset>
              );
            })}
          </SimpleGrid>
        </Fieldset>

        <NormPreview devices={previewDevices} preferred={preferred} bands={bands} />

        <Fieldset legend={t('Rules')} variant="unstyled">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t(
                'Each rule opens an event when its condition holds, and closes it when the condition clears.',
              )}
            </Text>
            {form.errors.rules && (
              <Text size="sm" c="red">
                {form.errors.rules}
              </Text>
            )}
            {values.rules.length === 0 && (
              <Text size="sm" role="status">
                {t('No rules yet: the template only sets the norm.')}
              </Text>
            )}
            {values.rules.map((rule, index) => (
              <RuleEditor
                key={rule.uid}
                form={form}
                index={index}
                labels={labels}
                onRemove={() => form.removeListItem('rules', index)}
              />
            ))}
            <Group>
              <Button
                variant="default"
                onClick={() => form.insertListItem('rules', newRule())}
                disabled={values.rules.length >= MAX_TEMPLATE_RULES}
              >
                {t('Add a rule')}
              </Button>
            </Group>
          </Stack>
        </Fieldset>

        <MultiSelect
          label={t('Devices using this template')}
          description={t('A device uses one template: choosing it here takes it from its current one.')}
          data={usableData}
          value={values.device_ids}
          onChange={(ids) => form.setFieldValue('device_ids', ids)}
          error={messagesUnder(form.errors, 'device_ids')}
          disabled={values.device_type_id === null}
          placeholder={values.device_type_id === null ? t('Choose a device type first') : undefined}
          searchable
          clearable
          limit={100}
          nothingFoundMessage={t('Nothing found')}
          maw={720}
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
