import {
  NOTIFICATION_SEVERITIES,
  type Device,
  type Notification,
  type NotificationSeverity,
} from '@kontrol/contracts';
import { Box, Button, Group, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn } from '../../../components/data-table';
import { PagedTable } from '../../../components/paged-table';
import { DateField } from '../../../components/date-fields';
import { formatDateTime, intlLocale } from '../../../lib/format';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { downloadNotificationsExcel } from '../api/download-notifications-excel';
import { useNotifications, type NotificationFilters } from '../api/get-notifications';
import { browserTimeZone, parsePage } from '../telemetry-view';
import { DownloadButton } from './download-button';

/** The notifications tab's query string; `''` means "any". `from`/`to` are local dates `YYYY-MM-DD`. */
export const NOTIFICATION_PARAMS = {
  severity: '',
  device: '',
  from: '',
  to: '',
  unread: '',
  page: '1',
} as const;
type NotificationParams = Record<keyof typeof NOTIFICATION_PARAMS, string>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The first or the last moment of a local date, or null for anything that is not a date. */
function localDay(date: string, edge: 'start' | 'end'): number | null {
  if (!DATE.test(date)) return null;
  const ms = new Date(`${date}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}`).getTime();
  return Number.isNaN(ms) ? null : ms;
}

function filtersOf(params: NotificationParams): NotificationFilters {
  const device = Number(params.device);
  return {
    severity: (NOTIFICATION_SEVERITIES as readonly string[]).includes(params.severity)
      ? (params.severity as NotificationSeverity)
      : null,
    device: Number.isInteger(device) && device > 0 ? device : null,
    from: localDay(params.from, 'start'),
    to: localDay(params.to, 'end'),
    unreadOnly: params.unread === '1',
  };
}

/** Severity colours: a mark beside the word, so the word carries the meaning and the contrast. */
const SEVERITY_COLOURS: Record<NotificationSeverity, string> = {
  info: 'var(--mantine-color-blue-7)',
  warning: 'var(--mantine-color-orange-6)',
  critical: 'var(--mantine-color-red-7)',
};

/**
 * The notifications tab: the user's notifications (docs/contract.md, "HTTP calls" `GET /notifications`: page and
 * filters), newest first by when what they tell of happened, filtered by severity, device, dates and unread, a page at a time with
 * the filters in the query string; and the same filtered list as an Excel download.
 */
export function NotificationsPanel() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const devices = useReferenceList<Device>(user, 'devices');
  const [params, setParams] = useSearchParamsState(NOTIFICATION_PARAMS);
  const page = parsePage(params.page);
  // `params` changes only when one of this tab's parameters does.
  const filters = useMemo(() => filtersOf(params), [params]);
  const query = useNotifications({ page, filters });
  const { data } = query;
  // The date boxes keep their own text while the user types a date, and write it after a pause.
  const [fromText, setFromText] = useSearchText(params.from, (from) =>
    setParams({ from, page: '1' }, { replace: true }),
  );
  const [toText, setToText] = useSearchText(params.to, (to) =>
    setParams({ to, page: '1' }, { replace: true }),
  );
  const tz = useMemo(browserTimeZone, []);

  const names = useMemo(() => new Map(devices.map((device) => [device.id, device.name])), [devices]);
  const deviceOptions = useMemo(
    () => devices.map((device) => ({ value: String(device.id), label: device.name })),
    [devices],
  );
  const severityLabels = useMemo<Record<NotificationSeverity, string>>(
    () => ({ info: t('Information'), warning: t('Warning'), critical: t('Critical') }),
    [t],
  );
  const columns = useMemo<DataTableColumn<Notification>[]>(() => {
    return [
      {
        // When what it tells of happened (an event's start), not when the row was written.
        id: 'occurred_at',
        header: t('Time'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) => <time dateTime={row.occurred_at}>{formatDateTime(row.occurred_at)}</time>,
      },
      {
        id: 'severity',
        header: t('Severity'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) => (
          <Group gap={6} wrap="nowrap" component="span">
            <Box
              component="span"
              aria-hidden="true"
              w={10}
              h={10}
              style={{ borderRadius: '50%', background: SEVERITY_COLOURS[row.severity], flex: 'none' }}
            />
            <span>{severityLabels[row.severity]}</span>
          </Group>
        ),
      },
      {
        id: 'device',
        header: t('Device'),
        width: 'minmax(10rem, 1.5fr)',
        cell: (row) => (row.device_id === null ? '—' : (names.get(row.device_id) ?? `#${row.device_id}`)),
      },
      {
        id: 'text',
        header: t('Notification'),
        width: 'minmax(16rem, 4fr)',
        cell: (row) => (
          <span title={row.body ? `${row.title}\n${row.body}` : row.title}>
            <Text span fw={row.read_at === null ? 700 : 400} size="sm">
              {row.title}
            </Text>
            {row.body && ` — ${row.body}`}
          </span>
        ),
      },
      {
        id: 'read',
        header: t('Status'),
        width: 'minmax(7rem, 0.8fr)',
        cell: (row) => (row.read_at === null ? t('Unread') : t('Read')),
      },
    ];
  }, [t, names, severityLabels]);

  const filtered =
    params.severity !== '' ||
    params.device !== '' ||
    params.from !== '' ||
    params.to !== '' ||
    params.unread !== '';

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="md">
        <Select
          label={t('Severity')}
          placeholder={t('All')}
          data={NOTIFICATION_SEVERITIES.map((value) => ({ value, label: severityLabels[value] }))}
          value={params.severity || null}
          onChange={(value) => setParams({ severity: value ?? '', page: '1' })}
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
        <DateField label={t('From')} value={fromText} onChange={setFromText} clearable />
        <DateField label={t('To')} value={toText} onChange={setToText} clearable />
        <Switch
          label={t('Unread only')}
          checked={params.unread === '1'}
          onChange={(event) => setParams({ unread: event.currentTarget.checked ? '1' : '', page: '1' })}
          style={{ alignSelf: 'center' }}
        />
      </SimpleGrid>
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
              onClick={() => setParams({ severity: '', device: '', from: '', to: '', unread: '', page: '1' })}
            >
              {t('Reset filters')}
            </Button>
          )}
        </Group>
        <DownloadButton
          label={t('Download Excel')}
          download={(options) => downloadNotificationsExcel(filters, tz, options)}
        />
      </Group>
      <PagedTable
        query={query}
        columns={columns}
        label={t('Notifications')}
        pagesLabel={t('Pages of the notifications')}
        page={page}
        onPageChange={(next) => setParams({ page: String(next) })}
      />
    </Stack>
  );
}
