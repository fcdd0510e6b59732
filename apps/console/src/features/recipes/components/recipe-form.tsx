import type { DeviceType, Recipe, RecipeBody, RecipeSet } from '@kontrol/contracts';
import {
  DESCRIPTION_MAX_LENGTH,
  MAX_RECIPE_STEPS,
  RECIPE_CATEGORY_MAX_LENGTH,
  RECIPE_NAME_MAX_LENGTH,
} from '@kontrol/contracts';
import {
  Autocomplete,
  Box,
  Button,
  Fieldset,
  Grid,
  Group,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useCallback, useMemo, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { useRecipeLabels } from '../recipe-labels';
import {
  copyStep,
  durationProblem,
  isRecipeField,
  newStep,
  plannedCurve,
  recipeFormValues,
  recipeTypeRules,
  recipeTypes,
  stepsForType,
  toRecipeBody,
  type RecipeFormValues,
  type StepFormValue,
} from '../recipe-model';
import { RecipeCurveChart } from './recipe-curve-chart';
import { RecipeImageField } from './recipe-image-field';
import { SortableList } from './sortable-list';
import { StepEditor, stepDurationId } from './step-editor';

/** The messages of `field` and of the fields under it (`set_ids`, `set_ids.3`), joined. */
function messagesUnder(errors: Record<string, unknown>, field: string): string | undefined {
  const text = Object.entries(errors)
    .filter(([key]) => key === field || key.startsWith(`${field}.`))
    .map(([, message]) => (typeof message === 'string' ? message : ''))
    .join(' ');
  return text || undefined;
}

/**
 * The recipe editor of the add page and of a recipe's page: name, device type (those that take
 * recipes), category, description, image, the sets it belongs to, and its steps — put in order by
 * dragging, by the keyboard or by buttons — with the planned temperature curve following every
 * edit. The server's field errors show under the fields (`steps.1.temperature` under step 2's
 * temperature) and under "Please fix the following errors".
 */
export function RecipeForm({
  recipe,
  preset,
  types,
  sets,
  recipes,
  submit,
  onSuccess,
  submitLabel,
}: {
  /** The recipe being edited; none on the add page. */
  recipe?: Recipe;
  /** A new recipe's device type (`?type=` on the add page). */
  preset?: { deviceTypeId?: number };
  types: readonly DeviceType[];
  sets: readonly RecipeSet[];
  /** Every recipe, for the categories already in use. */
  recipes: readonly Recipe[];
  submit: (body: RecipeBody) => Promise<Recipe>;
  onSuccess: (recipe: Recipe) => void;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const labels = useRecipeLabels();
  const { form, onSubmit, submitting, failure } = useApiForm<RecipeFormValues, Recipe>({
    initialValues: recipeFormValues(recipe, types, preset),
    submit: (values) => submit(toRecipeBody(values, types)),
    onSuccess: (saved, changed) => {
      changed.resetDirty();
      onSuccess(saved);
    },
  });
  const { values } = form;

  const typeData = useMemo(
    () => recipeTypes(types).map((type) => ({ value: String(type.id), label: type.name })),
    [types],
  );
  const rules = recipeTypeRules(types.find((type) => String(type.id) === values.device_type_id));
  const setData = useMemo(
    () =>
      sets
        .filter((set) => String(set.device_type_id) === values.device_type_id)
        .map((set) => ({ value: String(set.id), label: set.name })),
    [sets, values.device_type_id],
  );
  const categories = useMemo(
    () =>
      [...new Set(recipes.flatMap((one) => (one.category ? [one.category] : [])))].sort((a, b) =>
        a.localeCompare(b),
      ),
    [recipes],
  );
  const curve = useMemo(() => plannedCurve(values.steps, rules), [values.steps, rules]);
  const getStepId = useCallback((step: StepFormValue) => step.uid, []);

  const changeType = (value: string | null) => {
    form.setFieldValue('device_type_id', value);
    const nextRules = recipeTypeRules(types.find((type) => String(type.id) === value));
    form.setFieldValue('steps', stepsForType(values.steps, nextRules));
    // A set is for one device type.
    const kept = new Set(
      sets.filter((set) => String(set.device_type_id) === value).map((set) => String(set.id)),
    );
    form.setFieldValue(
      'set_ids',
      values.set_ids.filter((id) => kept.has(id)),
    );
  };

  // A time that does not read as one is not sent: the box says why and takes the focus.
  const submitChecked = (event?: FormEvent<HTMLFormElement>) => {
    const wrong = values.steps.findIndex(
      (step) => step.end === 'time' && durationProblem(step.duration_seconds) !== null,
    );
    if (wrong >= 0) {
      event?.preventDefault();
      document.getElementById(stepDurationId(wrong))?.focus();
      return;
    }
    onSubmit(event);
  };

  const shownFields =
    failure?.kind === 'validation'
      ? Object.keys(failure.errors).filter((field) => isRecipeField(field, values.steps.length))
      : [];
  const full = values.steps.length >= MAX_RECIPE_STEPS;

  return (
    <form onSubmit={submitChecked} noValidate>
      <Stack gap="lg">
        <FormFailure failure={failure} fields={shownFields} />
        <Stack gap="md" maw={720}>
          <TextInput
            label={t('Recipe name')}
            name="name"
            required
            maxLength={RECIPE_NAME_MAX_LENGTH}
            {...form.getInputProps('name')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('Device type')}
              name="device_type_id"
              required
              data={typeData}
              nothingFoundMessage={t('Nothing found')}
              description={t('Only the types that take recipes.')}
              placeholder={typeData.length === 0 ? t('Your access role shows no device types.') : undefined}
              disabled={typeData.length === 0}
              {...form.getInputProps('device_type_id')}
              onChange={changeType}
            />
            <Autocomplete
              label={t('Category')}
              name="category"
              description={t('e.g. Poultry, Bakery')}
              data={categories}
              maxLength={RECIPE_CATEGORY_MAX_LENGTH}
              {...form.getInputProps('category')}
            />
          </SimpleGrid>
          <Textarea
            label={t('Description')}
            name="description"
            autosize
            minRows={2}
            maxLength={DESCRIPTION_MAX_LENGTH}
            {...form.getInputProps('description')}
          />
          <RecipeImageField
            imageUrl={values.image_url}
            recipeName={values.name}
            error={typeof form.errors.image === 'string' ? form.errors.image : undefined}
            onChange={(image) => {
              form.setFieldValue('image', image?.image ?? null);
              form.setFieldValue('image_url', image?.url ?? null);
            }}
          />
          <MultiSelect
            label={t('Recipe sets')}
            description={t('The sets of its device type it belongs to.')}
            data={setData}
            value={values.set_ids}
            onChange={(ids) => form.setFieldValue('set_ids', ids)}
            error={messagesUnder(form.errors, 'set_ids')}
            disabled={values.device_type_id === null}
            placeholder={values.device_type_id === null ? t('Choose a device type first') : undefined}
            searchable
            clearable
            nothingFoundMessage={t('Nothing found')}
          />
        </Stack>

        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <Fieldset legend={t('Steps')} variant="unstyled">
              <Stack gap="sm">
                <Text size="sm" c="dimmed">
                  {t(
                    'The device runs the steps in this order. Drag a step by its handle, or focus the handle and use Space and the arrow keys, or the arrow buttons.',
                  )}
                </Text>
                {form.errors.steps && (
                  <Text size="sm" c="red">
                    {form.errors.steps}
                  </Text>
                )}
                <SortableList
                  items={values.steps}
                  getId={getStepId}
                  label={t('Steps')}
                  itemName={(_step, index) => t('step {{number}}', { number: index + 1 })}
                  onMove={(from, to) => form.reorderListItem('steps', { from, to })}
                  renderItem={(step, index, controls) => (
                    <StepEditor
                      form={form}
                      index={index}
                      rules={rules}
                      labels={labels}
                      controls={controls}
                      canDuplicate={!full}
                      onDuplicate={() => form.insertListItem('steps', copyStep(step), index + 1)}
                      onRemove={values.steps.length > 1 ? () => form.removeListItem('steps', index) : null}
                    />
                  )}
                />
                <Group>
                  <Button
                    variant="default"
                    onClick={() => form.insertListItem('steps', newStep(rules, values.steps.at(-1)))}
                    disabled={full}
                  >
                    {t('Add a step')}
                  </Button>
                  {full && (
                    <Text size="sm" c="dimmed">
                      {t('At most {{count}} steps.', { count: MAX_RECIPE_STEPS })}
                    </Text>
                  )}
                </Group>
              </Stack>
            </Fieldset>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <Box pos="sticky" top="var(--mantine-spacing-md)">
              <RecipeCurveChart curve={curve} labels={labels} />
            </Box>
          </Grid.Col>
        </Grid>

        <Group>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
