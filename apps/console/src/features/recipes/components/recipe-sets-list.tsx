import type { RecipeSet } from '@kontrol/contracts';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDeferredValue, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { paths } from '../../../config/paths';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useRecipeReferences } from '../use-recipe-references';

/** The sets view's query-string parameters (besides `view=sets`). */
export const SET_LIST_PARAMS = { q: '' } as const;

/**
 * The organisation's recipe sets from the reference data (docs/contract.md, "Product and areas"), searched by name and
 * description: each with its device type and how many recipes it holds, linking to its page.
 */
export function RecipeSetsList() {
  const { t } = useTranslation();
  const { sets, types } = useRecipeReferences();
  const [params, setParams] = useSearchParamsState(SET_LIST_PARAMS);
  const [searchText, setSearchText] = useSearchText(params.q, (q) => setParams({ q }, { replace: true }));
  const search = useDeferredValue(searchText).trim().toLocaleLowerCase();
  const typeNames = useMemo(() => new Map(types.map((type) => [type.id, type.name])), [types]);
  const rows = useMemo(
    () =>
      sets
        .filter(
          (set) =>
            !search ||
            set.name.toLocaleLowerCase().includes(search) ||
            (set.description ?? '').toLocaleLowerCase().includes(search),
        )
        .sort((a, b) => a.name.localeCompare(b.name)),
    [sets, search],
  );
  const columns = useMemo<DataTableColumn<RecipeSet>[]>(
    () => [
      {
        id: 'name',
        header: t('Set name'),
        width: 'minmax(12rem, 2fr)',
        cell: (set) => (
          <Anchor component={Link} to={paths.account.recipes.set(set.id)} fz="sm">
            {set.name}
          </Anchor>
        ),
      },
      {
        id: 'type',
        header: t('Device type'),
        width: 'minmax(10rem, 1.5fr)',
        cell: (set) => typeNames.get(set.device_type_id) ?? '',
      },
      {
        id: 'recipes',
        header: t('Recipes'),
        width: '8rem',
        align: 'end',
        cell: (set) => set.recipe_ids.length,
      },
      {
        id: 'description',
        header: t('Description'),
        width: 'minmax(12rem, 3fr)',
        cell: (set) => set.description ?? '',
      },
    ],
    [t, typeNames],
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <TextInput
          label={t('Search sets')}
          type="search"
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={{ base: '100%', sm: 360 }}
        />
        <Button component={Link} to={paths.account.recipes.setAdd}>
          {t('Add recipe set')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {t('{{shown}} of {{total}} sets', { shown: rows.length, total: sets.length })}
      </Text>
      <DataTable data={rows} columns={columns} getRowId={(set) => String(set.id)} label={t('Recipe sets')} />
    </Stack>
  );
}
