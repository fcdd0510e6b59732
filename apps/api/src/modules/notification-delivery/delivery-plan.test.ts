import { DEFAULT_USER_SETTINGS } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import {
  deliveryPlan,
  quietHoursEnd,
  settingsFromRow,
  zonedMoment,
  type DeliverySettings,
} from './delivery-plan.js';

const at = (iso: string) => Date.parse(iso);

/** Every channel on, every severity, quiet 22:00–07:00 in Moscow (UTC+3, no daylight saving). */
const quiet: DeliverySettings = {
  ...DEFAULT_USER_SETTINGS,
  channels: { web: true, email: true, telegram: true },
  severities: ['info', 'warning', 'critical'],
  quiet_hours: { start: '22:00', end: '07:00' },
  quiet_hours_critical: false,
  time_zone: 'Europe/Moscow',
};
const warning = { kind: 'no_data', severity: 'warning' };

describe('deliveryPlan: filters', () => {
  it('sends a warning on web and e-mail and Telegram at once with the default settings', () => {
    expect(deliveryPlan(DEFAULT_USER_SETTINGS, warning, at('2025-06-01T12:00:00Z'))).toEqual({
      web: true,
      email: true,
      telegram: true,
      notBefore: null,
    });
  });

  it('sends nothing for a severity the user did not choose (info is not in the defaults)', () => {
    expect(
      deliveryPlan(DEFAULT_USER_SETTINGS, { kind: 'no_data', severity: 'info' }, at('2025-06-01T12:00:00Z')),
    ).toEqual({ web: false, email: false, telegram: false, notBefore: null });
  });

  it('sends nothing for a kind the user did not choose, on any channel', () => {
    const settings = { ...DEFAULT_USER_SETTINGS, kinds: ['request' as const] };
    expect(deliveryPlan(settings, warning, at('2025-06-01T12:00:00Z'))).toEqual({
      web: false,
      email: false,
      telegram: false,
      notBefore: null,
    });
    expect(deliveryPlan(settings, { kind: 'request', severity: 'warning' }, 0).email).toBe(true);
  });

  it('sends nothing for a kind no setting knows', () => {
    expect(deliveryPlan(DEFAULT_USER_SETTINGS, { kind: 'mystery', severity: 'critical' }, 0)).toMatchObject({
      web: false,
      email: false,
      telegram: false,
    });
  });

  it('follows each channel flag on its own', () => {
    const settings = { ...DEFAULT_USER_SETTINGS, channels: { web: false, email: false, telegram: true } };
    expect(deliveryPlan(settings, warning, 0)).toEqual({
      web: false,
      email: false,
      telegram: true,
      notBefore: null,
    });
  });
});

describe('deliveryPlan: quiet hours across midnight (22:00–07:00 Moscow)', () => {
  it('is not quiet the minute before the start', () => {
    expect(deliveryPlan(quiet, warning, at('2025-06-01T18:59:00Z')).notBefore).toBeNull(); // 21:59
  });

  it('holds from the start minute until 07:00 the next morning', () => {
    // 22:00 Moscow on 1 June: the end is 07:00 Moscow on 2 June.
    expect(deliveryPlan(quiet, warning, at('2025-06-01T19:00:00Z'))).toEqual({
      web: true,
      email: true,
      telegram: true,
      notBefore: '2025-06-02T04:00:00.000Z',
    });
  });

  it('holds after midnight until 07:00 the same morning', () => {
    expect(deliveryPlan(quiet, warning, at('2025-06-01T21:30:00Z')).notBefore).toBe(
      '2025-06-02T04:00:00.000Z', // 00:30 → 07:00 of the same local day
    );
    expect(deliveryPlan(quiet, warning, at('2025-06-02T03:59:00Z')).notBefore).toBe(
      '2025-06-02T04:00:00.000Z', // 06:59
    );
  });

  it('is not quiet from the end minute on', () => {
    expect(deliveryPlan(quiet, warning, at('2025-06-02T04:00:00Z')).notBefore).toBeNull(); // 07:00
  });

  it('lets a critical one through when quiet_hours_critical is on, and holds it when off', () => {
    const critical = { kind: 'error_code', severity: 'critical' };
    const night = at('2025-06-01T22:00:00Z');
    expect(deliveryPlan({ ...quiet, quiet_hours_critical: true }, critical, night).notBefore).toBeNull();
    expect(deliveryPlan(quiet, critical, night).notBefore).toBe('2025-06-02T04:00:00.000Z');
    // A warning still waits when critical ones may pass.
    expect(deliveryPlan({ ...quiet, quiet_hours_critical: true }, warning, night).notBefore).not.toBeNull();
  });

  it('never holds the web channel: it is on whatever the hour', () => {
    const plan = deliveryPlan(
      { ...quiet, channels: { web: true, email: false, telegram: false } },
      warning,
      at('2025-06-01T22:00:00Z'),
    );
    expect(plan).toEqual({ web: true, email: false, telegram: false, notBefore: null });
  });
});

