import type { DeviceState, EventRule, Norms } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import type { StoredSample } from '../ingest/derive.js';
import { STATE_CODES } from '../ingest/samples.js';
import { conditionKey, effectiveState, evaluate, noDataDue, type RuleTemplate } from './evaluate.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 23, 8, 0);
const norms: Norms = {
  idle: { min: 0.5, max: 2 },
  heating: { min: 20, max: 45 },
  cooking: { min: 5, max: 45 },
  washing: { min: 3, max: 12 },
};

function sample(
  minute: number,
  state: DeviceState,
  current: number,
  extra: Partial<StoredSample> = {},
): StoredSample {
  return {
    deviceId: 1,
    ts: T0 + minute * MINUTE,
    current,
    temperature: null,
    doorOpen: null,
    state: STATE_CODES[state],
    program: null,
    errorCode: null,
    coreTemperature: null,
    humidity: null,
    ...extra,
  };
}

/** A rule of any kind without its key (Omit over each member of the union). */
type KeylessRule = EventRule extends infer R ? (R extends EventRule ? Omit<R, 'key'> : never) : never;

function template(rule: KeylessRule): RuleTemplate {
  return { id: 9, norms, rules: [{ ...rule, key: 'r1' }] };
}
const KEY = '9:r1';

describe('current_above', () => {
  const t = template({ kind: 'current_above', state: 'heating', severity: 'critical', duration_minutes: 5 });

  it('opens after the condition has held for the duration exactly, starting when it began', () => {
    const samples = [0, 1, 2, 3, 4].map((m) => sample(m, 'heating', 50));
    const before = evaluate(t, true, {}, new Set(), samples);
    expect(before.opened).toEqual([]);
    expect(before.conditions).toEqual({ [KEY]: T0 });

    const at5 = evaluate(t, true, before.conditions, new Set(), [sample(5, 'heating', 50)]);
    expect(at5.opened).toHaveLength(1);
    expect(at5.opened[0]).toMatchObject({ conditionKey: KEY, startedTs: T0, value: 50 });
    expect(at5.opened[0]?.details).toEqual({ state: 'heating', band: norms.heating });
  });

  it('does not open twice while it holds, and closes at the first sample inside the band', () => {
    const open = new Set([KEY]);
    const still = evaluate(t, true, { [KEY]: T0 }, open, [sample(9, 'heating', 60)]);
    expect(still.opened).toEqual([]);
    expect(still.closed).toEqual([]);
    const cleared = evaluate(t, true, { [KEY]: T0 }, open, [sample(10, 'heating', 30)]);
    expect(cleared.closed).toEqual([{ conditionKey: KEY, endedTs: T0 + 10 * MINUTE }]);
    expect(cleared.conditions).toEqual({});
  });

  it('starts over when the condition breaks before the duration', () => {
    const samples = [
      sample(0, 'heating', 50),
      sample(3, 'heating', 40),
      sample(4, 'heating', 50),
      sample(8, 'heating', 50),
    ];
    const result = evaluate(t, true, {}, new Set(), samples);
    expect(result.opened).toEqual([]);
    expect(result.conditions).toEqual({ [KEY]: T0 + 4 * MINUTE });
  });

  it('is at the band max not above it, and looks only at its own state', () => {
    expect(evaluate(t, true, {}, new Set(), [sample(0, 'heating', 45)]).conditions).toEqual({});
    expect(evaluate(t, true, {}, new Set(), [sample(0, 'cooking', 60)]).conditions).toEqual({});
  });
});

describe('current_below', () => {
  it('opens at once with a zero duration when the current is under the band min', () => {
    const t = template({ kind: 'current_below', state: 'heating', severity: 'warning', duration_minutes: 0 });
    expect(evaluate(t, true, {}, new Set(), [sample(0, 'heating', 20)]).opened).toEqual([]);
    const result = evaluate(t, true, {}, new Set(), [sample(0, 'heating', 19.9)]);
    expect(result.opened).toHaveLength(1);
    expect(result.opened[0]?.value).toBe(19.9);
  });
});

describe('state_too_long', () => {
  const t = template({
    kind: 'state_too_long',
    state: 'washing',
    severity: 'warning',
    duration_minutes: 180,
  });

  it('opens when a wash has lasted the duration and closes when the state changes', () => {
    const samples = [sample(0, 'washing', 8), sample(179, 'washing', 8)];
    const running = evaluate(t, true, {}, new Set(), samples);
    expect(running.opened).toEqual([]);
    const long = evaluate(t, true, running.conditions, new Set(), [sample(180, 'washing', 8)]);
    expect(long.opened[0]).toMatchObject({
      startedTs: T0,
      value: 180,
      details: { state: 'washing', minutes: 180 },
    });
    const done = evaluate(t, true, long.conditions, new Set([KEY]), [sample(200, 'idle', 1)]);
    expect(done.closed).toEqual([{ conditionKey: KEY, endedTs: T0 + 200 * MINUTE }]);
  });
});

