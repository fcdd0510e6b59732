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

  it('gives the offset Intl gives at every moment, across daylight-saving changes and odd ones', () => {
    const direct = (ts: number, format: Intl.DateTimeFormat) => {
      const parts = Object.fromEntries(format.formatToParts(ts).map((part) => [part.type, part.value]));
      return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
    };
    const DAY = 86_400_000;
    // New York and Sydney change by an hour, Lord Howe by half an hour, Chatham at a quarter to.
    for (const zone of ['America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'Pacific/Chatham']) {
      const format = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
      const changes: number[] = [];
      const offsetAt = (ts: number) =>
        Date.parse(`${direct(ts, format).date}T${direct(ts, format).time}:00Z`) - ts;
      for (let day = Date.parse('2026-01-01T00:00:00Z'); day < Date.parse('2027-01-01T00:00:00Z'); day += DAY)
        if (offsetAt(day) !== offsetAt(day + DAY)) changes.push(day);
      expect(changes.length, zone).toBe(2);
      // Every 97 seconds through the day of each change: each quarter hour is asked at several moments.
      for (const day of changes)
        for (let ts = day; ts < day + DAY; ts += 97_000) {
          const got = localDateTime(ts, zone);
          const expected = direct(ts, format);
          if (got.date !== expected.date || got.time !== expected.time)
            expect({ zone, at: new Date(ts).toISOString(), got }).toEqual({
              zone,
              at: new Date(ts).toISOString(),
              got: expected,
            });
        }
    }
    // Monrovia moved from -0:44:30 to UTC at 00:44:30 UTC on 1972-01-07, inside a quarter hour.
    expect(zoneOffsetMs(Date.parse('1972-01-07T00:44:29Z'), 'Africa/Monrovia')).toBe(-2_670_000);
    expect(zoneOffsetMs(Date.parse('1972-01-07T00:44:30Z'), 'Africa/Monrovia')).toBe(0);
    expect(zoneOffsetMs(Date.parse('1972-01-07T00:44:29Z'), 'Africa/Monrovia')).toBe(-2_670_000);
  });
});
