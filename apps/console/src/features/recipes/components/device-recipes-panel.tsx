import type { Device, DeviceType, Recipe, RecipeBind, RecipeSet } from '@kontrol/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDeleteModal } from '../../../components/confirm-delete';
import { FormFailure } from '../../../components/form-failure';
import { NoRecords } from '../../../components/no-records';
import { paths } from '../../../config/paths';
import { toApiFailure } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useDeleteBinds } from '../api/delete-binds';
import { useDeploySet } from '../api/deploy-set';
import { useProgramFiles } from '../api/get-program-files';
import { useUploadStatus } from '../api/get-upload-status';
import { deploymentKeys } from '../api/keys';
import { uploadRecipes, useUploadRecipes } from '../api/upload-recipes';
import { uploadSet, useUploadSet } from '../api/upload-set';
import { STATE_COLOURS, useRecipeLabels } from '../recipe-labels';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';

/** The set a device holds: the server's word, else the set its binds came with. */
function heldSetId(statusSetId: number | null | undefined, binds: readonly RecipeBind[]): number | null {
  if (statusSetId !== undefined) return statusSetId;
  const fromSet = binds.find((bind) => bind.set_id !== null && bind.state !== 'removing');
  return fromSet?.set_id ?? null;
}

/**
 * How the set the device holds differs from the set as it is now (edited after it was installed):
 * its recipes with no bind on the device, and the device's binds of it that left the set.
 */
export function setDrift(set: RecipeSet | undefined, binds: readonly RecipeBind[]) {
  if (!set) return { missing: 0, extra: 0 };
  const inSet = new Set(set.recipe_ids);
  const present = binds.filter((bind) => bind.state !== 'removing');
  const bound = new Set(present.map((bind) => bind.recipe_id));
  return {
    missing: set.recipe_ids.filter((id) => !bound.has(id)).length,
    extra: present.filter((bind) => bind.set_id === set.id && !inSet.has(bind.recipe_id)).length,
  };
}

/**
 * The device's Recipes view (types that take recipes): the set it holds, chosen or replaced here
 * (`POST /devices/{id}/recipe_set/{setId}`; an empty set only after a confirmation), and sent again
 * as it is now when it changed after it was installed (`POST /recipes_sets/upload`); what is bound to it with its version (outdated ones
 * marked) and delivery state, live while anything is under way; removing, downloading and retrying
 * the chosen ones; and single recipes sent on their own.
 */
