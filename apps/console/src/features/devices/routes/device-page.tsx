import type { Device, DeviceType } from '@kontrol/contracts';
import { Anchor, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { paths } from '../../../config/paths';
import { useSearchParamsState } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useDevice } from '../api/get-device';
import { ConnectionPanel } from '../components/connection-panel';
import { DashboardPanel } from '../components/dashboard-panel';
import { DeviceStatus } from '../components/device-status';
import { ProblemsPanel } from '../components/problems-panel';
import { ServicePanel } from '../components/service-panel';
import { SettingsPanel } from '../components/settings-panel';
import { useNow } from '../components/use-now';
import { useEquipmentReferences } from '../use-equipment-references';

/** A device's recipes tab: what the recipes feature shows for one device of a type. */
export type DeviceRecipesPanel = ComponentType<{ device: Device; type: DeviceType | undefined }>;

const TABS = ['connection', 'dashboard', 'problems', 'recipes', 'service', 'settings'] as const;
type Tab = (typeof TABS)[number];

/** A route id of digits only, as a number; anything else is no device. */
export function parseId(value: string | undefined): number | null {
  return value && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/**
 * `/account/devices/{id}`: the device's views of docs/contract.md, "Product and areas": Connection, Dashboard, Problems, Recipes
 * (types that take recipes, for holders of the `recipes` module), Service and Settings (`?tab=`).
 * The Recipes tab is the recipes feature's panel, given by `app/routes/device-page.tsx` (features
 * meet only in `app/`); without it the tab is not shown.
 */
export function DevicePage({ RecipesPanel }: { RecipesPanel?: DeviceRecipesPanel }) {
  const { t } = useTranslation();
  const id = parseId(useParams().id);
  const [params, setParams] = useSearchParamsState({ tab: 'connection' });
  const { data: device, isPending, error } = useDevice(id ?? 0);
  const now = useNow();
  const { types } = useEquipmentReferences();
  const user = useCurrentUser();
  const type = types.find((one) => one.id === device?.type_id);
  // Recipes are for the types that hold programs, and their calls need the `recipes` module.
  const hasRecipes =
    RecipesPanel !== undefined &&
    type?.program_capacity != null &&
    user.acl_modules.some((module) => module.slug === 'recipes');
  const requested: Tab = (TABS as readonly string[]).includes(params.tab)
    ? (params.tab as Tab)
    : 'connection';
  const tab: Tab = requested === 'recipes' && !hasRecipes ? 'connection' : requested;

  const back = (
    <Anchor component={Link} to={paths.account.devices.list} size="sm">
      ← {t('All equipment')}
    </Anchor>
  );
  if (id === null || !device) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Device not found')}
        back={back}
      />
    );
  }

  const lastOnline = device.last_online.last_utc;
  return (
    <Stack gap="md">
      {back}
      <Group gap="sm" align="center">
        <Title order={2}>{device.name}</Title>
        <DeviceStatus lastOnlineMs={lastOnline ? Date.parse(lastOnline) : null} now={now} />
      </Group>
      <Tabs
        value={tab}
        onChange={(next) => next && setParams({ tab: next }, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="connection">{t('Connection')}</Tabs.Tab>
          <Tabs.Tab value="dashboard">{t('Overview')}</Tabs.Tab>
          <Tabs.Tab value="problems">{t('Problems')}</Tabs.Tab>
          {hasRecipes && <Tabs.Tab value="recipes">{t('Recipes')}</Tabs.Tab>}
          <Tabs.Tab value="service">{t('Service')}</Tabs.Tab>
          <Tabs.Tab value="settings">{t('Settings')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="connection">
          <ConnectionPanel device={device} />
        </Tabs.Panel>
        <Tabs.Panel value="dashboard">
          {device.is_smart ? (
            <DashboardPanel device={device} type={type} />
          ) : (
            <Text size="sm">
              {t(
                'This device is not smart: set a controller ID or a current template in Settings to connect it.',
              )}
            </Text>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="problems">
          <ProblemsPanel device={device} />
        </Tabs.Panel>
        {hasRecipes && RecipesPanel && (
          <Tabs.Panel value="recipes">
            <RecipesPanel device={device} type={type} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="service">
          <ServicePanel device={device} />
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          {/* Keyed by the device, so another device's page starts from its own values. */}
          <SettingsPanel key={device.id} device={device} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
