import {
  DASHBOARD_COUNTERS,
  hasIssue,
  isOffline,
  isWashOutdated,
  isWithoutNorm,
  isWorkStartedSlow,
  shiftStartUtc,
  type DashboardCounter,
  type DashboardCounters,
  type DashboardDevice,
  type DashboardRuleDevice,
} from '@kontrol/contracts';
import { paths } from '../../config/paths';

/**
 * What the dashboard works out of the statistics in the browser: the rules of
 * `@kontrol/contracts` dashboard-rules.ts per device, the six counters, the problems and the
 * status circles. Live updates change a few devices at a time, so each device's answers are kept
 * with its object and worked out again only for the devices that changed (or when the minute does).
 */

const HOUR_MS = 3_600_000;

/** Which of the counters' rules a device meets (`online` is `!offline`). */
export interface DeviceFlags {
  offline: boolean;
  washOutdated: boolean;
  workStartedSlow: boolean;
  issue: boolean;
  withoutNorm: boolean;
}

// The slow-start rule formats dates in the device's zone, the costly part with thousands of
// devices; devices alike in what it reads (most of a fleet) share one answer per moment.
let slowMoment = Number.NaN;
const slowAnswers = new Map<string, boolean>();

function workStartedSlow(device: DashboardRuleDevice, now: number): boolean {
  if (!device.is_smart || device.shift_start === null) return false;
  if (now !== slowMoment) {
    slowMoment = now;
    slowAnswers.clear();
  }
  const key = `${device.shift_start}|${device.time_zone}|${device.work_start.date ?? ''}|${device.work_start.start ?? ''}`;
  let answer = slowAnswers.get(key);
  if (answer === undefined) {
    answer = isWorkStartedSlow(device, now);
    slowAnswers.set(key, answer);
  }
  return answer;
}

// Today's shift start in a zone, shared by the devices with the same shift and zone.
let shiftMoment = Number.NaN;
const shiftStarts = new Map<string, number>();

function shiftStart(shift: string, timeZone: string, now: number): number {
  if (now !== shiftMoment) {
    shiftMoment = now;
    shiftStarts.clear();
  }
  const key = `${shift}|${timeZone}`;
  let start = shiftStarts.get(key);
  if (start === undefined) {
    start = shiftStartUtc(shift, timeZone, now);
    shiftStarts.set(key, start);
  }
  return start;
}

const flagsCache = new WeakMap<DashboardRuleDevice, { now: number; flags: DeviceFlags }>();

/** The rules a device meets at `now` (epoch ms, the server's clock). */
export function flagsOf(device: DashboardRuleDevice, now: number): DeviceFlags {
  const cached = flagsCache.get(device);
  if (cached?.now === now) return cached.flags;
  const flags: DeviceFlags = {
    offline: isOffline(device, now),
    washOutdated: isWashOutdated(device, now),
    workStartedSlow: workStartedSlow(device, now),
    issue: hasIssue(device),
    withoutNorm: isWithoutNorm(device),
  };
  flagsCache.set(device, { now, flags });
  return flags;
}

/** Whether a device's flags count in `counter` (the same as the contracts' `countsIn`). */
export function flagsCountIn(counter: DashboardCounter, flags: DeviceFlags): boolean {
  switch (counter) {
    case 'online':
      return !flags.offline;
    case 'offline':
      return flags.offline;
    case 'washOutdated':
      return flags.washOutdated;
    case 'workStartedSlow':
      return flags.workStartedSlow;
    case 'issueReports':
      return flags.issue;
    case 'devicesWithoutTmplNorma':
      return flags.withoutNorm;
  }
}

/** The six counters of docs/contract.md, "Product and areas" at `now`, in one pass over the devices. */
export function countDevices(devices: readonly DashboardRuleDevice[], now: number): DashboardCounters {
  const counters: DashboardCounters = {
    online: 0,
    offline: 0,
    washOutdated: 0,
    workStartedSlow: 0,
    issueReports: 0,
    devicesWithoutTmplNorma: 0,
  };
  for (const device of devices) {
    const flags = flagsOf(device, now);
    if (flags.offline) counters.offline += 1;
    else counters.online += 1;
    if (flags.washOutdated) counters.washOutdated += 1;
    if (flags.workStartedSlow) counters.workStartedSlow += 1;
    if (flags.issue) counters.issueReports += 1;
    if (flags.withoutNorm) counters.devicesWithoutTmplNorma += 1;
  }
  return counters;
}

export function isDashboardCounter(value: string): value is DashboardCounter {
  return (DASHBOARD_COUNTERS as readonly string[]).includes(value);
}

/** The ids of the devices counting in `counter` at `now` (the device list's `counter` filter). */
export function devicesCountingIn(
  counter: DashboardCounter,
  devices: readonly (DashboardRuleDevice & { id: number })[],
  now: number,
): Set<number> {
  const ids = new Set<number>();
  for (const device of devices) {
    if (flagsCountIn(counter, flagsOf(device, now))) ids.add(device.id);
  }
  return ids;
}

/**
 * A device's status circle: `problem` with an open event, or, online, a late start or an overdue
 * wash (what needs someone now); `offline` when offline without an open event; `online` otherwise.
 * A missing current template is listed among the problems but does not colour the circle: it is a
 * setting to make, not a fault.
 */
