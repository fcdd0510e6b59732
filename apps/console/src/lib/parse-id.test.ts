import { describe, expect, it } from 'vitest';
import { parseId } from './parse-id';

describe('parseId', () => {
  it('reads a positive id that fits the database’s integers', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('2147483647')).toBe(2_147_483_647);
  });

  it('refuses anything else', () => {
    for (const segment of [undefined, null, '', '0', '-1', '01', '1.5', 'abc', '2147483648', '12345678901'])
      expect(parseId(segment)).toBeNull();
  });
});