export function RecipesPanel({ device, type }: { device: Device; type: DeviceType | undefined }) {
  const { t } = useTranslation();
  const labels = useRecipeLabels();
  const user = useCurrentUser();
  const recipes = useReferenceList<Recipe>(user, 'recipes');
  const sets = useReferenceList<RecipeSet>(user, 'recipesSets');
  const { data: status, error, isPending } = useUploadStatus(device.id);
  const binds = useMemo(() => status?.binds ?? [], [status]);
  const recipeById = useMemo(() => new Map(recipes.map((recipe) => [recipe.id, recipe])), [recipes]);
  const setById = useMemo(() => new Map(sets.map((set) => [set.id, set])), [sets]);
  const ofType = useMemo(
    () => sets.filter((set) => set.device_type_id === device.type_id),
    [sets, device.type_id],
  );
  const recipesOfType = useMemo(
    () =>
      recipes
        .filter((recipe) => recipe.device_type_id === device.type_id)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [recipes, device.type_id],
  );
  const held = heldSetId(status?.set_id, binds);
  const heldSet = held === null ? undefined : setById.get(held);

  const [chosenSet, setChosenSet] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [singles, setSingles] = useState<string[]>([]);
  const [removing, setRemoving] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState<unknown>(null);
  const client = useQueryClient();
  const deploy = useDeploySet();
  const sync = useUploadSet();
  const [confirmingEmpty, setConfirmingEmpty] = useState(false);
  const drift = setDrift(heldSet, binds);
  const chosenSetEntry = chosenSet ? setById.get(Number(chosenSet)) : undefined;
  const upload = useUploadRecipes(device.id);
  const remove = useDeleteBinds(device.id);
  const download = useProgramFiles();
  const canReceive = device.controller_id !== null;

  // Binds that went away (removed on the device) leave the selection.
  const present = new Set(binds.map((bind) => bind.id));
  const chosen = [...selected].filter((id) => present.has(id));
  const failed = binds.filter((bind) => bind.state === 'failed');
  const count = (state: RecipeBind['state']) => binds.filter((bind) => bind.state === state).length;

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  /** Failed binds sent again: a set's with its set, single ones as recipes. */
  const retryFailed = async () => {
    setRetrying(true);
    setRetryError(null);
    try {
      const setIds = [...new Set(failed.flatMap((bind) => (bind.set_id === null ? [] : [bind.set_id])))];
      const single = failed.filter((bind) => bind.set_id === null).map((bind) => bind.recipe_id);
      for (const setId of setIds) await uploadSet(device.id, setId);
      if (single.length > 0) await uploadRecipes(device.id, single);
    } catch (caught) {
      setRetryError(caught);
    } finally {
      setRetrying(false);
      // The states changed on the server whatever happened: ask again (and poll while moving).
      await client.invalidateQueries({ queryKey: deploymentKeys.status(device.id) });
    }
  };

  if (!canReceive) {
    return (
      <Alert color="gray">
        {t('This device has no controller: it cannot receive programs. Set its controller ID in Settings.')}
      </Alert>
    );
  }

  return (
    <Stack gap="xl">
      <Stack gap="sm" component="section" aria-labelledby="device-recipe-set">
        <Title order={3} size="h5" id="device-recipe-set">
          {t('Recipe set')}
        </Title>
        <Text size="sm">
          {heldSet ? (
            <>
              {t('The device holds the set')}{' '}
              <Anchor component={Link} to={paths.account.recipes.set(heldSet.id)}>
                {heldSet.name}
              </Anchor>
              .
            </>
          ) : (
            t('The device holds no set.')
          )}
        </Text>
        <Group align="end" gap="sm">
          <Select
            label={heldSet ? t('Replace with the set') : t('Give it the set')}
            data={ofType
              .filter((set) => set.id !== held)
              .map((set) => ({ value: String(set.id), label: set.name }))}
            value={chosenSet}
            onChange={setChosenSet}
            searchable
            placeholder={ofType.length === 0 ? t('No sets of this type') : undefined}
            nothingFoundMessage={t('Nothing found')}
            w={{ base: '100%', sm: 320 }}
          />
          <Button
            disabled={!chosenSet}
            loading={deploy.isPending}
            onClick={() => {
              if (!chosenSet) return;
              // An empty set takes every recipe of the set it holds off the device: asked first.
              if (chosenSetEntry?.recipe_ids.length === 0) {
                setConfirmingEmpty(true);
                return;
              }
              deploy.mutate(
                { deviceId: device.id, setId: Number(chosenSet) },
                { onSuccess: () => setChosenSet(null) },
              );
            }}
          >
            {heldSet ? t('Replace the set') : t('Install the set')}
          </Button>
        </Group>
        {heldSet && (
          <Text size="xs" c="dimmed">
            {t('The recipes of the set it holds now are removed from the device.')}
          </Text>
        )}
        {deploy.isError && <FormFailure failure={toApiFailure(deploy.error)} fields={[]} />}
        {heldSet && !isPending && (drift.missing > 0 || drift.extra > 0) && (
          <Alert color="yellow" title={t('The set changed after it was installed')}>
            <Stack gap="xs" align="flex-start">
              {drift.missing > 0 && (
                <Text size="sm">
                  {t('Recipes of the set not on the device: {{count}}.', { count: drift.missing })}
                </Text>
              )}
              {drift.extra > 0 && (
                <Text size="sm">
                  {t('Recipes on the device no longer in the set: {{count}}.', { count: drift.extra })}
                </Text>
              )}
              <Button
                size="compact-sm"
                loading={sync.isPending}
                onClick={() => sync.mutate({ deviceId: device.id, setId: heldSet.id })}
              >
                {t('Synchronise')}
              </Button>
              {sync.isError && <FormFailure failure={toApiFailure(sync.error)} fields={[]} />}
            </Stack>
          </Alert>
        )}
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="device-recipe-binds">
        <Title order={3} size="h5" id="device-recipe-binds">
          {t('Recipes on the device')}
        </Title>
        {error && !status && <FormFailure failure={toApiFailure(error)} fields={[]} />}
        <Text size="sm" role="status" aria-live="polite">
          {isPending
            ? t('Loading…')
            : t('Installed: {{installed}}, under way: {{moving}}, failed: {{failed}}.', {
                installed: count('installed'),
                moving: count('queued') + count('sending') + count('removing'),
                failed: count('failed'),
              })}
          {type?.program_capacity != null &&
            ` ${t('Programs: {{count}} of {{capacity}}.', { count: binds.length, capacity: type.program_capacity })}`}
        </Text>
        <Group gap="sm">
          <Button
            variant="default"
            disabled={chosen.length === 0}
            loading={download.isPending}
            onClick={() => download.mutate(chosen)}
          >
            {t('Download the program files')}
          </Button>
          <Button
            variant="default"
            disabled={failed.length === 0}
            loading={retrying}
            onClick={() => void retryFailed()}
          >
            {t('Retry the failed ones')}
          </Button>
          <Button
            color="red"
            variant="outline"
            disabled={chosen.length === 0}
            onClick={() => setRemoving(true)}
          >
            {t('Remove from the device')}
          </Button>
        </Group>
        {download.isError && <FormFailure failure={toApiFailure(download.error)} fields={[]} />}
        {retryError !== null && <FormFailure failure={toApiFailure(retryError)} fields={[]} />}
        {binds.length === 0 && !isPending ? (
          <NoRecords />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" aria-label={t('Recipes on the device')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={t('Choose all')}
                      checked={binds.length > 0 && chosen.length === binds.length}
                      indeterminate={chosen.length > 0 && chosen.length < binds.length}
                      onChange={(event) =>
                        setSelected(
                          event.currentTarget.checked ? new Set(binds.map((bind) => bind.id)) : new Set(),
                        )
                      }
                    />
                  </Table.Th>
                  <Table.Th>{t('Recipe')}</Table.Th>
                  <Table.Th>{t('Set')}</Table.Th>
                  <Table.Th>{t('Version')}</Table.Th>
                  <Table.Th>{t('State')}</Table.Th>
                  <Table.Th>{t('Updated')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {binds.map((bind) => {
                  const recipe = recipeById.get(bind.recipe_id);
                  const name = recipe?.name ?? t('Recipe {{id}}', { id: bind.recipe_id });
                  return (
                    <Table.Tr key={bind.id}>
                      <Table.Td>
                        <Checkbox
                          aria-label={t('Choose «{{name}}»', { name })}
                          checked={chosen.includes(bind.id)}
                          onChange={(event) => toggle(bind.id, event.currentTarget.checked)}
                        />
                      </Table.Td>
                      <Table.Td>
                        {recipe ? (
                          <Anchor component={Link} to={paths.account.recipes.detail(recipe.id)} fz="sm">
                            {name}
                          </Anchor>
                        ) : (
                          name
                        )}
                      </Table.Td>
                      <Table.Td>
                        {bind.set_id === null ? t('On its own') : (setById.get(bind.set_id)?.name ?? '')}
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <Text size="sm">{t('v{{version}}', { version: bind.version })}</Text>
                          {bind.outdated && (
                            <Badge color="yellow" variant="light" tt="none">
                              {recipe
                                ? t('Outdated: v{{version}} is newer', { version: recipe.version })
                                : t('Outdated')}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Badge color={STATE_COLOURS[bind.state]} variant="light" tt="none">
                          {labels.state[bind.state]}
                        </Badge>
                        {bind.state === 'failed' && bind.error && (
                          <Text size="xs" c="red">
                            {labels.error[bind.error]}
                          </Text>
                        )}
                        {bind.state === 'queued' && (
                          <Text size="xs" c="dimmed">
                            {labels.queuedHint}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDateTime(bind.updated_at)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="device-recipe-singles">
        <Title order={3} size="h5" id="device-recipe-singles">
          {t('Send single recipes')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('Recipes sent on their own stay on the device beside its set.')}
        </Text>
        <Group align="end" gap="sm">
          <MultiSelect
            label={t('Recipes to send')}
            data={recipesOfType.map((recipe) => ({ value: String(recipe.id), label: recipe.name }))}
            value={singles}
            onChange={setSingles}
            searchable
            clearable
            limit={100}
            nothingFoundMessage={t('Nothing found')}
            w={{ base: '100%', sm: 420 }}
          />
          <Button
            disabled={singles.length === 0}
            loading={upload.isPending}
            onClick={() => upload.mutate(singles.map(Number), { onSuccess: () => setSingles([]) })}
          >
            {t('Send')}
          </Button>
        </Group>
        {upload.isError && <FormFailure failure={toApiFailure(upload.error)} fields={[]} />}
      </Stack>

      <ConfirmDeleteModal
        opened={confirmingEmpty}
        onClose={() => setConfirmingEmpty(false)}
        title={t('Install the empty set «{{name}}»?', { name: chosenSetEntry?.name ?? '' })}
        message={
          heldSet
            ? t('It holds no recipes: the recipes of the set the device holds now are removed from it.')
            : t('It holds no recipes: nothing is installed on the device.')
        }
        confirmLabel={t('Install the set')}
        onConfirm={async () => {
          if (!chosenSet) return;
          await deploy.mutateAsync({ deviceId: device.id, setId: Number(chosenSet) });
          setChosenSet(null);
        }}
      />

      <ConfirmDeleteModal
        opened={removing}
        onClose={() => setRemoving(false)}
        title={t('Remove the chosen recipes from «{{device}}»?', { device: device.name })}
        message={t('The device deletes their programs. Recipes chosen: {{count}}.', { count: chosen.length })}
        confirmLabel={t('Remove')}
        onConfirm={async () => {
          await remove.mutateAsync(chosen);
          setSelected(new Set());
        }}
      />
    </Stack>
  );
}
