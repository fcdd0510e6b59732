import type { TFunction } from 'i18next';
import { Anchor, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { memo, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn, type DataTableSort } from '../../../components/data-table';
import { paths } from '../../../config/paths';
import { getLocale } from '../../../lib/i18n';
import { useDashboardLabels, type DashboardLabels } from '../../../lib/device-stat/dashboard-labels';
import { formatMoment, formatReading } from '../dashboard-format';
import type { DeviceStatus } from '../../../lib/device-stat/dashboard-model';
import { useNameRanks, type DashboardRow } from '../use-dashboard-rows';
import { StatusDot } from './status-dot';

const STATUS_ORDER: Record<DeviceStatus, number> = { problem: 0, offline: 1, online: 2 };

/** The rows in the chosen order: names are ranked once, so a live update re-sorts numbers only. */
function sortDashboardRows(
  rows: readonly DashboardRow[],
  sort: DataTableSort,
  ranks: ReadonlyMap<number, number>,
): DashboardRow[] {
  const rank = (row: DashboardRow) => ranks.get(row.device.id) ?? 0;
  const direction = sort.desc ? -1 : 1;
  const sorted = [...rows];
  if (sort.id === 'status') {
    sorted.sort((a, b) => (STATUS_ORDER[a.status] - STATUS_ORDER[b.status]) * direction || rank(a) - rank(b));
  } else if (sort.id === 'last_online') {
    // Never online goes last either way.
    sorted.sort((a, b) => {
      if (a.lastOnlineMs === null || b.lastOnlineMs === null) {
        return a.lastOnlineMs === b.lastOnlineMs ? rank(a) - rank(b) : a.lastOnlineMs === null ? 1 : -1;
      }
      return (a.lastOnlineMs - b.lastOnlineMs) * direction || rank(a) - rank(b);
    });
  } else {
    sorted.sort((a, b) => (rank(a) - rank(b)) * direction);
  }
  return sorted;
}

/**
 * The dashboard's device table (TanStack Table through {@link DataTable}, virtualised): status,
 * name, type, place, state and readings, last online. A device's name shows its day on the graph;
 * "Open" goes to its page. The text filter narrows by name, type and place.
 */
export const DevicesTable = memo(function DevicesTable({
  rows,
  selected,
  onSelect,
}: {
  rows: readonly DashboardRow[] | undefined;
  selected: number | null;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [sort, setSort] = useState<DataTableSort>({ id: 'name', desc: false });
  const locale = getLocale();
  const ranks = useNameRanks(rows, locale);
  const shown = useMemo(() => {
    if (!rows) return [];
    const needle = deferredSearch.trim().toLowerCase().replaceAll('ё', 'е');
    const filtered = needle ? rows.filter((row) => row.searchKey.includes(needle)) : rows;
    return sortDashboardRows(filtered, sort, ranks);
  }, [rows, deferredSearch, sort, ranks]);
  const columns = useMemo(() => tableColumns(t, labels, selected, onSelect), [t, labels, selected, onSelect]);
  const onSortChange = useCallback((next: DataTableSort) => setSort(next), []);

  return (
    // Not a landmark of its own: the table's scroll region, named alike, is one. `data-dashboard-table`:
    // where the dashboard benchmark (bench/dashboard.mjs) looks for the first row.
    <Paper withBorder p="md" data-dashboard-table>
      <Stack gap="sm">
        <Group justify="space-between" align="end">
          <Title order={2} size="h4">
            {t('Devices')}
          </Title>
          <TextInput
            label={t('Filter devices')}
            placeholder={t('Name, type or address')}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
            size="sm"
          />
        </Group>
        {!rows ? (
          <Stack gap={6} aria-hidden="true">
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} height={36} />
            ))}
          </Stack>
        ) : (
          <>
            <Text size="sm" c="dimmed" role="status" aria-live="polite">
              {t('{{shown}} of {{total}} devices', { shown: shown.length, total: rows.length })}
            </Text>
            <DataTable
              data={shown}
              columns={columns}
              getRowId={(row) => String(row.device.id)}
              label={t('Devices')}
              sort={sort}
              onSortChange={onSortChange}
              manualSorting
              maxHeight={480}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
});

function tableColumns(
  t: TFunction,
  labels: DashboardLabels,
  selected: number | null,
  onSelect: (id: number) => void,
): DataTableColumn<DashboardRow>[] {
  return [
    {
      id: 'status',
      header: t('Status'),
      width: '9rem',
      sortValue: (row) => row.status,
      cell: (row) => (
        <Group gap={6} wrap="nowrap" component="span">
          <StatusDot status={row.status} />
          <span>{labels.status[row.status]}</span>
        </Group>
      ),
    },
    {
      id: 'name',
      header: t('Device name'),
      width: 'minmax(10rem, 2fr)',
      sortValue: (row) => row.device.name,
      cell: (row) => (
        <Anchor
          component="button"
          type="button"
          onClick={() => onSelect(row.device.id)}
          aria-pressed={selected === row.device.id}
          title={t('Show its day on the graph')}
          fz="sm"
          fw={selected === row.device.id ? 700 : undefined}
          ta="start"
        >
          {row.device.name}
        </Anchor>
      ),
    },
    { id: 'type', header: t('Type'), width: 'minmax(8rem, 1fr)', cell: (row) => row.typeName || '—' },
    {
      id: 'place',
      header: t('Address › room'),
      width: 'minmax(9rem, 1.5fr)',
      cell: (row) => row.place || '—',
    },
    {
      id: 'state',
      header: t('State'),
      width: 'minmax(8rem, 1fr)',
      cell: (row) =>
        row.device.state === null
          ? '—'
          : row.device.current === null
            ? labels.state[row.device.state]
            : `${labels.state[row.device.state]}, ${formatReading(row.device.current)} ${t('A')}`,
    },
    {
      id: 'last_online',
      header: t('Last online'),
      width: 'minmax(9rem, 1fr)',
      sortValue: (row) => row.lastOnlineMs,
      cell: (row) => (row.lastOnlineMs === null ? t('Never') : formatMoment(row.lastOnlineMs)),
    },
    {
      id: 'open',
      header: t('Page'),
      width: '6rem',
      cell: (row) => (
        <Anchor
          component={Link}
          to={paths.account.devices.detail(row.device.id, row.status === 'online' ? 'dashboard' : 'problems')}
          fz="sm"
          aria-label={t('Open the page of {{name}}', { name: row.device.name })}
        >
          {t('Open')}
        </Anchor>
      ),
    },
  ];
}
