import {
  DEVICE_STATES,
  NORM_STATES,
  WORKING_STATES,
  type EventDetails,
  type DeviceState,
  type EventRule,
  type Norms,
} from '@kontrol/contracts';
import type { StoredSample } from '../ingest/derive.js';

/**
 * The current templates' rules over a device's samples (docs/events.md, "Rules"). Pure: the
 * engine (rules-engine.ts) loads the template, the device's conditions and open events from the
 * database, calls these and writes what they return.
 *
 * A condition holds from the first sample where its test passes (`since`) to the first where it
 * fails. Its event opens once it has held for the rule's duration — the event starts at `since`
 * — and closes at the sample where the condition stops holding. One event per condition is open
 * at a time.
 */

/** A template as the rules read it. */
export interface RuleTemplate {
  id: number;
  norms: Norms;
  rules: readonly EventRule[];
}

/** Since when each condition has held (condition key → epoch ms): the `device_rule_state` row. */
export type Conditions = Record<string, number>;

export interface Opened {
  conditionKey: string;
  rule: EventRule;
  startedTs: number;
  value: number | null;
  details: EventDetails;
}

export interface Closed {
  conditionKey: string;
  endedTs: number;
}

export type Transition = { type: 'open'; event: Opened } | { type: 'close'; end: Closed };

export interface Evaluation {
  conditions: Conditions;
  opened: Opened[];
  closed: Closed[];
  /**
   * Both, in the order they happened: a condition may open and close (and open again) within one
   * batch, and its close must be written after its open.
   */
  transitions: Transition[];
}

const MINUTE_MS = 60_000;
/** Below this a device that reports only current counts as off. */
export const OFF_CURRENT_A = 0.2;
const WORKING = new Set<DeviceState>(WORKING_STATES);

export function conditionKey(templateId: number, rule: Pick<EventRule, 'key'>): string {
  return `${templateId}:${rule.key}`;
}

/**
 * The state a sample stands for. A device whose type reports its state says it; one watched only
 * by a clamp meter is classified by its template's bands: off below {@link OFF_CURRENT_A}, else the
 * first of idle, heating, cooking, washing whose band holds the current, else heating when above
 * the idle band (or with no idle band), else idle.
 */
export function effectiveState(sample: StoredSample, norms: Norms, reportsState: boolean): DeviceState {
  if (reportsState) return DEVICE_STATES[sample.state] ?? 'off';
  const current = sample.current;
  if (current < OFF_CURRENT_A) return 'off';
  for (const state of NORM_STATES) {
    const band = norms[state];
    if (band && current >= band.min && current <= band.max) return state;
  }
  return norms.idle && current < norms.idle.min ? 'idle' : 'heating';
}

interface Test {
  holds: boolean;
  value: number | null;
  details: EventDetails;
}

const NOT_HOLDING: Test = { holds: false, value: null, details: {} };

function test(rule: EventRule, sample: StoredSample, state: DeviceState, norms: Norms): Test {
  switch (rule.kind) {
    case 'current_above':
    case 'current_below': {
      const band = norms[rule.state];
      if (!band || state !== rule.state) return NOT_HOLDING;
      const beyond = rule.kind === 'current_above' ? sample.current > band.max : sample.current < band.min;
      return beyond ? { holds: true, value: sample.current, details: { state, band } } : NOT_HOLDING;
    }
    case 'state_too_long':
      return state === rule.state
        ? { holds: true, value: null, details: { state, minutes: rule.duration_minutes } }
        : NOT_HOLDING;
    case 'error_code': {
      const code = sample.errorCode;
      if (code === null || (rule.codes.length > 0 && !rule.codes.includes(code))) return NOT_HOLDING;
      return { holds: true, value: null, details: { code } };
    }
    case 'door_open_while_heating':
      return sample.doorOpen === 1 && WORKING.has(state)
        ? { holds: true, value: null, details: { state } }
        : NOT_HOLDING;
    case 'no_data':
      // Any sample ends a "no data" condition; it is opened by the timer (noDataDue).
      return NOT_HOLDING;
  }
}

/**
 * Runs the template's rules over new samples of one device (sorted by time). `open` holds the
 * condition keys of the device's open events; conditions of rules the template no longer has are
 * dropped and their events closed at the first sample.
 */
export function evaluate(
  template: RuleTemplate,
  reportsState: boolean,
  previous: Conditions,
  open: ReadonlySet<string>,
  samples: readonly StoredSample[],
): Evaluation {
  const conditions: Conditions = {};
  const keys = template.rules.map((rule) => conditionKey(template.id, rule));
  const known = new Set(keys);
  for (const key of keys) if (previous[key] !== undefined) conditions[key] = previous[key];
  const stillOpen = new Set(open);
  const opened: Opened[] = [];
  const closed: Closed[] = [];
  const transitions: Transition[] = [];
  const close = (end: Closed) => {
    closed.push(end);
    transitions.push({ type: 'close', end });
  };
  const first = samples[0];
  if (first) {
    for (const key of open) {
      if (known.has(key)) continue;
      close({ conditionKey: key, endedTs: first.ts });
      stillOpen.delete(key);
    }
  }

  for (const sample of samples) {
    const state = effectiveState(sample, template.norms, reportsState);
    template.rules.forEach((rule, index) => {
      const key = keys[index] as string;
      const result = test(rule, sample, state, template.norms);
      if (!result.holds) {
        delete conditions[key];
        if (stillOpen.delete(key)) close({ conditionKey: key, endedTs: sample.ts });
        return;
      }
      const since = (conditions[key] ??= sample.ts);
      if (stillOpen.has(key) || sample.ts - since < rule.duration_minutes * MINUTE_MS) return;
      stillOpen.add(key);
      const value =
        rule.kind === 'state_too_long' ? Math.round((sample.ts - since) / MINUTE_MS) : result.value;
      const event: Opened = { conditionKey: key, rule, startedTs: since, value, details: result.details };
      opened.push(event);
      transitions.push({ type: 'open', event });
    });
  }
  return { conditions, opened, closed, transitions };
}

/**
 * The `no_data` rules due for a device whose newest sample is `lastTs` (epoch ms, its clock) at
 * `now`: those whose duration has passed since, with no open event yet.
 */
export function noDataDue(
  template: RuleTemplate,
  lastTs: number,
  open: ReadonlySet<string>,
  now: number,
): Opened[] {
  const due: Opened[] = [];
  for (const rule of template.rules) {
    if (rule.kind !== 'no_data') continue;
    const key = conditionKey(template.id, rule);
    if (open.has(key) || now - lastTs < rule.duration_minutes * MINUTE_MS) continue;
    due.push({
      conditionKey: key,
      rule,
      startedTs: lastTs,
      value: Math.floor((now - lastTs) / MINUTE_MS),
      details: { minutes: rule.duration_minutes },
    });
  }
  return due;
}
