import {
  DEFAULT_USER_SETTINGS,
  NOTIFICATION_KINDS,
  NOTIFICATION_SEVERITIES,
  isTimeZone,
  localDateTime,
  zoneOffsetMs,
  type UserSettings,
} from '@kontrol/contracts';
import type { UserSettingsTable } from '@kontrol/db';

/** What decides where a notification goes: a user's settings without their language. */
export type DeliverySettings = Omit<UserSettings, 'locale'>;

/** The part of a notification the settings look at. */
export interface PlannedNotification {
  kind: string;
  severity: string;
}

/**
 * Where one notification goes (docs/notifications.md): the live stream (`web`), e-mail and
 * Telegram, and the moment before which e-mail and Telegram must not go out (the end of the
 * user's quiet hours), or null to send at once.
 */
export interface DeliveryPlan {
  web: boolean;
  email: boolean;
  telegram: boolean;
  /** ISO 8601; only for e-mail and Telegram (quiet hours do not apply to the web). */
  notBefore: string | null;
}

const NOTHING: DeliveryPlan = { web: false, email: false, telegram: false, notBefore: null };

/**
 * The decision for one notification and one user, at `now` (epoch ms): a kind or a severity the
 * user did not choose goes nowhere; otherwise each channel that is on. During quiet hours (in the
 * user's zone) e-mail and Telegram wait for their end, critical ones too unless
 * `quiet_hours_critical` lets them through.
 */
export function deliveryPlan(
  settings: DeliverySettings,
  notification: PlannedNotification,
  now: number,
): DeliveryPlan {
  if (!(settings.kinds as readonly string[]).includes(notification.kind)) return NOTHING;
  if (!(settings.severities as readonly string[]).includes(notification.severity)) return NOTHING;
  const { web, email, telegram } = settings.channels;
  const breaksThrough = notification.severity === 'critical' && settings.quiet_hours_critical;
  const quietEnd =
    (email || telegram) && settings.quiet_hours && !breaksThrough
      ? quietHoursEnd(settings.quiet_hours, settings.time_zone, now)
      : null;
  return { web, email, telegram, notBefore: quietEnd === null ? null : new Date(quietEnd).toISOString() };
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * When the quiet period `now` falls in ends (epoch ms), or null when `now` is outside it. `start`
 * is quiet, `end` is not; a period whose end is earlier than its start passes midnight.
 */
export function quietHoursEnd(
  quiet: { start: string; end: string },
  timeZone: string,
  now: number,
): number | null {
  const local = localDateTime(now, timeZone);
  const minute = minutesOf(local.time);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const passesMidnight = start > end;
  const quietNow = passesMidnight ? minute >= start || minute < end : minute >= start && minute < end;
  if (!quietNow) return null;
  // Late evening of a period that passes midnight: it ends tomorrow.
  const endDate = passesMidnight && minute >= start ? nextDate(local.date) : local.date;
  const endsAt = zonedMoment(endDate, quiet.end, timeZone);
  // A clock turned back can make the end's local time come round before now: nothing to wait for.
  return endsAt > now ? endsAt : null;
}

/** The date after `date` (`YYYY-MM-DD`). */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The moment (epoch ms) the local wall-clock `time` of `date` happens in `timeZone`, with the
 * offset of that moment (not of now), so a daylight-saving change in between is counted. A time
 * that a clock turned forward skips is taken as the moment after the gap.
 */
export function zonedMoment(date: string, time: string, timeZone: string): number {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const minutes = minutesOf(time);
  const asUtc = Date.UTC(year, month - 1, day, Math.floor(minutes / 60), minutes % 60);
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  return asUtc - zoneOffsetMs(first, timeZone);
}

/** A stored JSON list, keeping only the values `allowed` knows; the default when unreadable. */
function storedList<T extends string>(json: string, allowed: readonly T[], fallback: readonly T[]): T[] {
  try {
    const parsed: unknown = JSON.parse(json);
    if (!Array.isArray(parsed)) return [...fallback];
    return allowed.filter((value) => parsed.includes(value));
  } catch {
    return [...fallback];
  }
}

/** A user's settings from their `user_settings` row, or the defaults when they never saved any. */
export function settingsFromRow(
  row: Omit<UserSettingsTable, 'user_id' | 'organisation_id' | 'updated_at'> | null | undefined,
): DeliverySettings {
  if (!row) return DEFAULT_USER_SETTINGS;
  return {
    channels: { web: Boolean(row.web), email: Boolean(row.email), telegram: Boolean(row.telegram) },
    kinds: storedList(row.kinds, NOTIFICATION_KINDS, DEFAULT_USER_SETTINGS.kinds),
    severities: storedList(row.severities, NOTIFICATION_SEVERITIES, DEFAULT_USER_SETTINGS.severities),
    quiet_hours:
      row.quiet_start && row.quiet_end && row.quiet_start !== row.quiet_end
        ? { start: row.quiet_start, end: row.quiet_end }
        : null,
    quiet_hours_critical: Boolean(row.quiet_hours_critical),
    time_zone: isTimeZone(row.time_zone) ? row.time_zone : DEFAULT_USER_SETTINGS.time_zone,
  };
}
