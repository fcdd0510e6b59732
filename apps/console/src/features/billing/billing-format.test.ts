import { describe, expect, it } from 'vitest';
import { billingMonth, formatKopecks, roublesToKopecks } from './billing-format';
import { historyFilters, parseKinds } from './history-filters';
import { toLedgerServerFilters } from './api/get-balance-log';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('billing money and months', () => {
  it('writes kopecks as roubles in the interface language', () => {
    expect(plain(formatKopecks(1_234_567, 'ru-RU'))).toBe('12 345,67 ₽');
    expect(plain(formatKopecks(-3_000, 'ru-RU'))).toBe('-30,00 ₽');
    expect(plain(formatKopecks(150_000, 'ru-RU', { signed: true }))).toBe('+1 500,00 ₽');
    expect(plain(formatKopecks(100_000, 'ru-RU', { short: true }))).toBe('1 000 ₽');
    expect(formatKopecks(1_234_567, 'en-GB')).toBe('₽12,345.67');
  });

  it('turns typed roubles into whole kopecks', () => {
    expect(roublesToKopecks(1500)).toBe(150_000);
    expect(roublesToKopecks(19.99)).toBe(1_999);
    expect(roublesToKopecks('1500,5')).toBe(150_050);
    expect(roublesToKopecks('')).toBeNull();
  });

  it('tells the billing month in Moscow', () => {
    // 31 December 22:00 UTC is already 1 January in Moscow.
    expect(billingMonth(Date.parse('2026-12-31T22:00:00Z'))).toBe('2027-01');
  });

  it('reads the history filters from the address and sends them as docs/contract.md, "Entities" has them', () => {
    expect(parseKinds('refund,bogus,payment')).toEqual(['payment', 'refund']);
    expect(toLedgerServerFilters(historyFilters({ kind: '', from: '', to: '', page: '1' }))).toBeUndefined();
    expect(
      toLedgerServerFilters(historyFilters({ kind: 'charge', from: '', to: '2026-11-30', page: '1' })),
    ).toEqual({
      kind: { operator: 'in', value: ['charge'] },
      created_at: { operator: '<=', value: new Date('2026-11-30T23:59:59.999').toISOString() },
    });
  });
});
