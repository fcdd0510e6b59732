import { Alert, Anchor, Button, Divider, Group, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { paths } from '../../../config/paths';
import { useDeleteRecipeSet } from '../api/delete-recipe-set';
import { useRecipeSet } from '../api/get-recipe-set';
import { useUpdateRecipeSet } from '../api/update-recipe-set';
import { DeployDialog } from '../components/deploy-dialog';
import { parseId } from '../../../lib/parse-id';
import { SetForm } from '../components/set-form';
import { useRecipeReferences } from '../use-recipe-references';

/** `/account/recipes/sets/{id}`: the set editor, deploying the set to devices, and deleting it. */
export function SetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = parseId(useParams().id);
  const { data: set, isPending, error } = useRecipeSet(id ?? 0);
  const { recipes, types, devices } = useRecipeReferences();
  const update = useUpdateRecipeSet(id ?? 0);
  const remove = useDeleteRecipeSet();
  const [saved, setSaved] = useState(false);
  const [deploying, { open: openDeploy, close: closeDeploy }] = useDisclosure(false);

  const back = (
    <Anchor component={Link} to={paths.account.recipes.sets} size="sm">
      ← {t('All recipe sets')}
    </Anchor>
  );
  if (id === null || !set) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Recipe set not found')}
        back={back}
      />
    );
  }

  return (
    <Stack gap="md">
      {back}
      <Group justify="space-between" align="center">
        <Title order={2}>{set.name}</Title>
        <Button onClick={openDeploy}>{t('Deploy to devices')}</Button>
      </Group>
      {saved && (
        <Alert color="green" role="status">
          {t('Saved.')}
        </Alert>
      )}
      <SetForm
        key={`${set.id}-${set.updated_at}`}
        set={set}
        types={types}
        recipes={recipes}
        submit={(body) => {
          setSaved(false);
          return update.mutateAsync(body);
        }}
        onSuccess={() => setSaved(true)}
        submitLabel={t('Save')}
      />
      <DeployDialog opened={deploying} onClose={closeDeploy} set={set} devices={devices} recipes={recipes} />
      <Divider />
      <div>
        <ConfirmDeleteButton
          label={t('Delete the set')}
          title={t('Delete the set «{{name}}»?', { name: set.name })}
          message={t('Its recipes stay. This cannot be undone.')}
          onConfirm={async () => {
            await remove.mutateAsync(set.id);
            await navigate(paths.account.recipes.sets, { replace: true });
          }}
        />
      </div>
    </Stack>
  );
}
