import { describe, expect, it } from 'vitest';
import { datesBetween, localDateTime, zonedDayStart, zoneOffsetMs } from './time-zones.js';

describe('time zones', () => {
  it('finds where a local day begins, also on a daylight-saving day', () => {
    expect(new Date(zonedDayStart('2026-03-02', 'Europe/Moscow')).toISOString()).toBe(
      '2026-03-01T21:00:00.000Z',
    );
    expect(new Date(zonedDayStart('2026-03-08', 'America/New_York')).toISOString()).toBe(
      '2026-03-08T05:00:00.000Z',
    );
    expect(new Date(zonedDayStart('2026-03-09', 'America/New_York')).toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    );
    expect(zoneOffsetMs(Date.parse('2026-07-01T12:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * 3_600_000);
  });

  it('reads local dates and times, and lists dates', () => {
    expect(localDateTime(Date.parse('2026-03-01T21:30:00Z'), 'Europe/Moscow')).toEqual({
      date: '2026-03-02',
      time: '00:30',
    });
    expect(datesBetween('2026-02-27', '2026-03-02')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
  });
});
