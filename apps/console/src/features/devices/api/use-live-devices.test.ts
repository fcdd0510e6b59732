import type { Device } from '@kontrol/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { referenceKey } from '../../../lib/reference-data/resources';
import { buildDevice } from '../test/fixtures';
import { deviceKeys } from './keys';
import { applyLiveDevices } from './use-live-devices';

const live = (id: number, lastUtc: string) => ({
  id,
  last_online: { last_utc: lastUtc },
  work_start: { date: '2026-11-23', start: '07:02' },
  state: 'cooking' as const,
  current: 12,
  temperature: 180,
});

describe('applyLiveDevices', () => {
  it('writes the live fields into the devices list and the open device page, leaving the rest', () => {
    const client = new QueryClient();
    const one = buildDevice({ id: 1 });
    const two = buildDevice({ id: 2, name: 'Fryer' });
    client.setQueryData(referenceKey('devices'), [one, two]);
    client.setQueryData(deviceKeys.detail(1), one);

    applyLiveDevices(client, [live(1, '2026-11-23T07:05:00.000Z'), live(99, '2026-11-23T07:05:00.000Z')]);

    const list = client.getQueryData<Device[]>(referenceKey('devices'));
    expect(list?.[0]).toMatchObject({
      id: 1,
      name: one.name,
      last_online: { last_utc: '2026-11-23T07:05:00.000Z' },
      work_start: { date: '2026-11-23', start: '07:02' },
    });
    expect(list?.[1]).toBe(two);
    expect(client.getQueryData<Device>(deviceKeys.detail(1))?.last_online.last_utc).toBe(
      '2026-11-23T07:05:00.000Z',
    );
    // A device no page holds is not invented.
    expect(client.getQueryData(deviceKeys.detail(99))).toBeUndefined();
  });

  it('keeps the list as it is when none of its devices changed', () => {
    const client = new QueryClient();
    const devices = [buildDevice({ id: 1 })];
    client.setQueryData(referenceKey('devices'), devices);
    applyLiveDevices(client, [live(5, '2026-11-23T07:05:00.000Z')]);
    expect(client.getQueryData(referenceKey('devices'))).toBe(devices);
  });
});
