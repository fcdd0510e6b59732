import {
  EVENT_RULE_KINDS,
  EVENT_SEVERITIES,
  MAX_RULE_MINUTES,
  type DeviceState,
  type EventRuleKind,
} from '@kontrol/contracts';
import { Button, Fieldset, Group, NumberInput, Select, SimpleGrid, TagsInput, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { statesOfKind, type TemplateFormValues } from '../template-form-values';
import type { TemplateLabels } from '../template-labels';

/** What the duration of each kind of rule means. */
function useDurationWords() {
  const { t } = useTranslation();
  return (kind: EventRuleKind) => {
    switch (kind) {
      case 'no_data':
        return t('An event opens when no sample came for this long.');
      case 'state_too_long':
        return t('An event opens when the state has lasted this long.');
      default:
        return t('An event opens when the condition has held this long; 0: at once.');
    }
  };
}

/**
 * One rule of the template: its kind, the state it watches (current and state rules), the error
 * codes (error-code rules; none means any), how long the condition must hold, and the severity of
 * its events. The server's messages show under the fields (`rules.{index}.…`).
 */
export function RuleEditor({
  form,
  index,
  labels,
  onRemove,
}: {
  form: UseFormReturnType<TemplateFormValues>;
  index: number;
  labels: TemplateLabels;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const durationWords = useDurationWords();
  const rule = form.values.rules[index];
  if (!rule) return null;
  const path = `rules.${index}`;
  const states = statesOfKind(rule.kind);
  const number = index + 1;
  const ruleError = form.errors[path];
  // A code the server refused is named `rules.0.codes.2`: every such message shows under the box.
  const codesError = Object.entries(form.errors)
    .filter(([field]) => field === `${path}.codes` || field.startsWith(`${path}.codes.`))
    .map(([, message]) => (typeof message === 'string' ? message : ''))
    .join(' ');

  const changeKind = (value: string | null) => {
    if (!value) return;
    const kind = value as EventRuleKind;
    form.setFieldValue(`${path}.kind`, kind);
    // A state the new kind cannot watch gives way to heating (what current rules watch most).
    if (statesOfKind(kind).length > 0 && !statesOfKind(kind).includes(rule.state)) {
      form.setFieldValue(`${path}.state`, 'heating');
    }
  };

  return (
    <Fieldset
      legend={t('Rule {{number}}: {{kind}}', { number, kind: labels.kind[rule.kind] })}
      aria-describedby={ruleError ? `${path}-error` : undefined}
    >
      {ruleError && (
        <Text size="sm" c="red" id={`${path}-error`} mb="xs">
          {ruleError}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
        <Select
          label={t('Condition')}
          data={EVENT_RULE_KINDS.map((kind) => ({ value: kind, label: labels.kind[kind] }))}
          allowDeselect={false}
          {...form.getInputProps(`${path}.kind`)}
          onChange={changeKind}
        />
        {states.length > 0 && (
          <Select
            label={t('State')}
            data={states.map((state) => ({ value: state, label: labels.state[state] }))}
            allowDeselect={false}
            {...form.getInputProps(`${path}.state`)}
            onChange={(value) => {
              if (value) form.setFieldValue(`${path}.state`, value as DeviceState);
            }}
          />
        )}
        {rule.kind === 'error_code' && (
          <TagsInput
            label={t('Error codes')}
            description={t('Empty: any code. Press Enter after each.')}
            value={rule.codes}
            onChange={(codes) => form.setFieldValue(`${path}.codes`, codes)}
            error={codesError || undefined}
            clearable
          />
        )}
        <NumberInput
          label={t('Duration, minutes')}
          description={durationWords(rule.kind)}
          min={0}
          max={MAX_RULE_MINUTES}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps(`${path}.duration_minutes`)}
        />
        <Select
          label={t('Severity')}
          data={EVENT_SEVERITIES.map((severity) => ({ value: severity, label: labels.severity[severity] }))}
          allowDeselect={false}
          {...form.getInputProps(`${path}.severity`)}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          onClick={onRemove}
          aria-label={t('Remove rule {{number}}', { number })}
        >
          {t('Remove')}
        </Button>
      </Group>
    </Fieldset>
  );
}
