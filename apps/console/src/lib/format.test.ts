import { afterEach, describe, expect, it } from 'vitest';
import { formatCalendarDate, formatDate, formatDateTime, formatTime } from './format';
import { setLocale } from './i18n';

afterEach(async () => {
  await setLocale('ru');
});

describe('the console’s one date and time format per language', () => {
  const moment = '2026-11-27T06:00:15Z'; // 09:00:15 in Moscow

  it('writes Russian as 27.11.2026, 09:00, on a 24-hour clock', async () => {
    await setLocale('ru');
    expect(formatDateTime(moment, { timeZone: 'Europe/Moscow' })).toBe('27.11.2026, 09:00');
    expect(formatDateTime(Date.parse(moment), { timeZone: 'Europe/Moscow', seconds: true })).toBe(
      '27.11.2026, 09:00:15',
    );
    expect(formatDate(new Date(moment), { timeZone: 'Asia/Yekaterinburg' })).toBe('27.11.2026');
    expect(formatTime(moment, { timeZone: 'Asia/Yekaterinburg' })).toBe('11:00');
    expect(formatCalendarDate('2026-12-01')).toBe('01.12.2026');
  });

  it('writes English as 27/11/2026, 09:00, never 11/27/2026 or 9:00 AM', async () => {
    await setLocale('en');
    expect(formatDateTime(moment, { timeZone: 'Europe/Moscow' })).toBe('27/11/2026, 09:00');
    expect(formatTime('2026-11-27T18:30:00Z', { timeZone: 'UTC' })).toBe('18:30');
    expect(formatCalendarDate('2026-12-01')).toBe('01/12/2026');
  });
});
