import { z } from 'zod';
import type { DeviceTypeSlug } from './equipment-constants.js';

/**
 * The device protocol's payloads (docs/device-protocol.md): what a controller sends over MQTT or
 * HTTP, and what the gateway answers. One schema for the gateway, the simulator and the tests.
 */

/** What a device is doing, as its controller reports it. */
export const DEVICE_STATES = ['off', 'idle', 'heating', 'cooking', 'washing', 'fault'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];
/** States that count as working for `work_start` and worktime (besides current above the idle level). */
export const WORKING_STATES: readonly DeviceState[] = ['heating', 'cooking'];

/** Where devices send samples over HTTP (docs/device-protocol.md, "HTTP"). */
export const INGEST_HTTP_PATH = '/api/ingest/v1/telemetry';

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

const STATE_SET: ReadonlySet<unknown> = new Set(DEVICE_STATES);

const inRange = (value: unknown, limits: { min: number; max: number }): value is number =>
  typeof value === 'number' && value >= limits.min && value <= limits.max;
const optionalInRange = (value: unknown, limits: { min: number; max: number }) =>
  value === undefined || inRange(value, limits);
const optionalText = (value: unknown, max: number) =>
  value === undefined || (typeof value === 'string' && value.length >= 1 && value.length <= max);

/**
 * The common case of {@link telemetrySampleSchema} without zod: a sample whose fields are all of
 * their plainest form (`ts` in epoch ms, `error_code` as text) and in range is read directly;
 * anything else gives undefined, and the caller asks the schema, which also says what is wrong.
 * At ingest rates (100 000 samples a second) the schema's per-sample cost matters; both must
 * accept the same plain samples and produce the same value (a test compares them).
 */
export function readPlainSample(item: unknown): TelemetrySample | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const o = item as Record<string, unknown>;
  const { ts, current, temperature, door_open, state, program, error_code, core_temperature, humidity } = o;
  if (typeof ts !== 'number' || !Number.isInteger(ts) || ts < EARLIEST_TS) return undefined;
  if (!inRange(current, SAMPLE_LIMITS.current) || !STATE_SET.has(state)) return undefined;
  if (!optionalInRange(temperature, SAMPLE_LIMITS.temperature)) return undefined;
  if (door_open !== undefined && typeof door_open !== 'boolean') return undefined;
  if (!optionalText(program, PROGRAM_MAX_LENGTH) || !optionalText(error_code, ERROR_CODE_MAX_LENGTH))
    return undefined;
  if (!optionalInRange(core_temperature, SAMPLE_LIMITS.core_temperature)) return undefined;
  if (!optionalInRange(humidity, SAMPLE_LIMITS.humidity)) return undefined;
  const sample: TelemetrySample = { ts, current, state: state as DeviceState };
  if (temperature !== undefined) sample.temperature = temperature;
  if (door_open !== undefined) sample.door_open = door_open;
  if (program !== undefined) sample.program = program as string;
  if (error_code !== undefined) sample.error_code = error_code as string;
  if (core_temperature !== undefined) sample.core_temperature = core_temperature;
  if (humidity !== undefined) sample.humidity = humidity;
  return sample;
}

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
 * least once a minute (docs/device-protocol.md). The dashboard's online/offline counters use the contract's
 * own 1440-minute threshold (`OFFLINE_THRESHOLD_MINUTES`).
 */
export const CONNECTION_GAP_MS = 5 * 60_000;
/** A wash shorter than this, or one that ends in `fault` or a connection gap, counts as aborted. */
export const MIN_COMPLETED_WASH_MS = 5 * 60_000;

// ---------------------------------------------------------------------------------------------
// Reading telemetry (docs/telemetry.md, "Reading"): GET /api/telemetry/, the device reports.

