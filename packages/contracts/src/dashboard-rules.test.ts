import { describe, expect, it } from 'vitest';
import {
  dashboardCounters,
  isOffline,
  isOnline,
  isWashOutdated,
  isWithoutNorm,
  isWorkStartedSlow,
  shiftStartUtc,
  type DashboardRuleDevice,
} from './dashboard-rules.js';

const MINUTE = 60_000;
const NOW = Date.parse('2026-11-23T10:00:00.000Z');

function device(overrides: Partial<DashboardRuleDevice> = {}): DashboardRuleDevice {
  return {
    is_smart: true,
    template_id: 1,
    shift_start: null,
    time_zone: 'UTC',
    last_online: { last_utc: new Date(NOW).toISOString() },
    work_start: { date: null, start: null },
    wash_interval_hours: null,
    last_wash_at: null,
    open_events: 0,
    ...overrides,
  };
}

const lastOnlineMinutesAgo = (minutes: number) =>
  device({ last_online: { last_utc: new Date(NOW - minutes * MINUTE).toISOString() } });

describe('online and offline (1 440 minutes)', () => {
  it.each([
    [1439, true],
    [1440, true],
    [1441, false],
  ])('last online %i minutes ago: online %s', (minutes, online) => {
    expect(isOnline(lastOnlineMinutesAgo(minutes), NOW)).toBe(online);
    expect(isOffline(lastOnlineMinutesAgo(minutes), NOW)).toBe(!online);
  });

  it('is offline a millisecond past 1 440 minutes, and when never online', () => {
    const justPast = device({ last_online: { last_utc: new Date(NOW - 1440 * MINUTE - 1).toISOString() } });
    expect(isOffline(justPast, NOW)).toBe(true);
    expect(isOffline(device({ last_online: { last_utc: null } }), NOW)).toBe(true);
  });
});

describe('slow start (shift start against the current UTC time, threshold 0)', () => {
  it('is not slow at the shift start exactly, and slow a minute later without a work start', () => {
    const oven = device({ shift_start: '10:00' });
    expect(isWorkStartedSlow(oven, NOW)).toBe(false);
    expect(isWorkStartedSlow(oven, NOW + MINUTE)).toBe(true);
    expect(isWorkStartedSlow(oven, NOW - MINUTE)).toBe(false);
  });

  it('is not slow when work started on time today, slow when it started late', () => {
    const later = NOW + 30 * MINUTE;
    expect(
      isWorkStartedSlow(
        device({ shift_start: '10:00', work_start: { date: '2026-11-23', start: '09:55' } }),
        later,
      ),
    ).toBe(false);
    expect(
      isWorkStartedSlow(
        device({ shift_start: '10:00', work_start: { date: '2026-11-23', start: '10:00' } }),
        later,
      ),
    ).toBe(false);
    expect(
      isWorkStartedSlow(
        device({ shift_start: '10:00', work_start: { date: '2026-11-23', start: '10:01' } }),
        later,
      ),
    ).toBe(true);
    // A work start of an earlier day is no work start today.
    expect(
      isWorkStartedSlow(
        device({ shift_start: '10:00', work_start: { date: '2026-11-22', start: '09:00' } }),
        later,
      ),
    ).toBe(true);
  });

  it('counts only smart devices with a shift start', () => {
    expect(isWorkStartedSlow(device({ shift_start: null }), NOW + MINUTE)).toBe(false);
    expect(isWorkStartedSlow(device({ shift_start: '10:00', is_smart: false }), NOW + MINUTE)).toBe(false);
  });

  it('reads the shift in the address’s zone when the local date is ahead of UTC (Vladivostok, UTC+10)', () => {
    // 2026-11-23 15:30 UTC is 2026-11-24 01:30 in Vladivostok: today there is the 24th.
    const now = Date.parse('2026-11-23T15:30:00Z');
    expect(shiftStartUtc('01:00', 'Asia/Vladivostok', now)).toBe(Date.parse('2026-11-23T15:00:00Z'));
    const oven = device({ shift_start: '01:00', time_zone: 'Asia/Vladivostok' });
    expect(isWorkStartedSlow(oven, now)).toBe(true);
    expect(isWorkStartedSlow({ ...oven, work_start: { date: '2026-11-24', start: '00:50' } }, now)).toBe(
      false,
    );
    // The 23rd's start is yesterday there.
    expect(isWorkStartedSlow({ ...oven, work_start: { date: '2026-11-23', start: '00:50' } }, now)).toBe(
      true,
    );
    expect(isWorkStartedSlow({ ...oven, shift_start: '02:00' }, now)).toBe(false);
  });

  it('reads the shift in the address’s zone when the local date is behind UTC (New York, UTC−5)', () => {
    // 2026-11-24 02:00 UTC is 2026-11-23 21:00 in New York: today there is still the 23rd.
    const now = Date.parse('2026-11-24T02:00:00Z');
    expect(shiftStartUtc('20:30', 'America/New_York', now)).toBe(Date.parse('2026-11-24T01:30:00Z'));
    const fryer = device({ shift_start: '20:30', time_zone: 'America/New_York' });
    expect(isWorkStartedSlow(fryer, now)).toBe(true);
    expect(isWorkStartedSlow({ ...fryer, work_start: { date: '2026-11-23', start: '20:15' } }, now)).toBe(
      false,
    );
    expect(isWorkStartedSlow({ ...fryer, shift_start: '21:00' }, now)).toBe(false);
    expect(isWorkStartedSlow({ ...fryer, shift_start: '21:00' }, now + 1)).toBe(true);
  });

  it('places the shift right on a daylight-saving day', () => {
    // Berlin moved to UTC+1 on 2026-10-25 at 03:00 local: a 09:00 shift that day is 08:00 UTC.
    expect(shiftStartUtc('09:00', 'Europe/Berlin', Date.parse('2026-10-25T12:00:00Z'))).toBe(
      Date.parse('2026-10-25T08:00:00Z'),
    );
    expect(shiftStartUtc('01:30', 'Europe/Berlin', Date.parse('2026-10-25T12:00:00Z'))).toBe(
      Date.parse('2026-10-24T23:30:00Z'),
    );
  });
});

