import type { Recipe } from '@kontrol/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDeleteModal } from '../../../components/confirm-delete';
import { FormFailure } from '../../../components/form-failure';
import { NoRecords } from '../../../components/no-records';
import { paths } from '../../../config/paths';
import { toApiFailure } from '../../../lib/api-errors';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useDeleteRecipe } from '../api/delete-recipe';
import { useDuplicateRecipe } from '../api/duplicate-recipe';
import { useFormatSpan } from '../recipe-labels';
import { hasCoreSteps, recipeTypes } from '../recipe-model';
import { useRecipeReferences } from '../use-recipe-references';
import classes from './recipes-list.module.css';

/** The recipes view's query-string parameters. */
export const RECIPE_LIST_PARAMS = { q: '', type: '', set: '' } as const;

/**
 * The organisation's recipes from the reference data (no request of its own) as cards — image or a
 * placeholder, name, type, category, total time, steps, sets — filtered by device type and by set
 * and searched by name, category and description; the filters live in the query string. Each card
 * copies its recipe or deletes it after a confirmation (a recipe on devices is refused: the
 * server's message shows in the dialog).
 */
export function RecipesList() {
  const { t } = useTranslation();
  const formatSpan = useFormatSpan();
  const { recipes, sets, types } = useRecipeReferences();
  const [params, setParams] = useSearchParamsState(RECIPE_LIST_PARAMS);
  const [searchText, setSearchText] = useSearchText(params.q, (q) => setParams({ q }, { replace: true }));
  const search = useDeferredValue(searchText).trim().toLocaleLowerCase();
  const remove = useDeleteRecipe();
  const duplicate = useDuplicateRecipe();
  const [deleting, setDeleting] = useState<Recipe | null>(null);
  const [copied, setCopied] = useState<Recipe | null>(null);

  const typeNames = useMemo(() => new Map(types.map((type) => [type.id, type.name])), [types]);
  const setNames = useMemo(() => new Map(sets.map((set) => [set.id, set.name])), [sets]);
  const typeData = useMemo(
    () => recipeTypes(types).map((type) => ({ value: String(type.id), label: type.name })),
    [types],
  );
  const setData = useMemo(
    () =>
      sets
        .filter((set) => !params.type || String(set.device_type_id) === params.type)
        .map((set) => ({ value: String(set.id), label: set.name })),
    [sets, params.type],
  );
  const shown = useMemo(
    () =>
      recipes
        .filter((recipe) => !params.type || String(recipe.device_type_id) === params.type)
        .filter((recipe) => !params.set || recipe.set_ids.some((id) => String(id) === params.set))
        .filter(
          (recipe) =>
            !search ||
            [recipe.name, recipe.category ?? '', recipe.description ?? ''].some((text) =>
              text.toLocaleLowerCase().includes(search),
            ),
        )
        .sort((a, b) => a.name.localeCompare(b.name)),
    [recipes, params.type, params.set, search],
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <Group align="end" gap="sm">
          <TextInput
            label={t('Search recipes')}
            placeholder={t('Name, category or description')}
            type="search"
            value={searchText}
            onChange={(event) => setSearchText(event.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
          <Select
            label={t('Device type')}
            placeholder={t('Any')}
            data={typeData}
            value={params.type || null}
            // Another type: a set of the old one would leave nothing to show.
            onChange={(value) => setParams({ type: value ?? '', set: '' })}
            clearable
            w={{ base: '100%', sm: 220 }}
          />
          <Select
            label={t('Recipe set')}
            placeholder={t('Any')}
            data={setData}
            value={params.set || null}
            onChange={(value) => setParams({ set: value ?? '' })}
            clearable
            searchable
            nothingFoundMessage={t('Nothing found')}
            w={{ base: '100%', sm: 220 }}
          />
        </Group>
        <Button component={Link} to={paths.account.recipes.add}>
          {t('Add recipe')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {t('{{shown}} of {{total}} recipes', { shown: shown.length, total: recipes.length })}
      </Text>
      {copied && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          onClose={() => setCopied(null)}
          closeButtonLabel={t('Close')}
        >
          {t('Copied as')}{' '}
          <Anchor component={Link} to={paths.account.recipes.detail(copied.id)}>
            {copied.name}
          </Anchor>
        </Alert>
      )}
      {duplicate.isError && <FormFailure failure={toApiFailure(duplicate.error)} fields={[]} />}
      {shown.length === 0 ? (
        <NoRecords />
      ) : (
        <SimpleGrid
          component="ul"
          cols={{ base: 1, sm: 2, lg: 3 }}
          className={classes.grid}
          aria-label={t('Recipes')}
        >
          {shown.map((recipe) => (
            <li key={recipe.id}>
              <RecipeCard
                recipe={recipe}
                typeName={typeNames.get(recipe.device_type_id) ?? ''}
                setNames={recipe.set_ids.flatMap((id) => setNames.get(id) ?? [])}
                time={formatSpan(recipe.duration_seconds)}
                copying={duplicate.isPending && duplicate.variables === recipe.id}
                onDuplicate={() => {
                  setCopied(null);
                  duplicate.mutate(recipe.id, { onSuccess: setCopied });
                }}
                onDelete={() => setDeleting(recipe)}
              />
            </li>
          ))}
        </SimpleGrid>
      )}
      <ConfirmDeleteModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('Delete the recipe «{{name}}»?', { name: deleting?.name ?? '' })}
        message={t(
          'It leaves its sets. A recipe installed on devices cannot be deleted. This cannot be undone.',
        )}
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
        }}
      />
    </Stack>
  );
}

function RecipeCard({
  recipe,
  typeName,
  setNames,
  time,
  copying,
  onDuplicate,
  onDelete,
}: {
  recipe: Recipe;
  typeName: string;
  setNames: string[];
  time: string;
  copying: boolean;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const core = hasCoreSteps(recipe);
  return (
    <Card withBorder padding="md" radius="md" className={classes.card}>
      <Card.Section>
        {recipe.image_url ? (
          // The name follows as the card's heading: the image needs no words of its own.
          <Image src={recipe.image_url} alt="" h={140} fit="cover" />
        ) : (
          <div className={classes.placeholder}>
            <Text size="sm" c="dimmed">
              {t('No image')}
            </Text>
          </div>
        )}
      </Card.Section>
      <Stack gap={6} mt="sm" className={classes.body}>
        <Title order={2} size="h5">
          <Anchor component={Link} to={paths.account.recipes.detail(recipe.id)} inherit>
            {recipe.name}
          </Anchor>
        </Title>
        <Text size="sm">{recipe.category ? `${typeName} · ${recipe.category}` : typeName}</Text>
        <Text size="sm" c="dimmed">
          {core ? t('Time: {{time}} and core-probe steps', { time }) : t('Time: {{time}}', { time })}
          {' · '}
          {t('Steps: {{count}}', { count: recipe.steps.length })}
        </Text>
        {setNames.length > 0 ? (
          <Group gap={4} aria-label={t('Sets')} role="list">
            {setNames.map((name) => (
              <Badge key={name} variant="light" color="gray" role="listitem" tt="none">
                {name}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('In no set')}
          </Text>
        )}
      </Stack>
      <Group gap="xs" mt="md">
        <Button
          variant="default"
          size="compact-sm"
          onClick={onDuplicate}
          loading={copying}
          aria-label={t('Duplicate «{{name}}»', { name: recipe.name })}
        >
          {t('Duplicate')}
        </Button>
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          onClick={onDelete}
          aria-label={t('Delete the recipe «{{name}}»', { name: recipe.name })}
        >
          {t('Delete')}
        </Button>
      </Group>
    </Card>
  );
}
