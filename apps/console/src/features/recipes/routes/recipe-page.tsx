import { Alert, Anchor, Button, Divider, Group, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { FormFailure } from '../../../components/form-failure';
import { paths } from '../../../config/paths';
import { toApiFailure } from '../../../lib/api-errors';
import { useDeleteRecipe } from '../api/delete-recipe';
import { useDuplicateRecipe } from '../api/duplicate-recipe';
import { useRecipe } from '../api/get-recipe';
import { useUpdateRecipe } from '../api/update-recipe';
import { parseId } from '../../../lib/parse-id';
import { RecipeForm } from '../components/recipe-form';
import { useRecipeReferences } from '../use-recipe-references';

/** `/account/recipes/{id}`: the recipe editor, copying the recipe, and deleting it. */
export function RecipePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = parseId(useParams().id);
  const { data: recipe, isPending, error } = useRecipe(id ?? 0);
  const { recipes, sets, types } = useRecipeReferences();
  const update = useUpdateRecipe(id ?? 0);
  const remove = useDeleteRecipe();
  const duplicate = useDuplicateRecipe();
  const [saved, setSaved] = useState(false);

  const back = (
    <Anchor component={Link} to={paths.account.recipes.list} size="sm">
      ← {t('All recipes')}
    </Anchor>
  );
  if (id === null || !recipe) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Recipe not found')}
        back={back}
      />
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between">
        {back}
        <Button
          variant="default"
          size="compact-sm"
          loading={duplicate.isPending}
          onClick={() =>
            duplicate.mutate(recipe.id, {
              onSuccess: (copy) => void navigate(paths.account.recipes.detail(copy.id)),
            })
          }
        >
          {t('Duplicate')}
        </Button>
      </Group>
      {duplicate.isError && <FormFailure failure={toApiFailure(duplicate.error)} fields={[]} />}
      <Title order={2}>{recipe.name}</Title>
      {saved && (
        <Alert color="green" role="status">
          {t('Saved.')}
        </Alert>
      )}
      <RecipeForm
        // A recipe saved elsewhere (or this one after saving) starts the form afresh.
        key={`${recipe.id}-${recipe.updated_at}`}
        recipe={recipe}
        types={types}
        sets={sets}
        recipes={recipes}
        submit={(body) => {
          setSaved(false);
          return update.mutateAsync(body);
        }}
        onSuccess={() => setSaved(true)}
        submitLabel={t('Save')}
      />
      <Divider />
      <div>
        <ConfirmDeleteButton
          label={t('Delete the recipe')}
          title={t('Delete the recipe «{{name}}»?', { name: recipe.name })}
          message={t(
            'It leaves its sets. A recipe installed on devices cannot be deleted. This cannot be undone.',
          )}
          onConfirm={async () => {
            await remove.mutateAsync(recipe.id);
            await navigate(paths.account.recipes.list, { replace: true });
          }}
        />
      </div>
    </Stack>
  );
}
