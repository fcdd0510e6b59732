import type { TFunction } from 'i18next';
import type { Address, DeviceType, Room } from '@kontrol/contracts';
import { Anchor, Box, Button, Group, Pill, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { memo, useCallback, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { isAbortError, toApiFailure } from '../../../lib/api-errors';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { formatCalendarDate, formatMoment } from '../device-format';
import {
  DEVICE_LIST_PARAMS,
  filterItems,
  formatSort,
  parseSort,
  prepareSearchKeys,
  sortItems,
  toListItems,
  type DeviceListItem,
  type DeviceListParams,
} from '../device-list';
import { useEquipmentReferences } from '../use-equipment-references';
import { useCounterDevices } from '../../../lib/device-stat/use-counter-devices';
import { useDashboardLabels } from '../../../lib/device-stat/dashboard-labels';
import { isDashboardCounter } from '../../../lib/device-stat/dashboard-model';
import { DeviceStatus } from './device-status';
import { useNow } from './use-now';

/**
 * Every device of the organisation from the reference data (no request of its own), searched,
 * filtered and sorted in memory; all of it kept in the query string. The whole list is sorted once
 * per sort change and each filter change only walks it, so a 10 000-device list repaints quickly;
 * the search text is deferred so typing never waits for the table.
 */
export function DevicesList() {
  const { t } = useTranslation();
  const { devices, types, addresses, rooms } = useEquipmentReferences();
  const [params, setParams] = useSearchParamsState(DEVICE_LIST_PARAMS);
  const now = useNow();
  const items = useMemo(
    () => toListItems(devices, types, addresses, rooms),
    [devices, types, addresses, rooms],
  );
  const sorted = useMemo(() => sortItems(items, params.sort), [items, params.sort]);
  // Search keys are made just after the list shows, not before it shows.
  useEffect(() => prepareSearchKeys(items), [items]);
  const [searchText, setSearchText] = useSearchText(params.q, (q) => setParams({ q }, { replace: true }));
  // The table follows the box at once, but never holds typing up: React renders it when it can.
  const deferredSearch = useDeferredValue(searchText);
  const { type, address, room, smart, status } = params;
  // A dashboard counter's link (`?counter=offline`): the devices it counts, by the dashboard's rules.
  const counter = isDashboardCounter(params.counter) ? params.counter : null;
  const counted = useCounterDevices(counter, type && /^\d+$/.test(type) ? Number(type) : null);
  const counterLabels = useDashboardLabels().counter;
  const shown = useMemo(
    () => filterItems(sorted, { q: deferredSearch, type, address, room, smart, status }, now, counted.ids),
    [sorted, deferredSearch, type, address, room, smart, status, now, counted.ids],
  );
  const countedFailure =
    counter !== null && counted.error && !counted.ids && !isAbortError(counted.error)
      ? toApiFailure(counted.error)
      : null;
  const columns = useMemo(() => deviceColumns(t, now), [t, now]);
  const sort = useMemo(() => parseSort(params.sort), [params.sort]);
  const onSortChange = useCallback(
    (next: { id: string; desc: boolean }) => setParams({ sort: formatSort(next) }),
    [setParams],
  );
  const [filtersOpened, setFiltersOpened] = useState(false);
  const filtersId = useId();
  const activeFilters = [type, address, room, smart, status].filter((value) => value !== '').length;
  const filtered =
    searchText !== '' ||
    Object.entries(params).some(
      ([key, value]) =>
        key !== 'sort' && value !== DEVICE_LIST_PARAMS[key as keyof typeof DEVICE_LIST_PARAMS],
    );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <TextInput
          label={t('Search')}
          placeholder={t('Name, serial number or controller ID')}
          type="search"
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={{ base: '100%', sm: 360 }}
        />
        <Button component={Link} to={paths.account.devices.add}>
          {t('Add device')}
        </Button>
      </Group>
      {/* On a phone the five selects would push the list a screen down: they wait behind a button. */}
      <Button
        hiddenFrom="sm"
        variant="default"
        w="fit-content"
        aria-expanded={filtersOpened}
        aria-controls={filtersId}
        onClick={() => setFiltersOpened((opened) => !opened)}
      >
        {activeFilters > 0 ? t('Filters ({{count}})', { count: activeFilters }) : t('Filters')}
      </Button>
      <Box id={filtersId} {...(filtersOpened ? {} : { visibleFrom: 'sm' })}>
        <DeviceFilters
          type={type}
          address={address}
          room={room}
          smart={smart}
          status={status}
          types={types}
          addresses={addresses}
          rooms={rooms}
          setParams={setParams}
        />
      </Box>
      {counter !== null && (
        <Group gap="xs">
          <Pill
            size="md"
            withRemoveButton
            onRemove={() => setParams({ counter: '' })}
            // Mantine hides a pill's remove button (inside an input, Backspace removes); here it is
            // the only way to remove the filter, so it is a button like any other.
            removeButtonProps={{
              'aria-label': t('Remove the filter «{{name}}»', { name: counterLabels[counter] }),
              'aria-hidden': false,
              tabIndex: 0,
            }}
          >
            {t('Counter: {{name}}', { name: counterLabels[counter] })}
          </Pill>
        </Group>
      )}
      <FormFailure failure={countedFailure} fields={[]} />
      <Group justify="space-between">
        <Text size="sm" c="dimmed" role="status" aria-live="polite">
          {t('{{shown}} of {{total}} devices', { shown: shown.length, total: items.length })}
        </Text>
        {filtered && (
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => {
              setSearchText('');
              setParams({ q: '', type: '', address: '', room: '', smart: '', status: '', counter: '' });
            }}
          >
            {t('Reset filters')}
          </Button>
        )}
      </Group>
      {counter !== null && !counted.ids ? (
        // The counter's devices are not known yet (or could not be: the failure shows above).
        !countedFailure && <PageLoader inline />
      ) : (
        <DataTable
          data={shown}
          columns={columns}
          getRowId={(item) => String(item.device.id)}
          label={t('Devices')}
          sort={sort}
          onSortChange={onSortChange}
          manualSorting
        />
      )}
    </Stack>
  );
}

