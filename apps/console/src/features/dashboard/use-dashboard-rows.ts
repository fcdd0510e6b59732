import type { Address, DashboardDevice, DeviceType, Room } from '@kontrol/contracts';
import { useMemo, useRef } from 'react';
import { sortRows } from '../../components/data-table';
import {
  flagsOf,
  statusOf,
  type DeviceFlags,
  type DeviceStatus,
} from '../../lib/device-stat/dashboard-model';

/** A device as the dashboard's table, circles and filter read it. */
export interface DashboardRow {
  device: DashboardDevice;
  flags: DeviceFlags;
  status: DeviceStatus;
  typeName: string;
  /** "Address › Room" when the addresses are at hand. */
  place: string;
  lastOnlineMs: number | null;
  /** Name, type and place, lower case, for the table's filter. */
  searchKey: string;
}

interface Names {
  types: ReadonlyMap<number, string>;
  addresses: ReadonlyMap<number, string>;
  rooms: ReadonlyMap<number, string>;
}

function buildRow(device: DashboardDevice, now: number, names: Names): DashboardRow {
  const flags = flagsOf(device, now);
  const typeName = names.types.get(device.type_id) ?? '';
  const addressName = names.addresses.get(device.address_id) ?? '';
  const roomName = names.rooms.get(device.room_id) ?? '';
  const place = addressName && roomName ? `${addressName} › ${roomName}` : addressName || roomName;
  const last = device.last_online.last_utc;
  return {
    device,
    flags,
    status: statusOf(flags),
    typeName,
    place,
    lastOnlineMs: last ? Date.parse(last) : null,
    searchKey: `${device.name}\n${typeName}\n${place}`.toLowerCase().replaceAll('ё', 'е'),
  };
}

/**
 * The dashboard's rows, one per device, each built once per device object and moment: a live
 * update rebuilds only the rows of the devices that reported, so the table re-renders only them.
 */
export function useDashboardRows(
  devices: readonly DashboardDevice[] | undefined,
  now: number,
  references: { types: readonly DeviceType[]; addresses: readonly Address[]; rooms: readonly Room[] },
): DashboardRow[] | undefined {
  const { types, addresses, rooms } = references;
  const names = useMemo<Names>(
    () => ({
      types: new Map(types.map((type) => [type.id, type.name])),
      addresses: new Map(addresses.map((address) => [address.id, address.name])),
      rooms: new Map(rooms.map((room) => [room.id, room.name])),
    }),
    [types, addresses, rooms],
  );
  const cache = useRef<{ now: number; names: Names; rows: WeakMap<DashboardDevice, DashboardRow> } | null>(
    null,
  );
  return useMemo(() => {
    if (!devices) return undefined;
    if (cache.current?.now !== now || cache.current.names !== names) {
      cache.current = { now, names, rows: new WeakMap() };
    }
    const built = cache.current.rows;
    return devices.map((device) => {
      let row = built.get(device);
      if (!row) {
        row = buildRow(device, now, names);
        built.set(device, row);
      }
      return row;
    });
  }, [devices, now, names]);
}

/**
 * Each device's place in the alphabetical order of names (interface language, digits as
 * numbers). Collating thousands of names is the costly part of sorting, and live updates never
 * rename a device: the order is worked out again only when the devices or their names change.
 */
export function useNameRanks(
  rows: readonly DashboardRow[] | undefined,
  locale: string,
): ReadonlyMap<number, number> {
  const previous = useRef<{
    rows: readonly DashboardRow[];
    locale: string;
    ranks: Map<number, number>;
  } | null>(null);
  return useMemo(() => {
    const last = previous.current;
    if (
      rows &&
      last &&
      last.locale === locale &&
      last.rows.length === rows.length &&
      rows.every(
        (row, index) =>
          row.device.id === last.rows[index]?.device.id && row.device.name === last.rows[index]?.device.name,
      )
    ) {
      previous.current = { ...last, rows };
      return last.ranks;
    }
    const ranks = new Map<number, number>();
    if (rows) {
      sortRows(rows, (row) => row.device.name, false, locale).forEach((row, index) =>
        ranks.set(row.device.id, index),
      );
      previous.current = { rows, locale, ranks };
    }
    return ranks;
  }, [rows, locale]);
}