describe('error_code', () => {
  it('opens on any code when none are listed, and closes when the device stops reporting it', () => {
    const t = template({ kind: 'error_code', codes: [], severity: 'critical', duration_minutes: 0 });
    const raised = evaluate(t, true, {}, new Set(), [sample(0, 'fault', 0.4, { errorCode: 'E34' })]);
    expect(raised.opened[0]?.details).toEqual({ code: 'E34' });
    const cleared = evaluate(t, true, raised.conditions, new Set([KEY]), [sample(1, 'idle', 1)]);
    expect(cleared.closed).toHaveLength(1);
  });

  it('listens only to the listed codes', () => {
    const t = template({ kind: 'error_code', codes: ['E1'], severity: 'critical', duration_minutes: 0 });
    expect(evaluate(t, true, {}, new Set(), [sample(0, 'fault', 0.4, { errorCode: 'E2' })]).opened).toEqual(
      [],
    );
    expect(
      evaluate(t, true, {}, new Set(), [sample(0, 'fault', 0.4, { errorCode: 'E1' })]).opened,
    ).toHaveLength(1);
  });
});

describe('door_open_while_heating', () => {
  const t = template({ kind: 'door_open_while_heating', severity: 'warning', duration_minutes: 2 });

  it('holds while the door is open and the device heats or cooks, not while idle', () => {
    const idle = evaluate(t, true, {}, new Set(), [
      sample(0, 'idle', 1, { doorOpen: 1 }),
      sample(5, 'idle', 1, { doorOpen: 1 }),
    ]);
    expect(idle.opened).toEqual([]);
    const heating = evaluate(t, true, {}, new Set(), [
      sample(0, 'heating', 30, { doorOpen: 1 }),
      sample(1, 'cooking', 30, { doorOpen: 1 }),
      sample(2, 'cooking', 30, { doorOpen: 1 }),
    ]);
    expect(heating.opened).toHaveLength(1);
    const shut = evaluate(t, true, heating.conditions, new Set([KEY]), [
      sample(3, 'cooking', 30, { doorOpen: 0 }),
    ]);
    expect(shut.closed).toHaveLength(1);
  });
});

describe('no_data', () => {
  const t = template({ kind: 'no_data', severity: 'warning', duration_minutes: 30 });

  it('is due when the newest sample is the duration old, not a millisecond earlier', () => {
    expect(noDataDue(t, T0, new Set(), T0 + 30 * MINUTE - 1)).toEqual([]);
    const due = noDataDue(t, T0, new Set(), T0 + 30 * MINUTE);
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ conditionKey: KEY, startedTs: T0, value: 30 });
    expect(noDataDue(t, T0, new Set([KEY]), T0 + 60 * MINUTE)).toEqual([]);
  });

  it('closes at the first sample that arrives', () => {
    const result = evaluate(t, true, {}, new Set([KEY]), [sample(45, 'idle', 1)]);
    expect(result.closed).toEqual([{ conditionKey: KEY, endedTs: T0 + 45 * MINUTE }]);
  });
});

describe('transitions', () => {
  it('lists an open and its close in the order they happened when both fall in one batch', () => {
    const t = template({ kind: 'error_code', codes: [], severity: 'critical', duration_minutes: 0 });
    const result = evaluate(t, true, {}, new Set(), [
      sample(0, 'fault', 0.3, { errorCode: 'HA' }),
      sample(1, 'idle', 2),
      sample(2, 'fault', 0.3, { errorCode: 'HA' }),
    ]);
    expect(result.transitions.map((change) => change.type)).toEqual(['open', 'close', 'open']);
    expect(result.transitions[1]).toEqual({
      type: 'close',
      end: { conditionKey: KEY, endedTs: T0 + MINUTE },
    });
  });
});

describe('template changes', () => {
  it('closes open events of rules the template no longer has', () => {
    const t = template({ kind: 'current_above', state: 'heating', severity: 'warning', duration_minutes: 0 });
    const result = evaluate(t, true, { '9:gone': T0 }, new Set(['9:gone', '4:r1']), [sample(1, 'idle', 1)]);
    expect(result.closed).toEqual([
      { conditionKey: '9:gone', endedTs: T0 + MINUTE },
      { conditionKey: '4:r1', endedTs: T0 + MINUTE },
    ]);
    expect(result.conditions).toEqual({});
  });

  it('names conditions by template and rule key', () => {
    expect(conditionKey(12, { key: 'r3' })).toBe('12:r3');
  });
});

describe('effectiveState', () => {
  it('uses the reported state when the type reports one', () => {
    expect(effectiveState(sample(0, 'washing', 30), norms, true)).toBe('washing');
  });

  it('classifies a current-only device by the template bands', () => {
    expect(effectiveState(sample(0, 'idle', 0.1), norms, false)).toBe('off');
    expect(effectiveState(sample(0, 'idle', 1), norms, false)).toBe('idle');
    expect(effectiveState(sample(0, 'idle', 30), norms, false)).toBe('heating');
    expect(effectiveState(sample(0, 'idle', 2.5), norms, false)).toBe('heating');
    expect(effectiveState(sample(0, 'idle', 0.3), norms, false)).toBe('idle');
    expect(effectiveState(sample(0, 'idle', 80), norms, false)).toBe('heating');
  });

  it('lets a current-only device break a band of its classified state', () => {
    const t = template({
      kind: 'current_above',
      state: 'heating',
      severity: 'critical',
      duration_minutes: 0,
    });
    // 80 A fits no band: it is classified as heating, above the heating band.
    expect(evaluate(t, false, {}, new Set(), [sample(0, 'idle', 80)]).opened).toHaveLength(1);
  });
});
