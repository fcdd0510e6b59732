import { describe, expect, it } from 'vitest';
import { preferGraphAnswer } from '../test/fixtures';
import { fleetGraphLines } from './dashboard-graph';

const HOUR = 3_600_000;
const LABELS = { online: 'В сети', working: 'В работе', washing: 'Мойка' };

describe('the fleet graph’s lines', () => {
  const date = '2026-11-27';
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const { hours } = preferGraphAnswer(date, 3).data;

  it('stop at now: the hours not yet begun have no value, where the answer says 0', () => {
    // 10:35 UTC: the 10:00 hour has begun, 11:00 has not.
    const { series, range } = fleetGraphLines(hours, midnight + 10.5 * HOUR, LABELS);
    const [online, working] = series;
    expect(online?.label).toBe('В сети');
    expect(online?.values.slice(0, 11)).toEqual(new Array(11).fill(3));
    expect(online?.values.slice(11)).toEqual(new Array(13).fill(null));
    expect(working?.values[10]).toBe(2);
    expect(working?.values[11]).toBeNull();
    // The axis still spans the whole day.
    expect(range).toEqual({ start: midnight, finish: midnight + 24 * HOUR });
  });

  it('draw a past day whole', () => {
    const { series } = fleetGraphLines(hours, midnight + 30 * HOUR, LABELS);
    expect(series[0]?.values).toEqual(new Array(24).fill(3));
  });
});
