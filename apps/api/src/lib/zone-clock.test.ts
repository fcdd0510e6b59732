import { describe, expect, it } from 'vitest';
import { ZoneClock } from './zone-clock.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** What Intl says, field by field: the reference the clock must match. */
function intlParts(ts: number, timeZone: string) {
  let format = formats.get(timeZone);
  format ??= new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  formats.set(timeZone, format);
  const p: Record<string, string> = {};
  for (const part of format.formatToParts(ts)) p[part.type] = part.value;
  const offset = p.timeZoneName === 'GMT' ? '+00:00' : (p.timeZoneName ?? '').slice(3);
  return {
    time: `${p.hour}:${p.minute}`,
    iso: `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset}`,
  };
}

const ZONES = [
  'UTC',
  'Europe/Moscow',
  'Europe/Berlin',
  'America/New_York',
  'America/St_Johns', // −3:30, daylight-saving changes at half past a UTC hour
  'Australia/Adelaide', // +9:30 / +10:30, the same
  'Australia/Lord_Howe', // a half-hour daylight-saving shift
  'Asia/Kathmandu', // +5:45
  'Pacific/Chatham', // +12:45 / +13:45
  'Asia/Kolkata',
];

describe('ZoneClock', () => {
  it('gives the wall-clock time Intl gives, at random moments of 2000–2040', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const from = Date.UTC(2000, 0, 1);
    const to = Date.UTC(2040, 0, 1);
    for (const zone of ZONES) {
      const clock = new ZoneClock(zone);
      for (let i = 0; i < 2_000; i += 1) {
        const ts = Math.floor(from + random() * (to - from));
        const expected = intlParts(ts, zone);
        expect(clock.time(ts), `${zone} ${ts}`).toBe(expected.time);
        expect(clock.iso(ts), `${zone} ${ts}`).toBe(expected.iso);
      }
    }
  });

  it('is exact minute by minute across daylight-saving changes, also those at half past a UTC hour', () => {
    const changes: [string, number][] = [
      ['Australia/Adelaide', Date.UTC(2026, 3, 4, 15)], // ends 3:00 local = 16:30 UTC
      ['Australia/Adelaide', Date.UTC(2026, 9, 3, 15)], // begins 2:00 local = 16:30 UTC
      ['America/St_Johns', Date.UTC(2026, 2, 8, 4)], // begins 2:00 local = 5:30 UTC
      ['America/St_Johns', Date.UTC(2026, 10, 1, 3)], // ends 2:00 local = 4:30 UTC
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 14)],
      ['Europe/Berlin', Date.UTC(2026, 2, 29, 0)],
      ['Europe/Berlin', Date.UTC(2026, 9, 25, 0)],
    ];
    for (const [zone, start] of changes) {
      const clock = new ZoneClock(zone);
      for (let ts = start; ts < start + 3 * 3_600_000; ts += 60_000 + 1_234) {
        const expected = intlParts(ts, zone);
        expect(clock.time(ts), `${zone} ${new Date(ts).toISOString()}`).toBe(expected.time);
        expect(clock.iso(ts), `${zone} ${new Date(ts).toISOString()}`).toBe(expected.iso);
      }
    }
  });
});
