import {
  EVENT_KINDS,
  EVENT_SEVERITIES,
  type Device,
  type DeviceEvent,
  type DeviceEventTemplate,
  type EventKind,
  type EventSeverity,
} from '@kontrol/contracts';
import { Anchor, Badge, Button, Group, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import { formatDateTime, intlLocale } from '../../../lib/format';
import { useSearchParamsState } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useDeviceEvents, type DeviceEventFilters } from '../../../lib/device-events/get-device-events';
import { useLiveDeviceEvents } from '../api/use-live-device-events';
import { useEventLabels } from '../event-labels';
import { AcknowledgeModal } from './acknowledge-modal';
import { SeverityMark } from './severity-mark';

/** The events list's query string; `''` means "any". */
export const EVENT_LIST_PARAMS = {
  severity: '',
  kind: '',
  device: '',
  template: '',
  open: '',
  unack: '',
  page: '1',
} as const;
type EventListParams = Record<keyof typeof EVENT_LIST_PARAMS, string>;

const positiveId = (value: string) => {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
};

export function eventFiltersOf(params: EventListParams): DeviceEventFilters {
  return {
    severity: (EVENT_SEVERITIES as readonly string[]).includes(params.severity)
      ? (params.severity as EventSeverity)
      : null,
    kind: (EVENT_KINDS as readonly string[]).includes(params.kind) ? (params.kind as EventKind) : null,
    device: positiveId(params.device),
    template: positiveId(params.template),
    openOnly: params.open === '1',
    unacknowledgedOnly: params.unack === '1',
  };
}

/**
 * Device events, newest first, a page at a time from the server (GET /devices/events with page
 * and filters), filtered by severity, kind, device, template, open and unacknowledged, all kept
 * in the query string, and read again as the live-updates stream reports events. Unacknowledged
 * events are acknowledged from the list, with a comment.
 */