describe('quietHoursEnd', () => {
  const day = { start: '13:00', end: '15:00' };

  it('handles a period inside one day, start included and end excluded', () => {
    expect(quietHoursEnd(day, 'UTC', at('2025-06-01T12:59:00Z'))).toBeNull();
    expect(quietHoursEnd(day, 'UTC', at('2025-06-01T13:00:00Z'))).toBe(at('2025-06-01T15:00:00Z'));
    expect(quietHoursEnd(day, 'UTC', at('2025-06-01T14:59:59Z'))).toBe(at('2025-06-01T15:00:00Z'));
    expect(quietHoursEnd(day, 'UTC', at('2025-06-01T15:00:00Z'))).toBeNull();
    expect(quietHoursEnd(day, 'UTC', at('2025-06-01T23:00:00Z'))).toBeNull();
  });

  it('reads the hours in the user zone, not the server one', () => {
    // 13:30 in Yekaterinburg (UTC+5) is 08:30 UTC.
    expect(quietHoursEnd(day, 'Asia/Yekaterinburg', at('2025-06-01T08:30:00Z'))).toBe(
      at('2025-06-01T10:00:00Z'),
    );
    expect(quietHoursEnd(day, 'UTC', at('2025-06-01T08:30:00Z'))).toBeNull();
  });

  it('counts a clock turned forward during the night (Berlin, 30 March 2025)', () => {
    const night = { start: '22:00', end: '07:00' };
    // 23:30 CET on 29 March; the clocks go from 02:00 to 03:00, so 07:00 is CEST (UTC+2).
    expect(quietHoursEnd(night, 'Europe/Berlin', at('2025-03-29T22:30:00Z'))).toBe(
      at('2025-03-30T05:00:00Z'),
    );
    // 06:59 CEST: one minute left.
    expect(quietHoursEnd(night, 'Europe/Berlin', at('2025-03-30T04:59:00Z'))).toBe(
      at('2025-03-30T05:00:00Z'),
    );
    expect(quietHoursEnd(night, 'Europe/Berlin', at('2025-03-30T05:00:00Z'))).toBeNull();
  });

  it('counts a clock turned back during the night (Berlin, 26 October 2025)', () => {
    const night = { start: '22:00', end: '07:00' };
    // 23:00 CEST on 25 October; 07:00 on the 26th is CET (UTC+1).
    expect(quietHoursEnd(night, 'Europe/Berlin', at('2025-10-25T21:00:00Z'))).toBe(
      at('2025-10-26T06:00:00Z'),
    );
  });

  it('takes an end the clock skips as the moment after the gap', () => {
    // 02:30 does not exist in Berlin on 30 March 2025: it is read as 03:30 CEST.
    expect(zonedMoment('2025-03-30', '02:30', 'Europe/Berlin')).toBe(at('2025-03-30T01:30:00Z'));
    expect(quietHoursEnd({ start: '01:00', end: '02:30' }, 'Europe/Berlin', at('2025-03-30T00:30:00Z'))).toBe(
      at('2025-03-30T01:30:00Z'),
    );
  });
});

describe('settingsFromRow', () => {
  it('gives the defaults to a user who never saved settings', () => {
    expect(settingsFromRow(undefined)).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('reads a saved row, dropping values it does not know', () => {
    expect(
      settingsFromRow({
        web: 1,
        email: 0,
        telegram: 1,
        kinds: '["request","no_data","gone"]',
        severities: '["critical"]',
        quiet_start: '23:00',
        quiet_end: '06:30',
        quiet_hours_critical: 0,
        time_zone: 'Asia/Yekaterinburg',
      }),
    ).toEqual({
      channels: { web: true, email: false, telegram: true },
      kinds: ['no_data', 'request'],
      severities: ['critical'],
      quiet_hours: { start: '23:00', end: '06:30' },
      quiet_hours_critical: false,
      time_zone: 'Asia/Yekaterinburg',
    });
  });

  it('falls back to the defaults for unreadable lists and an unknown zone', () => {
    const settings = settingsFromRow({
      web: 1,
      email: 1,
      telegram: 0,
      kinds: 'not json',
      severities: '{}',
      quiet_start: null,
      quiet_end: null,
      quiet_hours_critical: 1,
      time_zone: 'Mars/Olympus',
    });
    expect(settings.kinds).toEqual(DEFAULT_USER_SETTINGS.kinds);
    expect(settings.severities).toEqual(DEFAULT_USER_SETTINGS.severities);
    expect(settings.quiet_hours).toBeNull();
    expect(settings.time_zone).toBe(DEFAULT_USER_SETTINGS.time_zone);
  });
});
