import { localDateTime } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import type { GatewayDevice } from '../devices/device-directory.js';
import {
  HOUR_MS,
  MINUTE_MS,
  advanceLive,
  dayDeltas,
  emptyLive,
  hourDeltas,
  minuteDeltas,
  type StoredSample,
} from './derive.js';
import { STATE_CODES } from './samples.js';

const device: GatewayDevice = {
  id: 7,
  organisationId: 1,
  controllerId: 'ctl-7',
  credentialHash: '00',
  timeZone: 'Europe/Moscow',
  idleCurrentA: 3,
  reports: new Set(['current', 'temperature', 'door', 'state']),
};

const at = (ts: number, state: keyof typeof STATE_CODES = 'idle', current = 1): StoredSample => ({
  deviceId: device.id,
  ts,
  current,
  temperature: 20,
  doorOpen: 0,
  state: STATE_CODES[state],
  program: null,
  errorCode: null,
  coreTemperature: null,
  humidity: null,
});

describe('localDateTime', () => {
  it('reads the date and time in the zone, across a day boundary', () => {
    expect(localDateTime(Date.parse('2026-03-01T21:30:00Z'), 'Europe/Moscow')).toEqual({
      date: '2026-03-02',
      time: '00:30',
    });
    expect(localDateTime(Date.parse('2026-03-01T21:30:00Z'), 'America/New_York')).toEqual({
      date: '2026-03-01',
      time: '16:30',
    });
  });
});

describe('rollups', () => {
  const hour = Date.parse('2026-03-01T10:00:00Z');
  const devices = new Map([[device.id, device]]);

  it('groups samples by minute, counting working ones by state or current', () => {
    const minutes = minuteDeltas(
      [
        at(hour),
        at(hour + 10_000, 'heating', 20),
        at(hour + MINUTE_MS, 'idle', 4),
        at(hour + MINUTE_MS + 1, 'washing'),
      ],
      devices,
    );
    expect(
      minutes.map((m) => [m.bucket - hour, m.samples, m.working, m.washing, m.currentMin, m.currentMax]),
    ).toEqual([
      [0, 2, 1, 0, 1, 20],
      [MINUTE_MS, 2, 1, 1, 1, 4],
    ]);
  });

  it('adds a working minute to its hour only when the minute was not working before', () => {
    const minutes = minuteDeltas([at(hour, 'heating', 20), at(hour + MINUTE_MS, 'heating', 20)], devices);
    // The first minute had 2 working samples stored already (after = 1 + 2), the second is new.
    const [hourRow] = hourDeltas(minutes, [3, 1]);
    expect(hourRow).toMatchObject({ bucket: hour, samples: 2, working: 2, workingMinutes: 1 });
    expect(hourDeltas(minuteDeltas([at(hour + HOUR_MS)], devices), [0])[0]?.bucket).toBe(hour + HOUR_MS);
  });
});

describe('dayDeltas', () => {
  it("sums minutes into the device's local days, across its midnight", () => {
    const devices = new Map([[device.id, device]]);
    const midnight = Date.parse('2026-03-01T21:00:00Z'); // 00:00 in Moscow
    const minutes = minuteDeltas(
      [at(midnight - MINUTE_MS, 'heating', 20), at(midnight, 'heating', 20), at(midnight + MINUTE_MS)],
      devices,
    );
    const days = dayDeltas(minutes, [1, 1, 0], devices);
    expect(days.map((d) => [d.date, d.samples, d.workingMinutes, d.firstWorkingTs, d.lastWorkingTs])).toEqual(
      [
        ['2026-03-01', 1, 1, midnight - MINUTE_MS, midnight - MINUTE_MS],
        ['2026-03-02', 2, 1, midnight, midnight],
      ],
    );
  });
});

describe('advanceLive', () => {
  const morning = Date.parse('2026-03-02T05:00:00Z'); // 08:00 in Moscow

  it('sets work_start to the first working moment of the latest local day', () => {
    const { live } = advanceLive(emptyLive(device.id), device, [
      at(morning - HOUR_MS),
      at(morning, 'heating', 25),
      at(morning + HOUR_MS, 'cooking', 12),
    ]);
    expect([live.workStartDate, live.workStartTime]).toEqual(['2026-03-02', '08:00']);
    expect(live.lastOnlineAt).toBe(new Date(morning + HOUR_MS).toISOString());

    const nextDay = advanceLive(live, device, [at(morning + 24 * HOUR_MS + 5 * MINUTE_MS, 'idle', 7)]).live;
    expect([nextDay.workStartDate, nextDay.workStartTime]).toEqual(['2026-03-03', '08:05']);
    // An older day arriving late changes nothing.
    const late = advanceLive(nextDay, device, [at(morning - 2 * HOUR_MS, 'heating', 25)]).live;
    expect([late.workStartDate, late.workStartTime, late.lastTs]).toEqual([
      '2026-03-03',
      '08:05',
      nextDay.lastTs,
    ]);
  });

  it('finds the first working sample of each local day even after a long working run', () => {
    // Working every 10 minutes for 30 hours from 08:00 Moscow: the second day starts at 00:00.
    const run = Array.from({ length: 180 }, (_, k) => at(morning + k * 10 * MINUTE_MS, 'heating', 25));
    const { live } = advanceLive(emptyLive(device.id), device, run);
    expect([live.workStartDate, live.workStartTime]).toEqual(['2026-03-03', '00:00']);
  });

  it('closes a wash as completed, aborted by a fault, by a short run or by a gap', () => {
    const t0 = morning;
    const steps = (from: number, count: number) =>
      Array.from({ length: count }, (_, k) => at(from + k * MINUTE_MS, 'washing', 10));
    const { live, washes } = advanceLive(emptyLive(device.id), device, [
      ...steps(t0, 10),
      at(t0 + 10 * MINUTE_MS, 'idle'),
      ...steps(t0 + 20 * MINUTE_MS, 2),
      at(t0 + 22 * MINUTE_MS, 'off'), // 2 minutes: too short
      ...steps(t0 + 30 * MINUTE_MS, 8),
      at(t0 + 38 * MINUTE_MS, 'fault'),
      ...steps(t0 + 40 * MINUTE_MS, 3),
      at(t0 + 60 * MINUTE_MS, 'idle'), // 18 minutes of silence after the last washing sample
      ...steps(t0 + 70 * MINUTE_MS, 2),
    ]);
    expect(
      washes.map((w) => [(w.startedTs - t0) / MINUTE_MS, (w.endedTs - t0) / MINUTE_MS, w.outcome]),
    ).toEqual([
      [0, 10, 'completed'],
      [20, 22, 'aborted'],
      [30, 38, 'aborted'],
      [40, 42, 'aborted'],
    ]);
    expect(live.washStartedTs).toBe(t0 + 70 * MINUTE_MS); // still running
  });
});
