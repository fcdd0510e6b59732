import { describe, expect, it } from 'vitest';
import { paths } from '../../config/paths';
import {
  fromLocalInput,
  parseDeviceIds,
  parseMoment,
  periodOf,
  periodProblem,
  presetAnchor,
  presetPeriod,
  toLocalInput,
} from './telemetry-view';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the telemetry tab’s query string', () => {
  it('reads devices as positive ids, once each, at most 50', () => {
    expect(parseDeviceIds('3,1,x,3,0,-2, 2 ')).toEqual([3, 1, 2]);
    expect(parseDeviceIds('')).toEqual([]);
    expect(parseDeviceIds(Array.from({ length: 60 }, (_, i) => i + 1).join(','))).toHaveLength(50);
  });

  it('takes start and finish over the preset, and the preset ending now otherwise', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(periodOf({ period: '7d', start: '', finish: '' }, now)).toEqual({
      choice: '7d',
      period: { start: now - 7 * DAY, finish: now },
    });
    expect(
      periodOf({ period: '7d', start: '2026-11-20T00:00:00Z', finish: '2026-11-21T00:00:00Z' }, now),
    ).toEqual({
      choice: 'custom',
      period: { start: Date.parse('2026-11-20T00:00:00Z'), finish: Date.parse('2026-11-21T00:00:00Z') },
    });
    expect(periodOf({ period: 'week', start: 'yesterday', finish: '' }, now).choice).toBe('24h');
  });

  it('starts "today" at local midnight and holds "now" still for a minute', () => {
    const now = new Date(2026, 10, 22, 15, 42, 10).getTime();
    expect(presetPeriod('today', now).start).toBe(new Date(2026, 10, 22).getTime());
    expect(presetAnchor(now)).toBe(new Date(2026, 10, 22, 15, 43).getTime());
    expect(presetPeriod('30d', now)).toEqual({ start: now - 30 * DAY, finish: now });
  });

  it('refuses a period that ends before it starts or runs past 400 days', () => {
    expect(periodProblem({ start: 10, finish: 10 })).toBe('order');
    expect(periodProblem({ start: 0, finish: 401 * DAY })).toBe('too_long');
    expect(periodProblem({ start: 0, finish: DAY })).toBeNull();
  });

  it('moves moments between datetime-local inputs and the URL', () => {
    const ms = new Date(2026, 10, 22, 8, 5).getTime();
    expect(toLocalInput(ms)).toBe('2026-11-22T08:05');
    expect(fromLocalInput('2026-11-22T08:05')).toBe(ms);
    expect(fromLocalInput('2026-11-22')).toBeNull();
    expect(parseMoment('2026-11-22T05:05:00Z')).toBe(Date.parse('2026-11-22T05:05:00Z'));
    expect(parseMoment('1700000000000')).toBeNull();
  });

  it('links to a view of the page', () => {
    expect(paths.account.telemetry()).toBe('/account/telemetry');
    expect(paths.account.telemetry({ tab: 'notifications' })).toBe('/account/telemetry?tab=notifications');
    expect(
      paths.account.telemetry({
        devices: [4, 2],
        start: Date.parse('2026-11-22T00:00:00.000Z'),
        finish: new Date('2026-11-22T12:30:00.000Z'),
      }),
    ).toBe('/account/telemetry?devices=4%2C2&start=2026-11-22T00%3A00%3A00Z&finish=2026-11-22T12%3A30%3A00Z');
  });
});