export type DeviceStatus = 'online' | 'offline' | 'problem';

export function statusOf(flags: DeviceFlags): DeviceStatus {
  if (flags.issue) return 'problem';
  if (flags.offline) return 'offline';
  return flags.workStartedSlow || flags.washOutdated ? 'problem' : 'online';
}

/** One problem of one device: open events or complaints (summed per device), or a rule it meets. */
export type ProblemKind =
  'event' | 'complaint' | 'offline' | 'workStartedSlow' | 'washOutdated' | 'withoutNorm';

export interface DeviceProblem {
  kind: ProblemKind;
  device: DashboardDevice;
  /** When it began (epoch ms); null when unknown (never online, never washed, no template). */
  since: number | null;
  /** Open events: the highest severity, and how many are open; open complaints: how many. */
  severity?: 'info' | 'warning' | 'critical';
  count?: number;
}

const problemsCache = new WeakMap<DashboardDevice, { now: number; problems: DeviceProblem[] }>();

/**
 * The problems of one device at `now`, most urgent first; the same objects while the device and
 * the moment stay the same, so lists showing them re-render only the devices that changed.
 */
export function problemsOf(device: DashboardDevice, now: number): DeviceProblem[] {
  const cached = problemsCache.get(device);
  if (cached?.now === now) return cached.problems;
  const problems = findProblems(device, now);
  problemsCache.set(device, { now, problems });
  return problems;
}

function findProblems(device: DashboardDevice, now: number): DeviceProblem[] {
  const flags = flagsOf(device, now);
  const problems: DeviceProblem[] = [];
  if (device.open_events > 0) {
    problems.push({
      kind: 'event',
      device,
      since: device.problem_since ? Date.parse(device.problem_since) : null,
      severity: device.open_severity ?? 'warning',
      count: device.open_events,
    });
  }
  const complaints = device.open_complaints ?? 0;
  if (complaints > 0) problems.push({ kind: 'complaint', device, since: null, count: complaints });
  if (flags.offline) {
    const last = device.last_online.last_utc;
    problems.push({ kind: 'offline', device, since: last ? Date.parse(last) : null });
  }
  if (flags.workStartedSlow && device.shift_start !== null) {
    problems.push({
      kind: 'workStartedSlow',
      device,
      since: shiftStart(device.shift_start, device.time_zone, now),
    });
  }
  if (flags.washOutdated) {
    const last = device.last_wash_at;
    problems.push({
      kind: 'washOutdated',
      device,
      since:
        last !== null && device.wash_interval_hours !== null
          ? Date.parse(last) + device.wash_interval_hours * HOUR_MS
          : null,
    });
  }
  if (flags.withoutNorm) problems.push({ kind: 'withoutNorm', device, since: null });
  return problems;
}

const URGENCY: Record<ProblemKind, number> = {
  event: 0,
  complaint: 1,
  offline: 2,
  workStartedSlow: 3,
  washOutdated: 4,
  withoutNorm: 6,
};
/** Critical and warning events before everything else; an informational one after the rules. */
const EVENT_URGENCY = { critical: 0, warning: 1, info: 5 } as const;
const urgencyOf = (problem: DeviceProblem) =>
  problem.kind === 'event' ? EVENT_URGENCY[problem.severity ?? 'warning'] : URGENCY[problem.kind];
/** Made on first use: the browser's first collator loads its rules, a long task on a slow phone. */
let names: Intl.Collator | undefined;
const nameOrder = () => (names ??= new Intl.Collator(undefined, { numeric: true }));

/**
 * Every device's problems, the most urgent kind first and, within a kind, the longest-standing
 * first (unknown beginnings first of all: never online, never washed), then by name. Sorted by
 * precomputed numbers: a fleet can have thousands of problems, re-sorted on every live update.
 */
export function allProblems(devices: readonly DashboardDevice[], now: number): DeviceProblem[] {
  const keyed: { problem: DeviceProblem; urgency: number; since: number }[] = [];
  for (const device of devices) {
    const flags = flagsOf(device, now);
    if (flags.issue || flags.offline || flags.workStartedSlow || flags.washOutdated || flags.withoutNorm) {
      for (const problem of problemsOf(device, now)) {
        keyed.push({
          problem,
          urgency: urgencyOf(problem),
          since: problem.since ?? Number.NEGATIVE_INFINITY,
        });
      }
    }
  }
  keyed.sort(
    (a, b) =>
      a.urgency - b.urgency ||
      (a.since === b.since
        ? nameOrder().compare(a.problem.device.name, b.problem.device.name)
        : a.since - b.since),
  );
  return keyed.map((entry) => entry.problem);
}

/**
 * The devices list filtered by a counter (`/account/devices?counter=offline`), and by a device
 * type when the dashboard shows one. Built here rather than in config/paths.ts, which is part of
 * the first bundle: nothing of the dashboard goes there.
 */
export function counterListPath(counter: DashboardCounter, type: number | null = null): string {
  const query = new URLSearchParams({ counter });
  if (type !== null) query.set('type', String(type));
  return `${paths.account.devices.list}?${query.toString()}`;
}
