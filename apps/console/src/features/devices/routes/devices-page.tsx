import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { DevicesList } from '../components/devices-list';
import { GroupsList } from '../components/groups-list';

/**
 * `/account/devices`: the devices list, and with `?view=groups` the groups list. Each view keeps
 * its own search, filters and sort in the query string; switching views starts the other afresh.
 */
export function DevicesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const view = searchParams.get('view') === 'groups' ? 'groups' : 'devices';
  return (
    <Tabs
      value={view}
      onChange={(next) => {
        if (next && next !== view) {
          void navigate(next === 'groups' ? paths.account.devices.groups : paths.account.devices.list);
        }
      }}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="devices">{t('All devices')}</Tabs.Tab>
        <Tabs.Tab value="groups">{t('Groups')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="devices">
        <DevicesList />
      </Tabs.Panel>
      <Tabs.Panel value="groups">
        <GroupsList />
      </Tabs.Panel>
    </Tabs>
  );
}
