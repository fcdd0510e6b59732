import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParamsState } from '../../../lib/use-search-params-state';
import { NotificationsPanel } from '../components/notifications-panel';
import { TelemetryPanel } from '../components/telemetry-panel';
import { TemperatureReportPanel } from '../components/temperature-report-panel';

const TABS = ['telemetry', 'temperature', 'notifications'] as const;
type Tab = (typeof TABS)[number];

/**
 * `/account/telemetry` (docs/contract.md, "Screens and routes": tabs for telemetry and notifications; docs/telemetry.md, "The
 * telemetry page"), with the temperature report between them. The tab is in the query string
 * (`?tab=notifications`), and so is each tab's own state, so a link or a reload shows the same view.
 */
export function TelemetryPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParamsState({ tab: 'telemetry' });
  const tab: Tab = (TABS as readonly string[]).includes(params.tab) ? (params.tab as Tab) : 'telemetry';
  return (
    <Tabs
      value={tab}
      onChange={(next) => next && next !== tab && setParams({ tab: next })}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="telemetry">{t('Telemetry')}</Tabs.Tab>
        <Tabs.Tab value="temperature">{t('Temperature report')}</Tabs.Tab>
        <Tabs.Tab value="notifications">{t('Notifications')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="telemetry">
        <TelemetryPanel />
      </Tabs.Panel>
      <Tabs.Panel value="temperature">
        <TemperatureReportPanel />
      </Tabs.Panel>
      <Tabs.Panel value="notifications">
        <NotificationsPanel />
      </Tabs.Panel>
    </Tabs>
  );
}
