import { describe, expect, it } from 'vitest';
import { utcDay } from './device-limits.js';

describe('utcDay', () => {
  it('names the UTC day of each moment, asked in any order', () => {
    const moments = [
      '2026-11-28T23:59:59.999Z',
      '2026-11-29T00:00:00.000Z',
      '2026-11-28T00:00:00.000Z',
      '2026-11-27T23:59:59.999Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2026-11-29T12:00:00.000Z',
    ];
    for (const moment of moments) expect(utcDay(Date.parse(moment))).toBe(moment.slice(0, 10));
  });
});
