import { z } from 'zod';

/**
 * The device protocol's payloads (docs/device-protocol.md): what a controller sends over MQTT or
 * HTTP, and what the gateway answers. One schema for the gateway, the simulator and the tests.
 */

/** What a device is doing, as its controller reports it. */
export const DEVICE_STATES = ['off', 'idle', 'heating', 'cooking', 'washing', 'fault'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];
/** States that count as working for `work_start` and worktime (besides current above the idle level). */
export const WORKING_STATES: readonly DeviceState[] = ['heating', 'cooking'];

/** Topic root of protocol version 1: `kontrol/v1/<controller_id>/<channel>`. */
export const TOPIC_ROOT = 'kontrol/v1';
export const TELEMETRY_CHANNEL = 'telemetry';
export const STATUS_CHANNEL = 'status';
export const COMMAND_CHANNEL = 'cmd';
export type DeviceChannel = typeof TELEMETRY_CHANNEL | typeof STATUS_CHANNEL | typeof COMMAND_CHANNEL;

export function deviceTopic(controllerId: string, channel: DeviceChannel): string {
  return `${TOPIC_ROOT}/${controllerId}/${channel}`;
}

/** The controller id and channel of a protocol topic, or undefined for any other topic. */
export function parseDeviceTopic(topic: string): { controllerId: string; channel: string } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 4 || `${parts[0]}/${parts[1]}` !== TOPIC_ROOT) return undefined;
  const [, , controllerId, channel] = parts;
  if (!controllerId || !channel) return undefined;
  return { controllerId, channel };
}

/** Limits of one sample; anything outside is rejected with the field named. */
export const SAMPLE_LIMITS = {
  current: { min: 0, max: 1000 },
  temperature: { min: -60, max: 600 },
  core_temperature: { min: -60, max: 300 },
  humidity: { min: 0, max: 100 },
} as const;
export const PROGRAM_MAX_LENGTH = 64;
export const ERROR_CODE_MAX_LENGTH = 32;
/** Most samples in one MQTT message or HTTP request. */
export const MAX_SAMPLES_PER_MESSAGE = 10_000;
/** How far ahead of the server's clock a sample may be (a controller's clock drifts). */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;

const EARLIEST_TS = Date.UTC(2000, 0, 1);
/** ISO 8601 with a zone (`2026-11-22T08:00:00Z`, `…+03:00`), as `Date.parse` reads it. */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Epoch milliseconds, or ISO 8601 text with a zone; either way epoch milliseconds after parsing. */
const timestampSchema = z.unknown().transform((value, ctx) => {
  const ms =
    typeof value === 'number' && Number.isInteger(value)
      ? value
      : typeof value === 'string' && ISO_WITH_ZONE.test(value)
        ? Date.parse(value)
        : Number.NaN;
  if (Number.isNaN(ms) || ms < EARLIEST_TS) {
    ctx.addIssue({ code: 'custom', params: { key: 'telemetry.ts_invalid' }, input: value });
    return z.NEVER;
  }
  return ms;
});

const measured = (limits: { min: number; max: number }) => z.number().min(limits.min).max(limits.max);

/**
 * One sample as a device sends it. `ts`, `current` and `state` are always required; `temperature`
 * and `door_open` are required from device types that report them (the gateway checks that
 * against the type). Unknown fields are ignored.
 */
export const telemetrySampleSchema = z.object({
  ts: timestampSchema,
  current: measured(SAMPLE_LIMITS.current),
  temperature: measured(SAMPLE_LIMITS.temperature).optional(),
  door_open: z.boolean().optional(),
  state: z.enum(DEVICE_STATES),
  program: z.string().min(1).max(PROGRAM_MAX_LENGTH).optional(),
  error_code: z
    .union([z.string().min(1).max(ERROR_CODE_MAX_LENGTH), z.number().int().nonnegative()])
    .transform((code) => String(code))
    .optional(),
  core_temperature: measured(SAMPLE_LIMITS.core_temperature).optional(),
  humidity: measured(SAMPLE_LIMITS.humidity).optional(),
});
/** A sample as a device writes it: `ts` in epoch ms or ISO 8601 text. */
export type TelemetrySampleInput = Omit<z.input<typeof telemetrySampleSchema>, 'ts'> & {
  ts: number | string;
};
/** A validated sample: `ts` in epoch milliseconds. */
export type TelemetrySample = z.output<typeof telemetrySampleSchema>;

/** Why one sample of a message was not stored. `errors` names the fields, as a 422 does. */
export const rejectedSampleSchema = z.object({
  index: z.number().int(),
  reason: z.enum(['invalid', 'too_old', 'in_future', 'not_reported_by_type']),
  errors: z.record(z.string(), z.array(z.string())),
});
export type RejectedSample = z.infer<typeof rejectedSampleSchema>;

/** `202` of `POST /api/ingest/v1/telemetry`. `duplicates`: samples already stored (same device and ts). */
export const ingestResultSchema = z.object({
  data: z.object({
    accepted: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.array(rejectedSampleSchema),
  }),
});
export type IngestResult = z.infer<typeof ingestResultSchema>['data'];

/** `kontrol/v1/<id>/status`: what a controller says about itself (retained by the broker is fine). */
export const deviceStatusSchema = z.object({
  online: z.boolean().optional(),
  firmware: z.string().max(64).optional(),
  uptime_s: z.number().int().nonnegative().optional(),
});
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;

/**
 * A gap longer than this between two samples of a device is an offline interval (the
 * `/devices/info/last_online` report) and ends a wash run that was in progress. Devices send at
 * least once a minute (docs/device-protocol.md). The dashboard's online/offline counters use SPEC's
 * own 1440-minute threshold (`OFFLINE_THRESHOLD_MINUTES`).
 */
export const CONNECTION_GAP_MS = 5 * 60_000;
/** A wash shorter than this, or one that ends in `fault` or a connection gap, counts as aborted. */
export const MIN_COMPLETED_WASH_MS = 5 * 60_000;