/**
 * The filter selects. Memoised, so typing in the search box does not render them (and their long
 * option lists) again. Rooms are offered for one address: the chosen one, or the chosen room's.
 */
const DeviceFilters = memo(function DeviceFilters({
  type,
  address,
  room,
  smart,
  status,
  types,
  addresses,
  rooms,
  setParams,
}: Pick<DeviceListParams, 'type' | 'address' | 'room' | 'smart' | 'status'> & {
  types: readonly DeviceType[];
  addresses: readonly Address[];
  rooms: readonly Room[];
  setParams: (patch: Partial<DeviceListParams>) => void;
}) {
  const { t } = useTranslation();
  const typeOptions = useMemo(() => types.map((x) => ({ value: String(x.id), label: x.name })), [types]);
  const addressOptions = useMemo(
    () => addresses.map((x) => ({ value: String(x.id), label: x.name })),
    [addresses],
  );
  const roomAddress = address || String(rooms.find((x) => String(x.id) === room)?.address_id ?? '');
  const roomOptions = useMemo(
    () =>
      roomAddress
        ? rooms
            .filter((x) => String(x.address_id) === roomAddress)
            .map((x) => ({ value: String(x.id), label: x.name }))
        : [],
    [rooms, roomAddress],
  );
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
      <Select
        label={t('Type')}
        placeholder={t('All')}
        data={typeOptions}
        value={type || null}
        onChange={(value) => setParams({ type: value ?? '' })}
        clearable
        searchable
      />
      <Select
        label={t('Address')}
        placeholder={t('All')}
        data={addressOptions}
        value={address || null}
        // A room belongs to one address: changing the address drops the room filter.
        onChange={(value) => setParams({ address: value ?? '', room: '' })}
        clearable
        searchable
        limit={100}
        nothingFoundMessage={t('Nothing found')}
      />
      <Select
        label={t('Room')}
        placeholder={roomAddress ? t('All') : t('Choose an address first')}
        data={roomOptions}
        value={room || null}
        onChange={(value) => setParams({ room: value ?? '' })}
        disabled={!roomAddress}
        clearable
        searchable
      />
      <Select
        label={t('Smart')}
        placeholder={t('All')}
        data={[
          { value: 'yes', label: t('Smart') },
          { value: 'no', label: t('Not smart') },
        ]}
        value={smart || null}
        onChange={(value) => setParams({ smart: value ?? '' })}
        clearable
      />
      <Select
        label={t('Status')}
        placeholder={t('All')}
        data={[
          { value: 'online', label: t('Online') },
          { value: 'offline', label: t('Offline') },
        ]}
        value={status || null}
        onChange={(value) => setParams({ status: value ?? '' })}
        clearable
      />
    </SimpleGrid>
  );
});

function deviceColumns(t: TFunction, now: number): DataTableColumn<DeviceListItem>[] {
  return [
    {
      id: 'name',
      header: t('Device name'),
      width: 'minmax(12rem, 2fr)',
      sortValue: (item) => item.device.name,
      cell: (item) => (
        <Anchor component={Link} to={paths.account.devices.detail(item.device.id)} fz="sm">
          {item.device.name}
        </Anchor>
      ),
    },
    {
      id: 'type',
      header: t('Type'),
      width: 'minmax(9rem, 1fr)',
      sortValue: (i) => i.typeName,
      cell: (i) => i.typeName,
    },
    {
      id: 'address',
      header: t('Address › room'),
      width: 'minmax(14rem, 2fr)',
      sortValue: (item) => item.place,
      cell: (item) => item.place || '—',
    },
    {
      id: 'smart',
      header: t('Smart'),
      width: '6rem',
      cell: (item) => (item.device.is_smart ? t('Yes') : t('No')),
    },
    {
      id: 'status',
      header: t('Status'),
      width: '8rem',
      cell: (item) => <DeviceStatus lastOnlineMs={item.lastOnlineMs} now={now} />,
    },
    {
      id: 'last_online',
      header: t('Last online'),
      width: 'minmax(10rem, 1fr)',
      sortValue: (item) => item.lastOnlineMs,
      cell: (item) =>
        item.device.last_online.last_utc ? formatMoment(item.device.last_online.last_utc) : t('Never'),
    },
    {
      id: 'next_service',
      header: t('Next service'),
      width: 'minmax(9rem, 1fr)',
      sortValue: (item) => item.nextServiceMs,
      cell: (item) =>
        item.device.next_service_date ? formatCalendarDate(item.device.next_service_date) : '—',
    },
  ];
}