export const RESOLUTIONS = ['auto', 'raw', 'minute', 'hour', 'day'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
/** Rollup metrics a chart can ask for (raw resolution answers the sample's own fields). */
export const TELEMETRY_METRICS = ['current', 'temperature', 'working', 'door_open', 'state'] as const;
export type TelemetryMetric = (typeof TELEMETRY_METRICS)[number];
/** Most devices in one telemetry request, and the longest range of one. */
export const MAX_TELEMETRY_DEVICES = 50;
/** Most devices in one CSV download (it streams, so the file's size does not matter). */
export const MAX_EXPORT_DEVICES = 1_000;
export const MAX_TELEMETRY_RANGE_DAYS = 400;
export const MAX_REPORT_DEVICES = 5_000;
export const MAX_REPORT_RANGE_DAYS = 93;
export const DEFAULT_RAW_PAGE = 10_000;
export const MAX_RAW_PAGE = 50_000;

/** A list of ids as `1,2,3` or `ids[]=1&ids[]=2`. */
export const idListSchema = z.union([z.string(), z.array(z.string()), z.number()]).transform((value, ctx) => {
  const parts = (Array.isArray(value) ? value : String(value).split(','))
    .map((part) => String(part).trim())
    .filter(Boolean);
  const ids = parts.map(Number);
  if (ids.length === 0 || ids.some((id) => !Number.isInteger(id) || id < 1)) {
    ctx.addIssue({ code: 'custom', params: { key: 'field.invalid' }, input: value });
    return z.NEVER;
  }
  return [...new Set(ids)];
});

/** A moment: epoch milliseconds, or ISO 8601 with a zone; as epoch milliseconds. */
export const momentSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const text = String(value);
  const ms = /^\d{10,}$/.test(text) ? Number(text) : ISO_WITH_ZONE.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', params: { key: 'field.moment' }, input: value });
    return z.NEVER;
  }
  return ms;
});

/** `GET /api/telemetry/` and `GET /api/telemetry/csv`. */
export const telemetryQuerySchema = z.object({
  devices: idListSchema,
  start: momentSchema,
  finish: momentSchema,
  metrics: z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : value.split(',')).map((m) => m.trim()).filter(Boolean),
    )
    .pipe(z.array(z.enum(TELEMETRY_METRICS)).min(1))
    .optional(),
  resolution: z.enum(RESOLUTIONS).default('auto'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_RAW_PAGE).default(DEFAULT_RAW_PAGE),
  /** IANA zone for `day` buckets and the CSV's dates; the browser's own by default in the console. */
  tz: z.string().min(1).max(64).optional(),
});
export type TelemetryQuery = z.output<typeof telemetryQuerySchema>;

/**
 * `GET /api/telemetry/csv`: the page's query, where `resolution` is what the file holds — raw
 * samples (the default), or the minute, hour or day rollups the screen shows (`auto` picks as the
 * page does).
 */
export const telemetryCsvQuerySchema = telemetryQuerySchema.extend({
  resolution: z.enum(RESOLUTIONS).default('raw'),
});
export type TelemetryCsvQuery = z.output<typeof telemetryCsvQuerySchema>;

const column = z.array(z.number().nullable());
/**
 * One device's series, columnar (what uPlot draws): `t` the bucket starts (or sample times), and
 * one array per value, `null` where there is none. Rollups give `current` (mean), `current_min`,
 * `current_max`, `temperature` (mean), `temperature_min`, `temperature_max`, `working` (share of
 * working samples, 0–1), `door_open` (share); raw gives each sample's own fields, `state` as its
 * index in DEVICE_STATES.
 */
export const telemetrySeriesSchema = z.object({
  device_id: z.number().int(),
  t: z.array(z.number()),
  values: z.record(z.string(), column),
});
export const telemetryAnswerSchema = z.object({
  data: z.object({
    resolution: z.enum(['raw', 'minute', 'hour', 'day']),
    start: z.number(),
    finish: z.number(),
    series: z.array(telemetrySeriesSchema),
  }),
  /** Raw resolution only: the page of samples (ordered by device, then time). */
  meta: z
    .object({ current_page: z.number().int(), per_page: z.number().int(), has_more: z.boolean() })
    .optional(),
});
export type TelemetryAnswer = z.infer<typeof telemetryAnswerSchema>;

/** `GET /api/devices/info/last_online`. */
export const lastOnlineQuerySchema = z.object({
  id: z.coerce.number().int().min(1),
  start: momentSchema,
  finish: momentSchema,
});
export const lastOnlineAnswerSchema = z.object({
  data: z.object({
    id: z.number().int(),
    last_utc: z.string().nullable(),
    /** Consecutive intervals covering [start, finish]: online while samples came, offline between. */
    intervals: z.array(z.object({ start: z.string(), finish: z.string(), online: z.boolean() })),
  }),
});

