import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { useCreateRecipe } from '../api/create-recipe';
import { RecipeForm } from '../components/recipe-form';
import { recipeTypes } from '../recipe-model';
import { useRecipeReferences } from '../use-recipe-references';

/** `/account/recipes/add` (`?type=` preselects a device type); then the recipe's page opens. */
export function RecipeAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { recipes, sets, types } = useRecipeReferences();
  const create = useCreateRecipe();
  const presetType = Number(searchParams.get('type'));

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account.recipes.list} size="sm">
        ← {t('All recipes')}
      </Anchor>
      <RecipeForm
        preset={{
          deviceTypeId: recipeTypes(types).some((type) => type.id === presetType) ? presetType : undefined,
        }}
        types={types}
        sets={sets}
        recipes={recipes}
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(recipe) => void navigate(paths.account.recipes.detail(recipe.id), { replace: true })}
        submitLabel={t('Add recipe')}
      />
    </Stack>
  );
}