export function EventsList() {
  const { t } = useTranslation();
  const labels = useEventLabels();
  const user = useCurrentUser();
  const devices = useReferenceList<Device>(user, 'devices');
  const templates = useReferenceList<DeviceEventTemplate>(user, 'deviceEventTemplates');
  const [params, setParams] = useSearchParamsState(EVENT_LIST_PARAMS);
  const page = positiveId(params.page) ?? 1;
  const filters = useMemo(() => eventFiltersOf(params), [params]);
  const query = useDeviceEvents({ page, filters });
  const { data } = query;
  useLiveDeviceEvents();
  const [acknowledging, setAcknowledging] = useState<DeviceEvent | null>(null);

  const names = useMemo(() => new Map(devices.map((device) => [device.id, device.name])), [devices]);
  const deviceName = useCallback((id: number) => names.get(id) ?? t('Device #{{id}}', { id }), [names, t]);
  const deviceOptions = useMemo(
    () => devices.map((device) => ({ value: String(device.id), label: device.name })),
    [devices],
  );
  const templateOptions = useMemo(
    () => templates.map((template) => ({ value: String(template.id), label: template.name })),
    [templates],
  );
  const columns = useMemo<DataTableColumn<DeviceEvent>[]>(() => {
    return [
      {
        id: 'started_at',
        header: t('Started'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) => formatDateTime(row.started_at),
      },
      {
        id: 'title',
        header: t('Event'),
        width: 'minmax(10rem, 2.5fr)',
        cell: (row) => (
          <Anchor
            component={Link}
            to={paths.account.deviceEventTemplates.event(row.id)}
            fz="sm"
            title={row.title}
          >
            {row.title}
          </Anchor>
        ),
      },
      {
        id: 'device',
        header: t('Device'),
        width: 'minmax(8rem, 1.5fr)',
        cell: (row) => deviceName(row.device_id),
      },
      {
        id: 'kind',
        header: t('Kind'),
        width: 'minmax(8rem, 1.5fr)',
        cell: (row) => labels.kind[row.kind],
      },
      {
        id: 'severity',
        header: t('Severity'),
        width: 'minmax(7.5rem, 1fr)',
        cell: (row) => <SeverityMark severity={row.severity} />,
      },
      {
        id: 'ended_at',
        header: t('Ended'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) =>
          row.ended_at === null ? (
            <Badge color="red" variant="light">
              {t('Open')}
            </Badge>
          ) : (
            formatDateTime(row.ended_at)
          ),
      },
      {
        id: 'acknowledged',
        header: t('Acknowledged'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) =>
          row.acknowledged ? (
            <span title={row.acknowledged.comment ?? undefined}>{row.acknowledged.by?.name ?? t('Yes')}</span>
          ) : (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => setAcknowledging(row)}
              aria-label={t('Acknowledge «{{title}}» of {{device}}', {
                title: row.title,
                device: deviceName(row.device_id),
              })}
            >
              {t('Acknowledge')}
            </Button>
          ),
      },
    ];
  }, [t, labels, deviceName]);

  const filtered = Object.entries(params).some(
    ([key, value]) => key !== 'page' && value !== EVENT_LIST_PARAMS[key as keyof EventListParams],
  );

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <Select
          label={t('Severity')}
          placeholder={t('All')}
          data={EVENT_SEVERITIES.map((value) => ({ value, label: labels.severity[value] }))}
          value={params.severity || null}
          onChange={(value) => setParams({ severity: value ?? '', page: '1' })}
          clearable
        />
        <Select
          label={t('Kind')}
          placeholder={t('All')}
          data={EVENT_KINDS.map((value) => ({ value, label: labels.kind[value] }))}
          value={params.kind || null}
          onChange={(value) => setParams({ kind: value ?? '', page: '1' })}
          clearable
        />
        <Select
          label={t('Device')}
          placeholder={t('All')}
          data={deviceOptions}
          value={params.device || null}
          onChange={(value) => setParams({ device: value ?? '', page: '1' })}
          clearable
          searchable
          limit={100}
          nothingFoundMessage={t('Nothing found')}
        />
        <Select
          label={t('Template')}
          placeholder={t('All')}
          data={templateOptions}
          value={params.template || null}
          onChange={(value) => setParams({ template: value ?? '', page: '1' })}
          clearable
          searchable
          nothingFoundMessage={t('Nothing found')}
        />
      </SimpleGrid>
      <Group gap="lg">
        <Switch
          label={t('Open only')}
          checked={params.open === '1'}
          onChange={(changed) => setParams({ open: changed.currentTarget.checked ? '1' : '', page: '1' })}
        />
        <Switch
          label={t('Unacknowledged only')}
          checked={params.unack === '1'}
          onChange={(changed) => setParams({ unack: changed.currentTarget.checked ? '1' : '', page: '1' })}
        />
      </Group>
      <Group justify="space-between" align="flex-start">
        <Group gap="md">
          {data && (
            <Text size="sm" c="dimmed" role="status">
              {t('Found: {{count}}', { count: data.meta.total.toLocaleString(intlLocale()) })}
            </Text>
          )}
          {filtered && (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() =>
                setParams({
                  severity: '',
                  kind: '',
                  device: '',
                  template: '',
                  open: '',
                  unack: '',
                  page: '1',
                })
              }
            >
              {t('Reset filters')}
            </Button>
          )}
        </Group>
        <Button
          component={Link}
          to={paths.account.deviceEventTemplates.eventAdd(filters.device ?? undefined)}
        >
          {t('Add an event')}
        </Button>
      </Group>
      <PagedTable
        query={query}
        columns={columns}
        label={t('Events')}
        pagesLabel={t('Pages of the events')}
        page={page}
        onPageChange={(next) => setParams({ page: String(next) })}
      />
      <AcknowledgeModal
        event={acknowledging}
        deviceName={acknowledging ? deviceName(acknowledging.device_id) : ''}
        onClose={() => setAcknowledging(null)}
      />
    </Stack>
  );
}
