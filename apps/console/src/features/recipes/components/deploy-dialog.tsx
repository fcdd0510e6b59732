import type { Device, DeviceGroup, Recipe, RecipeSet } from '@kontrol/contracts';
import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Modal,
  MultiSelect,
  Paper,
  Progress,
  Radio,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { useDeviceGroups } from '../../../lib/device-groups/get-device-groups';
import { useDeploySet } from '../api/deploy-set';
import { useUploadStatus } from '../api/get-upload-status';
import { useUploadSet } from '../api/upload-set';
import { STATE_COLOURS, useRecipeLabels } from '../recipe-labels';

/** How long after a deployment an empty delivery is asked about again (the server may bind late). */
const AWAIT_BINDS_MS = 30_000;

/** Devices given the set at the same time. */
const DEPLOY_CONCURRENCY = 4;

/** What became of the request to give a device the set. */
type Outcome = { ok: true } | { ok: false; failure: ApiFailure };

/** The devices that can take a set: of its type, with a controller to receive programs. */
export function devicesForSet(devices: readonly Device[], set: Pick<RecipeSet, 'device_type_id'>): Device[] {
  return devices
    .filter((device) => device.type_id === set.device_type_id && device.controller_id !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Deploying a set: choose devices (the smart devices of the set's type) or a device group, then
 * `POST /devices/{id}/recipe_set/{setId}` for each, then each device's delivery live (asked every
 * 2 s while anything is queued or sending, until all is installed or failed, or the dialog
 * closes), its states and failures in words, and a retry (`POST /recipes_sets/upload`) for a
 * device with failures.
 */
export function DeployDialog({
  opened,
  onClose,
  set,
  devices,
  recipes,
}: {
  opened: boolean;
  onClose: () => void;
  set: RecipeSet;
  devices: readonly Device[];
  recipes: readonly Recipe[];
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('Deploy «{{name}}»', { name: set.name })}
      size="lg"
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {/* Mounted only while open: closing the dialog ends its polling. */}
      {opened && <DeployFlow set={set} devices={devices} recipes={recipes} onClose={onClose} />}
    </Modal>
  );
}

function DeployFlow({
  set,
  devices,
  recipes,
  onClose,
}: {
  set: RecipeSet;
  devices: readonly Device[];
  recipes: readonly Recipe[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const eligible = useMemo(() => devicesForSet(devices, set), [devices, set]);
  const [target, setTarget] = useState<'devices' | 'group'>('devices');
  const [chosen, setChosen] = useState<string[]>([]);
  const [group, setGroup] = useState<DeviceGroup | null>(null);
  const [outcomes, setOutcomes] = useState<Map<number, Outcome> | null>(null);
  const [deployedAt, setDeployedAt] = useState(0);
  const [sending, setSending] = useState(false);
  const deploy = useDeploySet();

  const targets = useMemo(() => {
    if (target === 'devices') return eligible.filter((device) => chosen.includes(String(device.id)));
    const members = new Set(group?.device_ids ?? []);
    return eligible.filter((device) => members.has(device.id));
  }, [target, eligible, chosen, group]);

  const start = async () => {
    setSending(true);
    const results: [number, Outcome][] = [];
    const queue = [...targets];
    // A few at a time: a group of hundreds of devices must not open hundreds of requests at once.
    const worker = async () => {
      for (let device = queue.shift(); device; device = queue.shift()) {
        try {
          await deploy.mutateAsync({ deviceId: device.id, setId: set.id });
          results.push([device.id, { ok: true }]);
        } catch (error) {
          results.push([device.id, { ok: false, failure: toApiFailure(error) }]);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(DEPLOY_CONCURRENCY, queue.length) }, worker));
    setDeployedAt(Date.now());
    setOutcomes(new Map(results));
    setSending(false);
  };

  if (outcomes) {
    const shown = eligible.filter((device) => outcomes.has(device.id));
    return (
      <Stack gap="md">
        <Text size="sm">
          {t('The devices fetch the set’s programs and report back. This updates by itself.')}
        </Text>
        {shown.map((device) => (
          <DeviceDelivery
            key={device.id}
            device={device}
            set={set}
            recipes={recipes}
            outcome={outcomes.get(device.id) ?? { ok: true }}
            awaitBindsUntil={deployedAt + AWAIT_BINDS_MS}
          />
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOutcomes(null)}>
            {t('Deploy to other devices')}
          </Button>
          <Button onClick={onClose}>{t('Done')}</Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {set.recipe_ids.length === 0 && (
        <Alert color="yellow">{t('The set holds no recipe: the devices will hold none of it.')}</Alert>
      )}
      <Radio.Group
        label={t('Deploy to')}
        value={target}
        onChange={(value) => setTarget(value === 'group' ? 'group' : 'devices')}
      >
        <Group gap="md" mt={6}>
          <Radio value="devices" label={t('Chosen devices')} />
          <Radio value="group" label={t('A device group')} />
        </Group>
      </Radio.Group>
      {target === 'devices' ? (
        <MultiSelect
          label={t('Devices to deploy to')}
          description={t('Devices of the set’s type with a controller.')}
          data={eligible.map((device) => ({ value: String(device.id), label: device.name }))}
          value={chosen}
          onChange={setChosen}
          searchable
          clearable
          limit={100}
          placeholder={eligible.length === 0 ? t('No devices of this type with a controller') : undefined}
          disabled={eligible.length === 0}
          nothingFoundMessage={t('Nothing found')}
        />
      ) : (
        <GroupPicker group={group} onChange={setGroup} />
      )}
      {target === 'group' && group && (
        <Text size="sm" role="status">
          {t('{{count}} of the group’s {{total}} devices can take this set.', {
            count: targets.length,
            total: group.device_ids.length,
          })}
          {targets.length > 0 && ` ${targets.map((device) => device.name).join(', ')}.`}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button onClick={() => void start()} loading={sending} disabled={targets.length === 0}>
          {targets.length > 0 ? t('Deploy to devices: {{count}}', { count: targets.length }) : t('Deploy')}
        </Button>
      </Group>
    </Stack>
  );
}

/** A device group, searched by name on the server (groups are paged). */
function GroupPicker({
  group,
  onChange,
}: {
  group: DeviceGroup | null;
  onChange: (group: DeviceGroup | null) => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  // The box shows the chosen group's name: that is no search.
  const { data, isError } = useDeviceGroups({ page: 1, search: debounced === group?.name ? '' : debounced });
  const groups = useMemo(() => {
    const found = data?.data ?? [];
    return group && !found.some((one) => one.id === group.id) ? [group, ...found] : found;
  }, [data, group]);
  return (
    <Select
      label={t('Device group')}
      data={groups.map((one) => ({ value: String(one.id), label: one.name }))}
      value={group ? String(group.id) : null}
      onChange={(value) => onChange(groups.find((one) => String(one.id) === value) ?? null)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      clearable
      nothingFoundMessage={t('Nothing found')}
      error={isError ? t('The groups could not be loaded.') : undefined}
    />
  );
}

/**
 * One device's delivery of the set: how much is installed, each recipe's state in words, and a
 * retry for failures; or why the device could not be given the set.
 */
function DeviceDelivery({
  device,
  set,
  recipes,
  outcome,
  awaitBindsUntil,
}: {
  device: Device;
  set: RecipeSet;
  recipes: readonly Recipe[];
  outcome: Outcome;
  awaitBindsUntil: number;
}) {
  const { t } = useTranslation();
  const labels = useRecipeLabels();
  const headingId = useId();
  const { data, error } = useUploadStatus(outcome.ok ? device.id : 0, {
    select: (bind) => bind.set_id === set.id,
    awaitBindsUntil,
  });
  const retry = useUploadSet();
  const names = useMemo(() => new Map(recipes.map((recipe) => [recipe.id, recipe.name])), [recipes]);
  const binds = useMemo(
    () =>
      (data?.binds ?? [])
        .filter((bind) => bind.set_id === set.id)
        .sort((a, b) => set.recipe_ids.indexOf(a.recipe_id) - set.recipe_ids.indexOf(b.recipe_id)),
    [data, set],
  );
  const installed = binds.filter((bind) => bind.state === 'installed').length;
  const failed = binds.filter((bind) => bind.state === 'failed').length;
  const moving = binds.length - installed - failed;
  const percent = binds.length === 0 ? 0 : Math.round((installed / binds.length) * 100);

  let summary: string;
  if (!outcome.ok) summary = t('The device was not given the set.');
  else if (!data) summary = t('Loading…');
  else if (binds.length === 0) summary = t('Nothing to deliver yet.');
  else if (moving > 0)
    summary = t('Installed: {{done}} of {{total}}; under way…', { done: installed, total: binds.length });
  else if (failed > 0)
    summary = t('Installed: {{done}} of {{total}}; failed: {{failed}}.', {
      done: installed,
      total: binds.length,
      failed,
    });
  else summary = t('All {{total}} installed.', { total: binds.length });

  return (
    <Paper withBorder p="sm" radius="sm" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h6" id={headingId}>
            {device.name}
          </Title>
          {outcome.ok && failed > 0 && (
            <Button
              size="compact-sm"
              variant="light"
              loading={retry.isPending}
              onClick={() => retry.mutate({ deviceId: device.id, setId: set.id })}
              aria-label={t('Retry on «{{device}}»', { device: device.name })}
            >
              {t('Retry')}
            </Button>
          )}
        </Group>
        {!outcome.ok && <FormFailure failure={outcome.failure} fields={[]} />}
        {error && !data && <FormFailure failure={toApiFailure(error)} fields={[]} />}
        {retry.isError && <FormFailure failure={toApiFailure(retry.error)} fields={[]} />}
        <Text size="sm" role="status" aria-live="polite">
          {summary}
        </Text>
        {outcome.ok && binds.length > 0 && (
          <>
            <Progress
              value={percent}
              color={failed > 0 ? 'red' : 'green'}
              aria-label={t('Delivery to «{{device}}»', { device: device.name })}
            />
            <List
              size="sm"
              spacing={4}
              listStyleType="none"
              aria-label={t('Recipes on «{{device}}»', { device: device.name })}
            >
              {binds.map((bind) => (
                <List.Item key={bind.id}>
                  <Group gap="xs" wrap="nowrap" align="start">
                    <Badge color={STATE_COLOURS[bind.state]} variant="light" tt="none" miw={96}>
                      {labels.state[bind.state]}
                    </Badge>
                    <Text size="sm">
                      {names.get(bind.recipe_id) ?? t('Recipe {{id}}', { id: bind.recipe_id })}
                      {bind.state === 'failed' && bind.error && (
                        <Text span size="sm" c="red">
                          {' — '}
                          {labels.error[bind.error]}
                        </Text>
                      )}
                      {bind.state === 'queued' && (
                        <Text span size="sm" c="dimmed">
                          {' — '}
                          {labels.queuedHint}
                        </Text>
                      )}
                    </Text>
                  </Group>
                </List.Item>
              ))}
            </List>
          </>
        )}
      </Stack>
    </Paper>
  );
}
