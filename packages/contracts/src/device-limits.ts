import { z } from 'zod';
import type { Locale } from './constants.js';
import { translate } from './messages.js';
import type { NotificationKind } from './users.js';

/**
 * What one device may send (docs/device-protocol.md, "Limits"): the gateway refuses the rest, so
 * a device — or a stolen credential — cannot take the server from everyone else.
 */

/** The largest message: an HTTP ingest body, and a whole MQTT packet (topic and payload together). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface DeviceLimitSettings {
  /** Connections one credential holds at once in one process: HTTP requests in progress, plus its MQTT connection. */
  maxConnections: number;
  /** Messages of one device being stored at once in one process (MQTT: more wait; HTTP: 429). */
  maxInFlight: number;
  /** The token bucket's rate: samples per second a device may send on average. */
  samplesPerSecond: number;
  /** The token bucket's size: samples a device may send at once after a quiet spell. */
  burstSamples: number;
  /** Samples a device may send in one UTC day, across every process. */
  samplesPerDay: number;
}

/**
 * The defaults, chosen so that a normal device never meets them: the simulator sends a sample
 * every 10 s (8 640 a day) and, on its first start, 14 days of one sample a minute (20 160
 * samples, 4 requests of 5 000 at once); a device that buffered an hour offline at one sample a
 * second sends 3 600 at once. The burst takes the whole backfill; the day takes a device sampling
 * every second all day with that backfill on top (106 560); the rate is 20 times the simulator's.
 */
export const DEFAULT_DEVICE_LIMITS: Readonly<DeviceLimitSettings> = {
  maxConnections: 4,
  maxInFlight: 16,
  samplesPerSecond: 2,
  burstSamples: 30_000,
  samplesPerDay: 150_000,
};

/**
 * Why a device's message or connection was refused: too many connections or messages at once,
 * more samples than its rate allows, its day's samples used up, or a packet over
 * {@link MAX_MESSAGE_BYTES}.
 */
export const DEVICE_LIMIT_REASONS = ['connections', 'in_flight', 'rate', 'day', 'packet_size'] as const;
export type DeviceLimitReason = (typeof DEVICE_LIMIT_REASONS)[number];

/** The notification kind "the device sends more than its limit" (one per device per UTC day). */
export const DEVICE_LIMIT_NOTIFICATION_KIND = 'device_limit' satisfies NotificationKind;

/** One UTC day of a device's traffic, as the gateways counted it. */
export const deviceIngestDaySchema = z.object({
  /** `YYYY-MM-DD`, UTC. */
  day: z.string(),
  /** Samples taken (within the limits); the count reaches the database in steps, so it may lag a little. */
  samples: z.number().int(),
  /** Messages and connections refused by the limits. */
  refused: z.number().int(),
  last_refused_at: z.string().nullable(),
  last_reason: z.enum(DEVICE_LIMIT_REASONS).nullable(),
});
export type DeviceIngestDay = z.infer<typeof deviceIngestDaySchema>;

/** `GET /api/devices/{id}/limits`: the limits in force and the device's last 7 UTC days, newest first. */
export const deviceLimitsSchema = z.object({
  limits: z.object({
    connections: z.number().int(),
    in_flight: z.number().int(),
    samples_per_second: z.number(),
    burst_samples: z.number().int(),
    samples_per_day: z.number().int(),
  }),
  days: z.array(deviceIngestDaySchema),
});
export type DeviceLimits = z.infer<typeof deviceLimitsSchema>;

/** The day {@link utcDay} named last, kept: the device limiter asks it for every message. */
const lastDay = { start: 0, end: 0, text: '' };

/** The UTC day of a moment, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  if (ms >= lastDay.start && ms < lastDay.end) return lastDay.text;
  const text = new Date(ms).toISOString().slice(0, 10);
  lastDay.start = ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
  lastDay.end = lastDay.start + 86_400_000;
  lastDay.text = text;
  return text;
}

/** Digits in groups of three with a space (`150 000`), the same in both languages. */
export function groupDigits(value: number): string {
  const [whole = '', fraction] = String(value).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return fraction ? `${grouped}.${fraction}` : grouped;
}

/** What a reason means with these limits, as a phrase for a sentence ("more than 2 samples per second"). */
export function deviceLimitReasonText(
  locale: Locale,
  reason: DeviceLimitReason,
  limits: DeviceLimitSettings,
): string {
  switch (reason) {
    case 'connections':
      return translate(locale, 'device_limit.reason.connections', {
        max: groupDigits(limits.maxConnections),
      });
    case 'in_flight':
      return translate(locale, 'device_limit.reason.in_flight', { max: groupDigits(limits.maxInFlight) });
    case 'rate':
      return translate(locale, 'device_limit.reason.rate', { rate: groupDigits(limits.samplesPerSecond) });
    case 'day':
      return translate(locale, 'device_limit.reason.day', { max: groupDigits(limits.samplesPerDay) });
    case 'packet_size':
      return translate(locale, 'device_limit.reason.packet_size', { mb: MAX_MESSAGE_BYTES / 1024 / 1024 });
  }
}

/** The answer to a refused HTTP message (429), saying which limit and when to try again. */
export function deviceLimitMessage(
  locale: Locale,
  reason: Exclude<DeviceLimitReason, 'packet_size'>,
  limits: DeviceLimitSettings,
  seconds: number,
): string {
  switch (reason) {
    case 'connections':
      return translate(locale, 'device_limit.connections', {
        max: groupDigits(limits.maxConnections),
        seconds,
      });
    case 'in_flight':
      return translate(locale, 'device_limit.in_flight', { max: groupDigits(limits.maxInFlight), seconds });
    case 'rate':
      return translate(locale, 'device_limit.rate', {
        rate: groupDigits(limits.samplesPerSecond),
        burst: groupDigits(limits.burstSamples),
        seconds,
      });
    case 'day':
      return translate(locale, 'device_limit.day', { max: groupDigits(limits.samplesPerDay), seconds });
  }
}
