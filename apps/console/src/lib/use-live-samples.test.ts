import type { TelemetryAnswer } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { withLiveTails, type LiveTail } from './use-live-samples';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-23T09:00:00Z');

function minuteAnswer(): TelemetryAnswer['data'] {
  return {
    resolution: 'minute',
    start: T0,
    finish: T0 + 3 * MINUTE,
    series: [
      { device_id: 1, t: [T0, T0 + MINUTE], values: { current: [1, 2], current_min: [0.5, 1.5] } },
      { device_id: 2, t: [], values: {} },
    ],
  };
}

describe('withLiveTails', () => {
  it("appends the samples after a device's last bucket, stretching the period, and nothing else", () => {
    const tail: LiveTail = {
      // The first is inside the last minute bucket (already counted in it); the others come after.
      t: [T0 + MINUTE + 30_000, T0 + 2 * MINUTE + 5_000, T0 + 4 * MINUTE],
      values: { current: [9, 3, 4], temperature: [20, 21, 22] },
    };
    const merged = withLiveTails(minuteAnswer(), new Map([[1, tail]]));
    expect(merged.series[0]).toEqual({
      device_id: 1,
      t: [T0, T0 + MINUTE, T0 + 2 * MINUTE + 5_000, T0 + 4 * MINUTE],
      values: { current: [1, 2, 3, 4], current_min: [0.5, 1.5, null, null] },
    });
    expect(merged.series[1]).toEqual({ device_id: 2, t: [], values: {} });
    expect(merged.finish).toBe(T0 + 4 * MINUTE + 1);
  });

  it('leaves the answer as it is without live samples', () => {
    const answer = minuteAnswer();
    expect(withLiveTails(answer, new Map())).toBe(answer);
  });

  it('appends every newer sample to a raw answer', () => {
    const answer: TelemetryAnswer['data'] = {
      resolution: 'raw',
      start: T0,
      finish: T0 + MINUTE,
      series: [{ device_id: 7, t: [T0 + 1_000], values: { current: [1] } }],
    };
    const tail: LiveTail = { t: [T0 + 1_000, T0 + 2_000], values: { current: [1, 5] } };
    expect(withLiveTails(answer, new Map([[7, tail]])).series[0]?.t).toEqual([T0 + 1_000, T0 + 2_000]);
  });
});
