import {
  OFFLINE_THRESHOLD_MINUTES,
  type Address,
  type Device,
  type DeviceType,
  type Room,
} from '@kontrol/contracts';
import { sortRows } from '../../components/data-table';

/** A device with what the list shows and filters by, computed once per reference-data change. */
export interface DeviceListItem {
  device: Device;
  typeName: string;
  addressName: string;
  roomName: string;
  /** "Address › Room". */
  place: string;
  lastOnlineMs: number | null;
  nextServiceMs: number | null;
}

const searchKeys = new WeakMap<DeviceListItem, string>();

/**
 * Name, serial number and controller id, normalised (see {@link normaliseSearch}): worked out on
 * the first search, not for every device when the list opens.
 */
export function searchKeyOf(item: DeviceListItem): string {
  let key = searchKeys.get(item);
  if (key === undefined) {
    const { name, serial_number: serial, controller_id: controller } = item.device;
    key = normaliseSearch(`${name}\n${serial ?? ''}\n${controller ?? ''}`);
    searchKeys.set(item, key);
  }
  return key;
}

/**
 * Works out the search keys of `items` right after the list has shown, a slice per task, so that
 * the first search finds them ready and the first paint never waits for them; returns the cancel
 * function (an effect's clean-up).
 */
export function prepareSearchKeys(items: readonly DeviceListItem[]): () => void {
  const SLICE = 2000;
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const step = () => {
    const end = Math.min(items.length, next + SLICE);
    for (; next < end; next += 1) searchKeyOf(items[next] as DeviceListItem);
    timer = next < items.length ? setTimeout(step, 0) : undefined;
  };
  timer = setTimeout(step, 0);
  return () => clearTimeout(timer);
}

/** Case- and ё-insensitive text for searching. */
export function normaliseSearch(text: string): string {
  return text.trim().toLowerCase().replaceAll('ё', 'е');
}

export function toListItems(
  devices: readonly Device[],
  types: readonly DeviceType[],
  addresses: readonly Address[],
  rooms: readonly Room[],
): DeviceListItem[] {
  const typeNames = new Map(types.map((type) => [type.id, type.name]));
  const addressNames = new Map(addresses.map((address) => [address.id, address.name]));
  const roomNames = new Map(rooms.map((room) => [room.id, room.name]));
  return devices.map((device) => {
    const addressName = addressNames.get(device.address_id) ?? '';
    const roomName = roomNames.get(device.room_id) ?? '';
    const lastOnline = device.last_online.last_utc;
    return {
      device,
      typeName: typeNames.get(device.type_id) ?? '',
      addressName,
      roomName,
      place: addressName && roomName ? `${addressName} › ${roomName}` : addressName || roomName,
      lastOnlineMs: lastOnline ? Date.parse(lastOnline) : null,
      nextServiceMs: device.next_service_date ? Date.parse(`${device.next_service_date}T00:00:00Z`) : null,
    };
  });
}

/**
 * docs/contract.md, "States and transitions": a device is online if it was last online {@link OFFLINE_THRESHOLD_MINUTES} minutes ago
 * or less; offline if longer ago, or never.
 */
export function isOnline(lastOnlineMs: number | null, now: number): boolean {
  return lastOnlineMs !== null && now - lastOnlineMs <= OFFLINE_THRESHOLD_MINUTES * 60_000;
}

/** The list's query-string parameters (docs/places-and-equipment.md); `''` means "any". */
export const DEVICE_LIST_PARAMS = {
  q: '',
  type: '',
  address: '',
  room: '',
  smart: '',
  status: '',
  /** A dashboard counter (`offline`, `washOutdated`…): the devices it counts (docs/dashboard.md). */
  counter: '',
  sort: 'name',
} as const;
export type DeviceListParams = Record<keyof typeof DEVICE_LIST_PARAMS, string>;

export const DEVICE_SORTS = ['name', 'type', 'address', 'last_online', 'next_service'] as const;
export type DeviceSortId = (typeof DEVICE_SORTS)[number];

/** `sort=name` ascending, `sort=-last_online` descending; anything else falls back to the name. */
export function parseSort(param: string): { id: DeviceSortId; desc: boolean } {
  const desc = param.startsWith('-');
  const id = param.replace(/^-/, '');
  return (DEVICE_SORTS as readonly string[]).includes(id)
    ? { id: id as DeviceSortId, desc }
    : { id: 'name', desc: false };
}

export function formatSort(sort: { id: string; desc: boolean }): string {
  return sort.desc ? `-${sort.id}` : sort.id;
}

const SORT_VALUES: Record<DeviceSortId, (item: DeviceListItem) => string | number | null> = {
  name: (item) => item.device.name,
  type: (item) => item.typeName || null,
  address: (item) => item.place || null,
  last_online: (item) => item.lastOnlineMs,
  next_service: (item) => item.nextServiceMs,
};

/** Sorts the whole list once per sort change; filtering then keeps this order (cheap per keystroke). */
export function sortItems(items: readonly DeviceListItem[], param: string): DeviceListItem[] {
  const { id, desc } = parseSort(param);
  return sortRows(items, SORT_VALUES[id], desc);
}

/**
 * The devices matching every filter and the search text, in the given order. `counted`: the ids a
 * dashboard counter counts (the `counter` filter), null for no such filter.
 */
export function filterItems(
  items: readonly DeviceListItem[],
  params: Omit<DeviceListParams, 'sort' | 'counter'>,
  now: number,
  counted: ReadonlySet<number> | null = null,
): readonly DeviceListItem[] {
  const search = normaliseSearch(params.q);
  const type = params.type ? Number(params.type) : null;
  const address = params.address ? Number(params.address) : null;
  const room = params.room ? Number(params.room) : null;
  const smart = params.smart === 'yes' ? true : params.smart === 'no' ? false : null;
  const online = params.status === 'online' ? true : params.status === 'offline' ? false : null;
  if (
    !search &&
    type === null &&
    address === null &&
    room === null &&
    smart === null &&
    online === null &&
    counted === null
  ) {
    return items;
  }
  return items.filter(
    (item) =>
      (counted === null || counted.has(item.device.id)) &&
      (type === null || item.device.type_id === type) &&
      (address === null || item.device.address_id === address) &&
      (room === null || item.device.room_id === room) &&
      (smart === null || item.device.is_smart === smart) &&
      (online === null || isOnline(item.lastOnlineMs, now) === online) &&
      (!search || searchKeyOf(item).includes(search)),
  );
}
