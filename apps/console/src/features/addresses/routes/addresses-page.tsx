import type { Address } from '@kontrol/contracts';
import { Anchor, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn, type DataTableSort } from '../../../components/data-table';
import { paths } from '../../../config/paths';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { useAddresses } from '../api/get-addresses';
import { useEquipment } from '../api/get-equipment';
import { useRooms } from '../api/get-rooms';

type AddressRow = Address & { rooms: number; devices: number };

const SORTABLE = ['name', 'city'] as const;

/** `?sort=city` / `?sort=-name` → a table sort; anything else is the default, by name. */
function parseSort(value: string): DataTableSort {
  const desc = value.startsWith('-');
  const id = desc ? value.slice(1) : value;
  return (SORTABLE as readonly string[]).includes(id) ? { id, desc } : { id: 'name', desc: false };
}

const matches = (row: Address, needle: string) =>
  [row.name, row.city, row.full_address].some((text) => text.toLocaleLowerCase().includes(needle));

/**
 * `/account/addresses`: every address of the organisation (reference data, docs/contract.md, "Product and areas"), searched by
 * name, city or full address, filtered by city and sorted by name or city. All three live in the
 * URL (`q`, `city`, `sort`), so a link or the back button brings the same view.
 */
export function AddressesPage() {
  const { t } = useTranslation();
  const addresses = useAddresses();
  const rooms = useRooms();
  const { allowed: seesDevices, devices } = useEquipment();
  const [params, setParams] = useSearchParamsState({ q: '', city: '', sort: 'name' });
  // The box answers at once and writes the URL after a pause; back and forward bring older text back.
  const [search, setSearch] = useSearchText(params.q, (q) => setParams({ q }, { replace: true }));
  const city = params.city;
  const sort = parseSort(params.sort);

  // Counts come from the lists themselves: devices are reloaded after a device changes, addresses not (docs/contract.md, "States and transitions").
  const rows = useMemo<AddressRow[]>(() => {
    const roomCounts = new Map<number, number>();
    for (const room of rooms) roomCounts.set(room.address_id, (roomCounts.get(room.address_id) ?? 0) + 1);
    const deviceCounts = new Map<number, number>();
    for (const device of devices)
      deviceCounts.set(device.address_id, (deviceCounts.get(device.address_id) ?? 0) + 1);
    return addresses.map((address) => ({
      ...address,
      rooms: roomCounts.get(address.id) ?? 0,
      devices: seesDevices ? (deviceCounts.get(address.id) ?? 0) : address.devices_count,
    }));
  }, [addresses, rooms, devices, seesDevices]);

  const cities = useMemo(
    () => [...new Set(addresses.map((address) => address.city))].sort((a, b) => a.localeCompare(b)),
    [addresses],
  );

  const needle = search.trim().toLocaleLowerCase();
  const shown = useMemo(
    () => rows.filter((row) => (!city || row.city === city) && (!needle || matches(row, needle))),
    [rows, city, needle],
  );

  // Each flexible column's minimum is the same multiple of its share (5.5rem per fr): the table is
  // max-content wide, so a larger ratio in one column would widen all of them past the screen.
  const columns = useMemo<DataTableColumn<AddressRow>[]>(
    () => [
      {
        id: 'name',
        header: t('Address name'),
        width: 'minmax(11rem, 2fr)',
        sortValue: (row) => row.name,
        cell: (row) => (
          <Anchor component={Link} to={paths.account.addresses.detail(row.id)} size="sm">
            {row.name}
          </Anchor>
        ),
      },
      {
        id: 'city',
        header: t('City'),
        width: 'minmax(8.25rem, 1.5fr)',
        sortValue: (row) => row.city,
        cell: (row) => row.city,
      },
      {
        id: 'full_address',
        header: t('Full address'),
        width: 'minmax(16.5rem, 3fr)',
        cell: (row) => <span title={row.full_address}>{row.full_address}</span>,
      },
      {
        id: 'time_zone',
        header: t('Time zone'),
        width: 'minmax(8.25rem, 1.5fr)',
        cell: (row) => <span title={row.time_zone}>{row.time_zone}</span>,
      },
      { id: 'rooms', header: t('Rooms'), width: '6.5rem', align: 'end', cell: (row) => row.rooms },
      { id: 'devices', header: t('Devices'), width: '9rem', align: 'end', cell: (row) => row.devices },
    ],
    [t],
  );

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          type="search"
          label={t('Search')}
          placeholder={t('Name, city or address')}
          w={{ base: '100%', xs: 280 }}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Select
          label={t('City')}
          placeholder={t('All cities')}
          data={cities}
          value={city || null}
          onChange={(value) => setParams({ city: value ?? '' })}
          clearable
          searchable
          nothingFoundMessage={t('Nothing found')}
          w={{ base: '100%', xs: 220 }}
        />
        <Button component={Link} to={paths.account.addresses.add} ml={{ xs: 'auto' }}>
          {t('Add address')}
        </Button>
      </Group>
      <DataTable
        data={shown}
        columns={columns}
        getRowId={(row) => String(row.id)}
        label={t('Addresses')}
        sort={sort}
        onSortChange={(next) => setParams({ sort: `${next.desc ? '-' : ''}${next.id}` })}
      />
    </Stack>
  );
}
