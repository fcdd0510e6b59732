import {
  CORE_TEMPERATURE_LIMITS,
  STEP_MODES,
  STEP_PROMPT_MAX_LENGTH,
  type StepMode,
} from '@kontrol/contracts';
import {
  Button,
  Fieldset,
  Group,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { RecipeLabels } from '../recipe-labels';
import {
  durationProblem,
  modeLimits,
  modesOf,
  withMode,
  type RecipeFormValues,
  type RecipeTypeRules,
} from '../recipe-model';
import type { SortableControls } from './sortable-list';

/** The id of step `index`'s time box (the editor focuses a time that does not read). */
export const stepDurationId = (index: number) => `recipe-step-${index}-duration`;

/**
 * One step of the recipe: its mode (the type's), the cabinet temperature with the mode's range,
 * humidity (modes that take it), fan speed (modes with a fan), how it ends — after a time (minutes
 * or mm:ss) or, on types with a core probe, at a core temperature — and a prompt for the cook.
 * The server's messages show under the fields (`steps.{index}.…`).
 */
export function StepEditor({
  form,
  index,
  rules,
  labels,
  controls,
  onDuplicate,
  onRemove,
  canDuplicate,
}: {
  form: UseFormReturnType<RecipeFormValues>;
  index: number;
  /** The chosen type's rules; null before a type is chosen (every mode is offered). */
  rules: RecipeTypeRules | null;
  labels: RecipeLabels;
  controls: SortableControls;
  onDuplicate: () => void;
  onRemove: (() => void) | null;
  canDuplicate: boolean;
}) {
  const { t } = useTranslation();
  const step = form.values.steps[index];
  if (!step) return null;
  const path = `steps.${index}`;
  const number = index + 1;
  const limits = modeLimits(rules, step.mode);
  const modes = rules ? modesOf(rules) : [...STEP_MODES];
  const stepError = form.errors[path];
  const durationHint = durationProblem(step.duration_seconds);
  const durationProps = form.getInputProps(`${path}.duration_seconds`);
  const durationError =
    (durationProps.error as string | undefined) ??
    (durationHint === 'format'
      ? t('Enter minutes (15) or minutes and seconds (12:30).')
      : durationHint === 'range'
        ? t('From 1 second to 24 hours.')
        : undefined);
  const name = t('step {{number}}', { number });

  return (
    <Fieldset
      legend={t('Step {{number}}: {{mode}}', { number, mode: labels.mode[step.mode] })}
      aria-describedby={stepError ? `${path}-error` : undefined}
    >
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap={4} wrap="nowrap">
          {controls.handle}
          {controls.moves}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={onDuplicate}
            disabled={!canDuplicate}
            aria-label={t('Duplicate {{item}}', { item: name })}
          >
            {t('Duplicate')}
          </Button>
          {onRemove && (
            <Button
              variant="subtle"
              color="red"
              size="compact-sm"
              onClick={onRemove}
              aria-label={t('Remove {{item}}', { item: name })}
            >
              {t('Remove')}
            </Button>
          )}
        </Group>
      </Group>
      {stepError && (
        <Text size="sm" c="red" id={`${path}-error`} mb="xs">
          {stepError}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
        <Select
          label={t('Mode')}
          data={modes.map((mode) => ({ value: mode, label: labels.mode[mode] }))}
          allowDeselect={false}
          {...form.getInputProps(`${path}.mode`)}
          onChange={(value) => {
            if (value) form.replaceListItem('steps', index, withMode(step, value as StepMode, rules));
          }}
        />
        <NumberInput
          label={t('Temperature, °C')}
          description={
            limits
              ? t('{{min}} to {{max}} °C', { min: limits.temperature.min, max: limits.temperature.max })
              : undefined
          }
          min={limits?.temperature.min}
          max={limits?.temperature.max}
          clampBehavior="none"
          allowDecimal={false}
          {...form.getInputProps(`${path}.temperature`)}
        />
        {limits?.humidity && (
          <NumberInput
            label={t('Humidity, %')}
            description={t('0 to 100 %')}
            min={0}
            max={100}
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps(`${path}.humidity`)}
          />
        )}
        {limits?.fan && (
          <NumberInput
            label={t('Fan speed')}
            description={t('1 to 5')}
            min={1}
            max={5}
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps(`${path}.fan_speed`)}
          />
        )}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm" mt="sm">
        {rules?.coreProbe && (
          <Radio.Group
            label={t('The step ends')}
            value={step.end}
            onChange={(value) => form.setFieldValue(`${path}.end`, value === 'core' ? 'core' : 'time')}
          >
            <Group gap="md" mt={6}>
              <Radio value="time" label={t('After a time')} />
              <Radio value="core" label={t('At a core temperature')} />
            </Group>
          </Radio.Group>
        )}
        {step.end === 'time' || !rules?.coreProbe ? (
          <TextInput
            label={t('Time, min or mm:ss')}
            description={t('e.g. 15 or 12:30')}
            {...durationProps}
            id={stepDurationId(index)}
            error={durationError}
          />
        ) : (
          <NumberInput
            label={t('Core temperature, °C')}
            description={t('{{min}} to {{max}} °C', CORE_TEMPERATURE_LIMITS)}
            min={CORE_TEMPERATURE_LIMITS.min}
            max={CORE_TEMPERATURE_LIMITS.max}
            clampBehavior="none"
            allowDecimal={false}
            {...form.getInputProps(`${path}.core_temperature`)}
          />
        )}
      </SimpleGrid>
      <TextInput
        mt="sm"
        label={t('Prompt for the cook')}
        description={t('Shown before the step starts, e.g. “Load the trays”.')}
        maxLength={STEP_PROMPT_MAX_LENGTH}
        {...form.getInputProps(`${path}.prompt`)}
      />
    </Fieldset>
  );
}
