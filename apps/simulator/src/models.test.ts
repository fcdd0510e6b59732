import {
  DEVICE_STATES,
  DEVICE_TYPE_SLUGS,
  telemetrySampleSchema,
  type DeviceTypeSlug,
} from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import {
  REPORTED_FIELDS,
  createDeviceModel,
  deviceSamples,
  sampleNow,
  type DeviceProfile,
} from './models.js';
import { localDayNumber, localToEpoch } from './time-zone.js';

const DAY = 86_400_000;
const MINUTE = 60_000;
/** Midnight of 2026-11-16 (a Monday) in Moscow. */
const MONDAY = Date.UTC(2026, 10, 15, 21, 0);

/** Wall-clock hours and minutes at `ts` in a zone, computed independently of the model's code. */
function localMinutes(ts: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(ts);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return value('hour') * 60 + value('minute');
}

function profile(type: DeviceTypeSlug, extra: Partial<DeviceProfile> = {}): DeviceProfile {
  return { type, controllerId: `SIM-${type}`, ...extra };
}

describe('time zones', () => {
  it('finds local midnight and shift start in the device zone', () => {
    const day = localDayNumber(Date.UTC(2026, 10, 22, 12), 'Asia/Novosibirsk');
    expect(new Date(localToEpoch(day, 0, 'Asia/Novosibirsk')).toISOString()).toBe('2026-11-21T17:00:00.000Z');
    expect(new Date(localToEpoch(day, 8 * 60, 'Europe/Moscow')).toISOString()).toBe(
      '2026-11-22T05:00:00.000Z',
    );
    // Across a DST change: Berlin is UTC+1 in March before the 29th and UTC+2 after.
    const spring = localDayNumber(Date.UTC(2026, 2, 30, 12), 'Europe/Berlin');
    expect(new Date(localToEpoch(spring, 8 * 60, 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-30T06:00:00.000Z',
    );
  });
});

describe('device models', () => {
  it.each(DEVICE_TYPE_SLUGS)('%s: every sample is valid and carries exactly its type’s fields', (type) => {
    const fields = REPORTED_FIELDS[type];
    const allowed = new Set(['ts', 'current', 'state', 'program', 'error_code']);
    if (fields.temperature) allowed.add('temperature');
    if (fields.door) allowed.add('door_open');
    if (fields.coreTemperature) allowed.add('core_temperature');
    if (fields.humidity) allowed.add('humidity');
    const states = new Set<string>();
    const problems: string[] = [];
    let count = 0;
    // A high failure rate, so faults are among the samples checked. Problems are collected and
    // compared once: an expect() per field of 6 000 samples is slow.
    for (const sample of deviceSamples(
      profile(type, { failureRate: 0.5 }),
      MONDAY,
      MONDAY + 4 * DAY,
      MINUTE,
    )) {
      count += 1;
      const where = JSON.stringify(sample);
      if (!telemetrySampleSchema.safeParse(sample).success) problems.push(`invalid: ${where}`);
      for (const key of Object.keys(sample)) if (!allowed.has(key)) problems.push(`${key} in ${where}`);
      if ('temperature' in sample !== fields.temperature) problems.push(`temperature: ${where}`);
      if ('door_open' in sample !== fields.door) problems.push(`door_open: ${where}`);
      if (!Number.isInteger(sample.ts)) problems.push(`ts: ${where}`);
      if (!DEVICE_STATES.includes(sample.state)) problems.push(`state: ${where}`);
      if ('error_code' in sample !== (sample.state === 'fault')) problems.push(`error_code: ${where}`);
      if ('core_temperature' in sample && sample.state !== 'cooking') problems.push(`core: ${where}`);
      states.add(sample.state);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(count).toBeGreaterThan(4 * 1440 * 0.9);
    expect(states.has('fault')).toBe(true);
    if (fields.wash) expect(states.has('washing')).toBe(true);
    else expect(states.has('washing')).toBe(false);
  });

  it('is deterministic: the same seed gives the same samples, another seed others', () => {
    const run = (seed: number) =>
      JSON.stringify([...deviceSamples(profile('combi_oven', { seed }), MONDAY, MONDAY + DAY, MINUTE)]);
    expect(run(7)).toBe(run(7));
    expect(run(7)).not.toBe(run(8));
    // A sample does not depend on the interval it is asked at.
    const model = createDeviceModel(profile('dishwasher', { seed: 3 }));
    const fine = [...deviceSamples(model, MONDAY, MONDAY + DAY, 10_000)].filter((s) => s.ts % MINUTE === 0);
    const coarse = [...deviceSamples(profile('dishwasher', { seed: 3 }), MONDAY, MONDAY + DAY, MINUTE)];
    expect(fine).toEqual(coarse);
  });

  it('a combi oven’s day: off at night, heating after shift start (local time), cooking, a wash', () => {
    const timeZone = 'Asia/Novosibirsk';
    const days = 7;
    const model = createDeviceModel(
      profile('combi_oven', { timeZone, shiftStart: '09:30', failureRate: 0, offlineRate: 0 }),
    );
    // Midnight in Novosibirsk (UTC+7) of the same Monday.
    const start = MONDAY + 3 * 3_600_000 - 7 * 3_600_000;
    let washDays = 0;
    for (let day = 0; day < days; day++) {
      const samples = [...deviceSamples(model, start + day * DAY, start + (day + 1) * DAY, MINUTE)];
      expect(samples).toHaveLength(1440);
      // One sample a minute from local midnight: the sample of a local time is at its minute's index.
      const at = (minutes: number) => samples[minutes]!;
      expect(localMinutes(at(3 * 60).ts, timeZone)).toBe(3 * 60);
      expect(at(3 * 60).state).toBe('off');
      expect(at(3 * 60).current).toBe(0);
      expect(at(23 * 60 + 30).state).toBe('off');

      const firstHeating = samples.find((s) => s.state === 'heating')!;
      const heatingAt = localMinutes(firstHeating.ts, timeZone);
      expect(heatingAt).toBeGreaterThanOrEqual(9 * 60 + 30 - 30);
      expect(heatingAt).toBeLessThanOrEqual(9 * 60 + 30 + 120);
      expect(firstHeating.current).toBeGreaterThan(15);
      expect(samples.slice(0, samples.indexOf(firstHeating)).every((s) => s.state === 'off')).toBe(true);

      const cooking = samples.filter((s) => s.state === 'cooking');
      expect(cooking.length).toBeGreaterThan(60);
      expect(cooking.every((s) => typeof s.program === 'string')).toBe(true);
      expect(Math.max(...cooking.map((s) => s.temperature!))).toBeGreaterThan(150);
      expect(cooking.some((s) => s.door_open)).toBe(true);
      expect(cooking.some((s) => s.core_temperature !== undefined)).toBe(true);
      const idle = samples.filter((s) => s.state === 'idle');
      expect(idle.every((s) => s.current >= 0.4 && s.current <= 2.2)).toBe(true);

      const washing = samples.filter((s) => s.state === 'washing');
      if (washing.length > 0) {
        washDays += 1;
        expect(washing.length).toBeGreaterThanOrEqual(60);
        expect(localMinutes(washing[0]!.ts, timeZone)).toBeGreaterThan(
          localMinutes(cooking.at(-1)!.ts, timeZone),
        );
      }
    }
    expect(washDays).toBeGreaterThanOrEqual(4);
  });

  it('dishwashers wash several times a day', () => {
    const model = createDeviceModel(profile('dishwasher', { failureRate: 0, offlineRate: 0 }));
    for (let day = 0; day < 3; day++) {
      const samples = [...deviceSamples(model, MONDAY + day * DAY, MONDAY + (day + 1) * DAY, MINUTE)];
      let sessions = 0;
      samples.forEach((s, i) => {
        if (s.state === 'washing' && samples[i - 1]?.state !== 'washing') sessions += 1;
      });
      expect(sessions).toBeGreaterThanOrEqual(3);
      expect(Math.max(...samples.map((s) => s.temperature!))).toBeGreaterThan(80);
    }
  });

  it('fridges and freezers hold their temperature, cycle the compressor and never switch off', () => {
    for (const [type, low, high] of [
      ['refrigerator', 0, 8],
      ['freezer', -21, -12],
    ] as const) {
      const samples = [
        ...deviceSamples(profile(type, { failureRate: 0, offlineRate: 0 }), MONDAY, MONDAY + 7 * DAY, MINUTE),
      ];
      expect(samples).toHaveLength(7 * 1440);
      const outside = samples.filter(
        (s) => s.state !== 'idle' || s.temperature! < low || s.temperature! > high || s.current >= 6,
      );
      expect(outside.slice(0, 3)).toEqual([]);
      const running = samples.filter((s) => s.current > 1).length / samples.length;
      expect(running).toBeGreaterThan(0.3);
      expect(running).toBeLessThan(0.8);
      expect(samples.some((s) => s.door_open)).toBe(true);
    }
  });

  it('a fridge fault raises the temperature with an error code', () => {
    const samples = [
      ...deviceSamples(
        profile('refrigerator', { failureRate: 1, offlineRate: 0 }),
        MONDAY,
        MONDAY + DAY,
        MINUTE,
      ),
    ];
    const faults = samples.filter((s) => s.state === 'fault');
    expect(faults.length).toBeGreaterThanOrEqual(10);
    expect(faults.every((s) => s.error_code && s.current < 1)).toBe(true);
    expect(faults.at(-1)!.temperature!).toBeGreaterThan(faults[0]!.temperature!);
  });

  it('goes offline now and then: no samples for 10–60 minutes', () => {
    const samples = [
      ...deviceSamples(profile('fryer', { offlineRate: 1 }), MONDAY, MONDAY + 3 * DAY, MINUTE),
    ];
    const gaps = samples
      .slice(1)
      .map((s, i) => s.ts - samples[i]!.ts)
      .filter((gap) => gap > MINUTE);
    expect(gaps).toHaveLength(3);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(10 * MINUTE);
      expect(gap).toBeLessThanOrEqual(61 * MINUTE);
    }
  });

  it('gives the sample now', () => {
    const now = MONDAY + 13 * 3_600_000;
    const sample = sampleNow(profile('convection_oven', { offlineRate: 0 }), now);
    expect(sample?.ts).toBe(now);
  });

  it('refuses an unknown type, shift start or time zone', () => {
    expect(() => createDeviceModel(profile('toaster' as DeviceTypeSlug))).toThrow(/type/);
    expect(() => createDeviceModel(profile('fryer', { shiftStart: '25:00' }))).toThrow(/Shift start/);
    expect(() => createDeviceModel(profile('fryer', { timeZone: 'Mars/Olympus' }))).toThrow(/time zone/);
  });
});
