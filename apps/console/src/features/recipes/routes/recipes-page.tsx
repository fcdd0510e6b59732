import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { RecipeSetsList } from '../components/recipe-sets-list';
import { RecipesList } from '../components/recipes-list';

/**
 * `/account/recipes`: the recipes as cards, and with `?view=sets` the recipe sets (docs/contract.md, "Screens and routes" names
 * `recipes/sets/add` and `recipes/sets/{id}` but no sets list: it is a view of this page, as the
 * groups are of the devices page). Each view keeps its own search and filters in the query
 * string; switching views starts the other afresh.
 */
export function RecipesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const view = searchParams.get('view') === 'sets' ? 'sets' : 'recipes';
  return (
    <Tabs
      value={view}
      onChange={(next) => {
        if (next && next !== view) {
          void navigate(next === 'sets' ? paths.account.recipes.sets : paths.account.recipes.list);
        }
      }}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="recipes">{t('Recipes')}</Tabs.Tab>
        <Tabs.Tab value="sets">{t('Recipe sets')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="recipes">
        <RecipesList />
      </Tabs.Panel>
      <Tabs.Panel value="sets">
        <RecipeSetsList />
      </Tabs.Panel>
    </Tabs>
  );
}
