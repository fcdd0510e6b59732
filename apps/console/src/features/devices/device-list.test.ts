import { describe, expect, it } from 'vitest';
import { filterItems, isOnline, parseSort, sortItems, toListItems } from './device-list';
import { buildAddress, buildDevice, buildDeviceType, buildRoom } from './test/fixtures';

const NOW = Date.parse('2026-11-10T12:00:00Z');
const minutesBefore = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
const ANY = { q: '', type: '', address: '', room: '', smart: '', status: '' };

describe('device list rules', () => {
  it('counts a device online up to 1440 minutes after it was last seen, offline after that or if never seen (docs/contract.md, "States and transitions")', () => {
    expect(isOnline(Date.parse(minutesBefore(1440)), NOW)).toBe(true);
    expect(isOnline(Date.parse(minutesBefore(1441)), NOW)).toBe(false);
    expect(isOnline(null, NOW)).toBe(false);
  });

  it('reads a sort parameter, falling back to the name for anything unknown', () => {
    expect(parseSort('-last_online')).toEqual({ id: 'last_online', desc: true });
    expect(parseSort('next_service')).toEqual({ id: 'next_service', desc: false });
    expect(parseSort('-password')).toEqual({ id: 'name', desc: false });
  });

  it('searches name, serial and controller id ignoring case and ё, and combines filters', () => {
    const items = toListItems(
      [
        buildDevice({ id: 1, name: 'Ёмкость', serial_number: 'AB-1' }),
        buildDevice({
          id: 2,
          name: 'Печь',
          controller_id: 'Ctl-9',
          last_online: { last_utc: minutesBefore(3) },
        }),
        buildDevice({ id: 3, name: 'Печь 2', room_id: 2, address_id: 2, template_id: 1 }),
      ],
      [buildDeviceType()],
      [buildAddress(), buildAddress({ id: 2, name: 'Арбат' })],
      [buildRoom(), buildRoom({ id: 2, address_id: 2 })],
    );
    const ids = (params: Partial<typeof ANY>) =>
      filterItems(items, { ...ANY, ...params }, NOW).map((i) => i.device.id);
    expect(ids({ q: 'емк' })).toEqual([1]);
    expect(ids({ q: 'ab-' })).toEqual([1]);
    expect(ids({ q: ' CTL ' })).toEqual([2]);
    expect(ids({ smart: 'yes' })).toEqual([2, 3]);
    expect(ids({ smart: 'yes', status: 'offline' })).toEqual([3]);
    expect(ids({ address: '2' })).toEqual([3]);
    expect(ids({ room: '1', q: 'печь' })).toEqual([2]);
    expect(items[2]?.place).toBe('Арбат › Горячий цех');
  });

  it('filters 10 000 devices well within a frame budget of 100 ms', () => {
    const devices = Array.from({ length: 10_000 }, (_, i) =>
      buildDevice({
        id: i + 1,
        name: `Пароконвектомат ${i + 1}`,
        serial_number: `SN-${(i * 7919) % 100_000}`,
        controller_id: i % 3 === 0 ? `ctl-${i}` : null,
        last_online: { last_utc: i % 2 ? minutesBefore(i % 3000) : null },
      }),
    );
    const items = toListItems(devices, [buildDeviceType()], [buildAddress()], [buildRoom()]);
    const sorted = sortItems(items, '-last_online');
    // Each keystroke only walks the already sorted list.
    const started = performance.now();
    for (const q of ['п', 'па', 'пар', 'sn-1', 'ctl-99']) {
      filterItems(sorted, { ...ANY, q, status: 'online' }, NOW);
    }
    const perKeystroke = (performance.now() - started) / 5;
    expect(perKeystroke).toBeLessThan(100);
    expect(filterItems(sorted, { ...ANY, q: 'ctl-9999' }, NOW).map((i) => i.device.id)).toEqual([10_000]);
  });
});
