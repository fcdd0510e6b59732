import { dashboardCounters, type DashboardDevice } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import {
  allProblems,
  countDevices,
  devicesCountingIn,
  flagsOf,
  problemsOf,
  statusOf,
} from './dashboard-model';
import { buildDashboardDevice } from '../../test/entities';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const before = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

/** A varied fleet: every rule met by some devices, with several time zones and shift starts. */
function fleet(size: number): DashboardDevice[] {
  const zones = ['Europe/Moscow', 'Asia/Vladivostok', 'America/New_York', 'UTC'];
  return Array.from({ length: size }, (_, i) =>
    buildDashboardDevice({
      id: i + 1,
      name: `Устройство ${i + 1}`,
      is_smart: i % 9 !== 0,
      template_id: i % 5 === 0 ? null : 1,
      shift_start: i % 3 === 0 ? null : ['06:00', '09:30', '13:00'][i % 3 === 1 ? 0 : 1 + (i % 2)]!,
      time_zone: zones[i % zones.length]!,
      last_online: { last_utc: i % 7 === 0 ? null : before((i * 37) % 2000) },
      work_start: { date: i % 4 === 0 ? '2026-11-23' : null, start: i % 4 === 0 ? '08:15' : null },
      wash_interval_hours: i % 2 === 0 ? 24 : null,
      last_wash_at: i % 6 === 0 ? null : before((i * 53) % 2000),
      open_events: i % 11 === 0 ? 2 : 0,
      open_severity: i % 11 === 0 ? 'critical' : null,
      problem_since: i % 11 === 0 ? before(30) : null,
    }),
  );
}

describe('the dashboard model', () => {
  it('counts exactly as the shared rules do, in one pass', () => {
    const devices = fleet(500);
    expect(countDevices(devices, NOW)).toEqual(dashboardCounters(devices, NOW));
    // At 1 440 minutes a device is still online; at 1 441 it is offline (docs/contract.md, "States and transitions").
    const edge = [
      buildDashboardDevice({ id: 1, last_online: { last_utc: before(1440) } }),
      buildDashboardDevice({ id: 2, last_online: { last_utc: before(1441) } }),
    ];
    expect(countDevices(edge, NOW)).toMatchObject({ online: 1, offline: 1 });
    expect([...devicesCountingIn('offline', edge, NOW)]).toEqual([2]);
  });

  it('keeps what it worked out for a device until the device or the moment changes', () => {
    const device = buildDashboardDevice({ last_online: { last_utc: before(10) } });
    const flags = flagsOf(device, NOW);
    expect(flagsOf(device, NOW)).toBe(flags);
    expect(problemsOf(device, NOW)).toBe(problemsOf(device, NOW));
    // A day later the same device is offline.
    expect(flagsOf(device, NOW + 86_400_000).offline).toBe(true);
    expect(flagsOf({ ...device }, NOW)).not.toBe(flags);
  });

  it('colours a circle red for open events, late starts and overdue washes, not for a missing template', () => {
    const ok = {
      offline: false,
      washOutdated: false,
      workStartedSlow: false,
      issue: false,
      withoutNorm: false,
    };
    expect(statusOf(ok)).toBe('online');
    expect(statusOf({ ...ok, withoutNorm: true })).toBe('online');
    expect(statusOf({ ...ok, washOutdated: true })).toBe('problem');
    expect(statusOf({ ...ok, offline: true, workStartedSlow: true })).toBe('offline');
    expect(statusOf({ ...ok, offline: true, issue: true })).toBe('problem');
  });

  it('says since when: the last online moment, the shift start, the end of the wash interval', () => {
    const device = buildDashboardDevice({
      template_id: null,
      last_online: { last_utc: before(2000) },
      shift_start: '09:00',
      time_zone: 'Europe/Moscow',
      wash_interval_hours: 24,
      last_wash_at: before(48 * 60),
    });
    const problems = problemsOf(device, NOW);
    expect(problems.map((problem) => [problem.kind, problem.since])).toEqual([
      ['offline', NOW - 2000 * 60_000],
      // 09:00 in Moscow is 06:00 UTC.
      ['workStartedSlow', Date.parse('2026-11-23T06:00:00Z')],
      ['washOutdated', NOW - 24 * 3_600_000],
      ['withoutNorm', null],
    ]);
  });

  it('lists the most urgent problems first, the longest-standing first within a kind', () => {
    const devices = [
      buildDashboardDevice({ id: 1, name: 'Б', last_online: { last_utc: before(3000) } }),
      buildDashboardDevice({ id: 2, name: 'А', last_online: { last_utc: before(5000) } }),
      buildDashboardDevice({
        id: 3,
        name: 'В',
        open_events: 1,
        open_severity: 'info',
        problem_since: before(5),
      }),
      buildDashboardDevice({
        id: 4,
        name: 'Г',
        open_events: 1,
        open_severity: 'critical',
        problem_since: before(5),
      }),
      buildDashboardDevice({ id: 5, name: 'Д', template_id: null }),
    ];
    expect(allProblems(devices, NOW).map((problem) => [problem.device.name, problem.kind])).toEqual([
      ['Г', 'event'],
      ['А', 'offline'],
      ['Б', 'offline'],
      ['В', 'event'],
      ['Д', 'withoutNorm'],
    ]);
  });
});
