import { describe, expect, it } from 'vitest';
import { readPlainSample, telemetrySampleSchema } from './telemetry.js';

/** Values each field may take in the cases below: valid, edge and wrong ones. */
const CHOICES: Record<string, unknown[]> = {
  ts: [
    1_790_000_000_000,
    946_684_800_000,
    946_684_799_999,
    1.5e12 + 0.5,
    '2026-11-22T08:00:00Z',
    'soon',
    undefined,
  ],
  current: [0, 12.5, 1000, 1000.1, -1, Number.NaN, '3', undefined],
  temperature: [undefined, -60, 180, 600, 601, null],
  door_open: [undefined, true, false, 1],
  state: ['idle', 'washing', 'fault', 'dancing', undefined],
  program: [undefined, 'P1', '', 'x'.repeat(65)],
  error_code: [undefined, 'E12', 12, ''],
  humidity: [undefined, 0, 100, 101],
  extra: [undefined, { nested: true }],
};

function* cases(): Generator<Record<string, unknown>> {
  // A deterministic walk over combinations: each field's choice moves at its own pace.
  const fields = Object.keys(CHOICES);
  for (let n = 0; n < 5_000; n += 1) {
    const sample: Record<string, unknown> = {};
    let k = n * 7919;
    for (const field of fields) {
      const options = CHOICES[field] as unknown[];
      const value = options[k % options.length];
      k = Math.floor(k / options.length) + n;
      if (value !== undefined) sample[field] = value;
    }
    yield sample;
  }
}

describe('readPlainSample', () => {
  it('accepts exactly the plain samples the schema accepts, with the same value', () => {
    let plain = 0;
    for (const item of cases()) {
      const fast = readPlainSample(item);
      const parsed = telemetrySampleSchema.safeParse(item);
      if (fast) {
        plain += 1;
        expect(parsed.success).toBe(true);
        expect(fast).toEqual(parsed.data);
      } else if (parsed.success) {
        // The schema accepted a form the fast path leaves to it: ISO text or a numeric error code.
        expect(typeof item.ts === 'string' || typeof item.error_code === 'number').toBe(true);
      }
    }
    expect(plain).toBeGreaterThan(20); // the walk reaches the accepted corner often enough
  });

  it('refuses what is not an object', () => {
    for (const item of [null, 3, 'x', [], [{ ts: 1 }]]) expect(readPlainSample(item)).toBeUndefined();
  });
});
