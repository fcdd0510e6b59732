import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import { TemplatesList } from '../../features/event-templates/components/templates-list';
import { EventsList } from '../../features/events/components/events-list';

/**
 * `/account/device_event_templates`: the current templates, and with `?tab=events` the device
 * events they raise. Two features on one screen (docs/contract.md, "Screens and routes" has no events list route of its own), so
 * the screen is composed here. Each tab keeps its own search and filters in the query string;
 * switching tabs starts the other afresh.
 */
export function DeviceEventTemplatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const tab = searchParams.get('tab') === 'events' ? 'events' : 'templates';
  return (
    <Tabs
      value={tab}
      onChange={(next) => {
        if (next && next !== tab) {
          void navigate(
            next === 'events'
              ? paths.account.deviceEventTemplates.events()
              : paths.account.deviceEventTemplates.list,
          );
        }
      }}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="templates">{t('Templates')}</Tabs.Tab>
        <Tabs.Tab value="events">{t('Events')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="templates">
        <TemplatesList />
      </Tabs.Panel>
      <Tabs.Panel value="events">
        <EventsList />
      </Tabs.Panel>
    </Tabs>
  );
}
