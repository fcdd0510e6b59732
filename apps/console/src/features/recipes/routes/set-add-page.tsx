import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { useCreateRecipeSet } from '../api/create-recipe-set';
import { SetForm } from '../components/set-form';
import { recipeTypes } from '../recipe-model';
import { useRecipeReferences } from '../use-recipe-references';

/** `/account/recipes/sets/add` (`?type=` preselects a device type); then the set's page opens. */
export function SetAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { recipes, types } = useRecipeReferences();
  const create = useCreateRecipeSet();
  const presetType = Number(searchParams.get('type'));

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account.recipes.sets} size="sm">
        ← {t('All recipe sets')}
      </Anchor>
      <SetForm
        preset={{
          deviceTypeId: recipeTypes(types).some((type) => type.id === presetType) ? presetType : undefined,
        }}
        types={types}
        recipes={recipes}
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(set) => void navigate(paths.account.recipes.set(set.id), { replace: true })}
        submitLabel={t('Add recipe set')}
      />
    </Stack>
  );
}
