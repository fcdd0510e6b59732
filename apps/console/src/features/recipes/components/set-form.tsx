import type { DeviceType, Recipe, RecipeSet, RecipeSetBody } from '@kontrol/contracts';
import { DESCRIPTION_MAX_LENGTH, MAX_SET_RECIPES, SET_NAME_MAX_LENGTH } from '@kontrol/contracts';
import { Button, Fieldset, Group, Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { useFormatSpan } from '../recipe-labels';
import { recipeTypes } from '../recipe-model';
import { SortableList } from './sortable-list';

/** The set editor's fields, named as `recipeSetBodySchema` names them (the server's 422 paths). */
export interface SetFormValues extends Record<string, unknown> {
  name: string;
  description: string;
  device_type_id: string | null;
  /** In the set's order. */
  recipe_ids: string[];
}

function setFormValues(set: RecipeSet | undefined, preset: { deviceTypeId?: number }): SetFormValues {
  const typeId = set?.device_type_id ?? preset.deviceTypeId;
  return {
    name: set?.name ?? '',
    description: set?.description ?? '',
    device_type_id: typeId === undefined ? null : String(typeId),
    recipe_ids: set ? set.recipe_ids.map(String) : [],
  };
}

/** The body of POST /recipes_sets/ and PUT /recipes_sets/{id}: the whole set, recipes in order. */
export function toSetBody(values: SetFormValues): RecipeSetBody {
  return {
    name: values.name,
    description: values.description.trim() || null,
    // None chosen: null, which the server answers with "required" under the field.
    device_type_id: (values.device_type_id ? Number(values.device_type_id) : null) as number,
    recipe_ids: values.recipe_ids.map(Number),
  };
}

/** Whether a server field error shows under one of the set editor's fields. */
export function isSetField(field: string): boolean {
  return ['name', 'description', 'device_type_id'].includes(field) || /^recipe_ids(\.\d+)?$/.test(field);
}

/**
 * The set editor of the add page and of a set's page: name, description, device type (a set is
 * for one type) and its recipes in order — added from the type's recipes, put in order by
 * dragging, the keyboard or buttons, and removed.
 */
export function SetForm({
  set,
  preset = {},
  types,
  recipes,
  submit,
  onSuccess,
  submitLabel,
}: {
  set?: RecipeSet;
  preset?: { deviceTypeId?: number };
  types: readonly DeviceType[];
  recipes: readonly Recipe[];
  submit: (body: RecipeSetBody) => Promise<RecipeSet>;
  onSuccess: (set: RecipeSet) => void;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const formatSpan = useFormatSpan();
  const { form, onSubmit, submitting, failure } = useApiForm<SetFormValues, RecipeSet>({
    initialValues: setFormValues(set, preset),
    submit: (values) => submit(toSetBody(values)),
    onSuccess: (saved, changed) => {
      changed.resetDirty();
      onSuccess(saved);
    },
  });
  const { values } = form;
  const [adding, setAdding] = useState<string | null>(null);

  const typeData = useMemo(
    () => recipeTypes(types).map((type) => ({ value: String(type.id), label: type.name })),
    [types],
  );
  const byId = useMemo(() => new Map(recipes.map((recipe) => [String(recipe.id), recipe])), [recipes]);
  const addable = useMemo(() => {
    const chosen = new Set(values.recipe_ids);
    return recipes
      .filter(
        (recipe) => String(recipe.device_type_id) === values.device_type_id && !chosen.has(String(recipe.id)),
      )
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((recipe) => ({ value: String(recipe.id), label: recipe.name }));
  }, [recipes, values.device_type_id, values.recipe_ids]);
  const getId = useCallback((id: string) => id, []);
  const nameOf = (id: string) => byId.get(id)?.name ?? t('Recipe {{id}}', { id });

  const changeType = (value: string | null) => {
    form.setFieldValue('device_type_id', value);
    // Recipes of another type cannot be in the set.
    form.setFieldValue(
      'recipe_ids',
      values.recipe_ids.filter((id) => String(byId.get(id)?.device_type_id) === value),
    );
  };
  const add = () => {
    if (!adding) return;
    form.insertListItem('recipe_ids', adding);
    setAdding(null);
  };

  const shownFields = failure?.kind === 'validation' ? Object.keys(failure.errors).filter(isSetField) : [];
  const recipesError = Object.entries(form.errors)
    .filter(([key]) => key === 'recipe_ids' || key.startsWith('recipe_ids.'))
    .map(([, message]) => (typeof message === 'string' ? message : ''))
    .join(' ');

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="lg" maw={720}>
        <FormFailure failure={failure} fields={shownFields} />
        <TextInput
          label={t('Set name')}
          name="name"
          required
          maxLength={SET_NAME_MAX_LENGTH}
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
        <Select
          label={t('Device type')}
          name="device_type_id"
          required
          data={typeData}
          description={t('A set is what a device of this type holds.')}
          placeholder={typeData.length === 0 ? t('Your access role shows no device types.') : undefined}
          disabled={typeData.length === 0}
          {...form.getInputProps('device_type_id')}
          onChange={changeType}
        />
        <Fieldset legend={t('Recipes of the set')} variant="unstyled">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('The device lists them in this order.')}
            </Text>
            {recipesError && (
              <Text size="sm" c="red">
                {recipesError}
              </Text>
            )}
            {values.recipe_ids.length === 0 ? (
              <Text size="sm" role="status">
                {t('No recipes in the set yet.')}
              </Text>
            ) : (
              <SortableList
                items={values.recipe_ids}
                getId={getId}
                label={t('Recipes of the set')}
                itemName={(id) => `«${nameOf(id)}»`}
                onMove={(from, to) => form.reorderListItem('recipe_ids', { from, to })}
                renderItem={(id, index, controls) => {
                  const recipe = byId.get(id);
                  return (
                    <Paper withBorder p="xs" radius="sm">
                      <Group justify="space-between" wrap="nowrap" gap="sm">
                        <Group gap="xs" wrap="nowrap">
                          {controls.handle}
                          {controls.moves}
                          <Text size="sm" fw={500}>
                            {index + 1}. {nameOf(id)}
                          </Text>
                          {recipe && (
                            <Text size="xs" c="dimmed">
                              {formatSpan(recipe.duration_seconds)}
                            </Text>
                          )}
                        </Group>
                        <Button
                          variant="subtle"
                          color="red"
                          size="compact-sm"
                          onClick={() => form.removeListItem('recipe_ids', index)}
                          aria-label={t('Remove «{{name}}» from the set', { name: nameOf(id) })}
                        >
                          {t('Remove')}
                        </Button>
                      </Group>
                    </Paper>
                  );
                }}
              />
            )}
            <Group align="end" gap="sm">
              <Select
                label={t('Recipe to add')}
                data={addable}
                value={adding}
                onChange={setAdding}
                searchable
                limit={100}
                disabled={values.device_type_id === null || values.recipe_ids.length >= MAX_SET_RECIPES}
                placeholder={
                  values.device_type_id === null
                    ? t('Choose a device type first')
                    : addable.length === 0
                      ? t('No other recipes of this type')
                      : undefined
                }
                nothingFoundMessage={t('Nothing found')}
                w={{ base: '100%', sm: 320 }}
              />
              <Button variant="default" onClick={add} disabled={!adding}>
                {t('Add to the set')}
              </Button>
            </Group>
          </Stack>
        </Fieldset>
        <Group>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