describe('wash outdated', () => {
  const washer = (hoursAgo: number | null) =>
    device({
      wash_interval_hours: 24,
      last_wash_at: hoursAgo === null ? null : new Date(NOW - hoursAgo * 3_600_000).toISOString(),
    });

  it('is outdated when the last completed wash is older than the interval, or there was none', () => {
    expect(isWashOutdated(washer(23.99), NOW)).toBe(false);
    expect(isWashOutdated(washer(24), NOW)).toBe(false);
    expect(isWashOutdated(washer(24.01), NOW)).toBe(true);
    expect(isWashOutdated(washer(null), NOW)).toBe(true);
  });

  it('never counts types that do not wash, nor devices that are not smart', () => {
    expect(isWashOutdated(device({ wash_interval_hours: null }), NOW)).toBe(false);
    expect(isWashOutdated({ ...washer(null), is_smart: false }, NOW)).toBe(false);
  });
});

describe('without norm', () => {
  it('is a smart device with no template', () => {
    expect(isWithoutNorm(device({ template_id: null }))).toBe(true);
    expect(isWithoutNorm(device({ template_id: 3 }))).toBe(false);
    expect(isWithoutNorm(device({ template_id: null, is_smart: false }))).toBe(false);
  });
});

describe('dashboardCounters', () => {
  it('counts every rule in one pass', () => {
    const counters = dashboardCounters(
      [
        lastOnlineMinutesAgo(5),
        lastOnlineMinutesAgo(2000),
        device({ last_online: { last_utc: null }, template_id: null }),
        device({ shift_start: '09:00', open_events: 2 }),
        device({ wash_interval_hours: 24 }),
      ],
      NOW,
    );
    expect(counters).toEqual({
      online: 3,
      offline: 2,
      washOutdated: 1,
      workStartedSlow: 1,
      issueReports: 1,
      devicesWithoutTmplNorma: 1,
    });
  });
});