export type OnlineIntervals = z.infer<typeof lastOnlineAnswerSchema>['data'];

/** `GET /api/devices/reports/worktime` and `/temp`: local dates at each device's address. */
export const reportQuerySchema = z.object({
  start: z.string(),
  finish: z.string(),
  ids: idListSchema.optional(),
});
export const worktimeAnswerSchema = z.object({
  data: z.array(
    z.object({
      device_id: z.number().int(),
      date: z.string(),
      /** First and last working minute of the local day (`HH:MM`), null when it did not work. */
      start: z.string().nullable(),
      end: z.string().nullable(),
      worked_minutes: z.number().int(),
    }),
  ),
});
export type WorktimeDay = z.infer<typeof worktimeAnswerSchema>['data'][number];

/** A temperature band (°C), both ends included. */
export interface TemperatureRange {
  min: number;
  max: number;
}

/**
 * Each device type's temperature range (°C) of normal work, by the seeded types' slugs; null for a
 * type that has none (it reports no temperature, or any is normal). A minute whose mean lies
 * outside it counts as time outside the range in the temperature report (docs/telemetry.md).
 */
export const TEMPERATURE_RANGES: Readonly<Record<DeviceTypeSlug, TemperatureRange | null>> = {
  combi_oven: { min: 0, max: 300 },
  convection_oven: { min: 0, max: 300 },
  fryer: { min: 0, max: 190 },
  dishwasher: { min: 0, max: 90 },
  refrigerator: { min: 0, max: 5 },
  freezer: { min: -25, max: -18 },
  blast_chiller: { min: -40, max: 10 },
  induction_hob: null,
  other: null,
};

/** `detail=hours` of the temperature report: at most this many devices and local days. */
export const MAX_TEMPERATURE_DETAIL_DEVICES = MAX_TELEMETRY_DEVICES;
export const MAX_TEMPERATURE_DETAIL_DAYS = 31;

/**
 * `GET /api/devices/reports/temp`: `start`, `finish` (local dates), `ids`, and `detail=hours` for
 * the temperature report's hours and time outside the type's range (it needs `ids`, at most
 * {@link MAX_TEMPERATURE_DETAIL_DEVICES} devices and {@link MAX_TEMPERATURE_DETAIL_DAYS} days).
 */
export const temperatureQuerySchema = reportQuerySchema.extend({
  detail: z.enum(['hours']).optional(),
});
const temperatureRangeSchema = z.object({ min: z.number(), max: z.number() });
export const temperatureAnswerSchema = z.object({
  data: z.array(
    z.object({
      device_id: z.number().int(),
      date: z.string(),
      min: z.number().nullable(),
      avg: z.number().nullable(),
      max: z.number().nullable(),
      /** With `detail=hours`: the device type's range (null: none), and the day's minutes outside it. */
      range: temperatureRangeSchema.nullable().optional(),
      outside_minutes: z.number().int().nullable().optional(),
      /**
       * With `detail=hours`: the day's hours with samples (`start` ISO; the hourly rollups are
       * whole UTC hours, each given to the local day it starts in), and their minutes outside.
       */
      hours: z
        .array(
          z.object({
            start: z.string(),
            min: z.number().nullable(),
            avg: z.number().nullable(),
            max: z.number().nullable(),
            outside_minutes: z.number().int().nullable(),
          }),
        )
        .optional(),
    }),
  ),
});
export type TemperatureReportDay = z.infer<typeof temperatureAnswerSchema>['data'][number];

/** `GET /api/devices/reports/wash`. */
export const washQuerySchema = z.object({
  id: z.coerce.number().int().min(1),
  start: momentSchema,
  finish: momentSchema,
});
export const washAnswerSchema = z.object({
  data: z.object({
    id: z.number().int(),
    wash_interval_hours: z.number().int().nullable(),
    last_completed: z.string().nullable(),
    /** No completed wash within the wash interval (never for types that do not wash). */
    outdated: z.boolean(),
    cycles: z.array(
      z.object({
        start: z.string(),
        finish: z.string(),
        minutes: z.number(),
        outcome: z.enum(['completed', 'aborted']),
      }),
    ),
    running_since: z.string().nullable(),
  }),
});
export type WashReport = z.infer<typeof washAnswerSchema>['data'];
