import { describe, expect, it } from 'vitest';
import { axisTop, localDayRange } from './norm-chart';

describe('localDayRange: the local day a preview spans', () => {
  it('starts at local midnight and ends at the last minute, either side of UTC', () => {
    expect(localDayRange('2026-11-22', 'Europe/Moscow')).toEqual({
      start: Date.parse('2026-11-21T21:00:00Z'),
      finish: Date.parse('2026-11-22T20:59:00Z'),
    });
    expect(localDayRange('2026-11-22', 'America/New_York')).toEqual({
      start: Date.parse('2026-11-22T05:00:00Z'),
      finish: Date.parse('2026-11-23T04:59:00Z'),
    });
  });

  it('is 23 hours long on the day clocks go forward', () => {
    const day = localDayRange('2026-03-29', 'Europe/Berlin');
    expect(day.start).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(day.finish + 60_000 - day.start).toBe(23 * 3_600_000);
  });
});

describe('axisTop: the top of the current axis', () => {
  it('takes the highest reading or band, with a tenth of headroom', () => {
    expect(axisTop({ mean: [1, 20, null], max: [2, 30, null] }, [])).toBeCloseTo(33);
    expect(axisTop({ mean: [1], max: [2] }, [{ state: 'heating', min: 15, max: 45 }])).toBeCloseTo(49.5);
    expect(axisTop({ mean: [null], max: [null] }, [])).toBe(1);
  });
});
