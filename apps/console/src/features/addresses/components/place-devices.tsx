import type { Room } from '@kontrol/contracts';
import { Anchor, Table } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NoRecords } from '../../../components/no-records';
import { paths } from '../../../config/paths';
import { useEquipment } from '../api/get-equipment';

/**
 * The devices standing at an address or in a room (from the reference data), each linking to its
 * own page. Shows nothing for a user without the `devices` module.
 */
export function PlaceDevices({
  place,
  rooms,
  label,
}: {
  place: { address_id: number } | { room_id: number };
  /** Rooms by id, for the room column; leave out inside a single room. */
  rooms?: ReadonlyMap<number, Room>;
  /** The table's accessible name. */
  label: string;
}) {
  const { t } = useTranslation();
  const { devices, deviceTypes } = useEquipment();
  const [key, id] =
    'room_id' in place ? (['room_id', place.room_id] as const) : (['address_id', place.address_id] as const);
  const shown = useMemo(
    () => devices.filter((device) => device[key] === id).sort((a, b) => a.name.localeCompare(b.name)),
    [devices, key, id],
  );
  const typeNames = useMemo(() => new Map(deviceTypes.map((type) => [type.id, type.name])), [deviceTypes]);
  if (shown.length === 0) return <NoRecords />;
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table aria-label={label} highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Device')}</Table.Th>
            {rooms && <Table.Th>{t('Room')}</Table.Th>}
            <Table.Th>{t('Type')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((device) => (
            <Table.Tr key={device.id}>
              <Table.Td>
                <Anchor component={Link} to={paths.account.devices.detail(device.id)}>
                  {device.name}
                </Anchor>
              </Table.Td>
              {rooms && <Table.Td>{rooms.get(device.room_id)?.name ?? '—'}</Table.Td>}
              <Table.Td>{typeNames.get(device.type_id) ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
