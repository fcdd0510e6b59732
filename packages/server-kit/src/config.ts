import {
  PAYMENT_PROVIDERS,
  TOP_UP_CEILING_KOPECKS,
  TOP_UP_MAX_KOPECKS,
  TOP_UP_MIN_KOPECKS,
  type PaymentProviderName,
} from '@kontrol/contracts';
import { availableParallelism, hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DEVICE_LIMITS, type DeviceLimitSettings } from '@kontrol/contracts';
import { z } from 'zod';

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

/**
 * Every environment variable Kontrol reads, with its default. The README's configuration table
 * lists the same; keep them together.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(16).max(1_000_000).default(10_000),
  // The base of every link Kontrol gives out (e-mails, login links): a plain http(s) address, so
  // nothing appended to it can end up in a query, a fragment or another host's credentials.
  APP_URL: z
    .url()
    .refine((value) => {
      const url = new URL(value);
      return /^https?:$/.test(url.protocol) && !url.username && !url.password && !url.search && !url.hash;
    }, 'an http:// or https:// address without user, query or fragment, like https://kontrol.example.com')
    .optional(),
  DATABASE_URL: z.string().min(1).default('sqlite:./data/kontrol.db'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  DATABASE_POOL_IDLE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  API_WORKERS: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).default(1),
  KEPT_ANSWERS_MB: z.coerce.number().int().min(16).max(16_384).default(128),
  RESTART_ON_CRASH: flag.default(true),
  DEMO: flag.optional(),
  DEMO_SIMULATOR: flag.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.string().default('false'),
  SESSION_LIFETIME_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(60 * 24 * 30)
    .default(120),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().min(3).default('Kontrol <no-reply@kontrol.local>'),
  CONSOLE_DIST: z.string().optional(),
  UPLOADS_DIR: z.string().min(1).optional(),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must start with mqtt:// or mqtts://')
    .optional(),
  MQTT_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65_535)]).default(1883),
  MQTT_HOST: z.string().min(1).optional(),
  MQTT_CONSUME: flag.default(true),
  MQTT_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
  MQTT_IDLE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'letters, digits, _ . - (at most 40)')
    .optional(),
  TELEMETRY_RAW_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  DEVICE_MAX_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(DEFAULT_DEVICE_LIMITS.maxConnections),
  DEVICE_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(65_535).default(DEFAULT_DEVICE_LIMITS.maxInFlight),
  DEVICE_SAMPLES_PER_SECOND: z.coerce
    .number()
    .positive()
    .max(1_000_000)
    .default(DEFAULT_DEVICE_LIMITS.samplesPerSecond),
  DEVICE_SAMPLES_BURST: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000_000)
    .default(DEFAULT_DEVICE_LIMITS.burstSamples),
  DEVICE_SAMPLES_PER_DAY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000_000_000)
    .default(DEFAULT_DEVICE_LIMITS.samplesPerDay),
  RULES_NO_DATA_CHECK_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  TELEMETRY_MINUTE_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'a bot token from @BotFather, like 123456:ABC-DEF…')
    .optional(),
  TELEGRAM_API_ROOT: z
    .url()
    .regex(/^https?:\/\//, 'must start with http:// or https://')
    .default('https://api.telegram.org'),
  BILLING_DAILY_RATE_KOPECKS: z.coerce.number().int().min(0).max(100_000_00).default(1_000),
  BILLING_VAT_PERCENT: z.coerce.number().min(0).max(99).default(22),
  BILLING_SELLER_FILE: z.string().min(1).optional(),
  BILLING_CHARGE_CHECK_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  PAYMENT_PROVIDER: z.enum(['none', ...PAYMENT_PROVIDERS]).default('none'),
  BILLING_TOP_UP_MIN_KOPECKS: z.coerce
    .number()
    .int()
    .min(1)
    .max(TOP_UP_CEILING_KOPECKS)
    .default(TOP_UP_MIN_KOPECKS),
  BILLING_TOP_UP_MAX_KOPECKS: z.coerce
    .number()
    .int()
    .min(1)
    .max(TOP_UP_CEILING_KOPECKS)
    .default(TOP_UP_MAX_KOPECKS),
  METRICS_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65_535)]).default('off'),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  LIVE_SESSION_CHECK_SECONDS: z.coerce.number().int().min(1).max(60).default(30),
  INVITES_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  INVITES_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(50),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** The most HTTP connections one process keeps open at once; more are closed at once. */
  httpMaxConnections: number;
  /** Public base URL of the console, used in e-mailed links. */
  appUrl: string;
  /** Whether APP_URL was given (else appUrl is derived from HOST and PORT). */
  appUrlSet: boolean;
  databaseUrl: string;
  databasePoolMax: number;
  /** How long an idle pooled PostgreSQL connection is kept, in ms. */
  databasePoolIdleMs: number;
  /** API processes sharing the port (node:cluster); `auto` in API_WORKERS means one per core. */
  workers: number;
  /** What one API process keeps at most of list answers (bytes); one answer takes a quarter at most. */
  keptAnswersMaxBytes: number;
  /** With one API process: run it as the child of a supervisor that restarts it when it dies. */
  restartOnCrash: boolean;
  /** Create the demo organisation on an empty database. */
  demo: boolean;
  /** Run the demo's simulated devices (docs/operations.md); on with the demo by default. */
  demoSimulator: boolean;
  logLevel: string;
  /** Fastify's `trustProxy`: false, true, a hop count (as a function) or a list of addresses. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  sessionLifetimeMinutes: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Folder of the built console; served at `/`. */
  consoleDist: string;
  /** Absolute folder of uploaded files (address images); created on the first upload. */
  uploadsDir: string;
  /**
   * Device connectivity (docs/device-protocol.md): the embedded broker's address, or false when
   * MQTT_URL names an external broker or MQTT_PORT is `off`.
   */
  mqttEmbedded:
    { host: string; port: number; required: boolean; maxConnections: number; idleSeconds: number } | false;
  mqttUrl: string | undefined;
  /**
   * Whether the API takes devices' MQTT messages itself (the embedded broker, or the external
   * broker's shared subscription). False when gateway processes of their own do it
   * (`npm run start:gateway`, docs/deployment.md); device accounts are still kept.
   */
  mqttConsume: boolean;
  /** With MQTT_URL: the base of this gateway's client ids, stable across restarts (persistent sessions). */
  mqttClientId: string;
  /** Days raw telemetry samples are kept (rollups are kept longer). */
  telemetryRawDays: number;
  /** What one device may send (docs/device-protocol.md, "Limits"). */
  deviceLimits: DeviceLimitSettings;
  /** How often "no data" rules are checked (s); 0: never (tests run the check themselves). */
  rulesNoDataCheckSeconds: number;
  /** Days minute rollups are kept; hour rollups are kept for good. */
  telemetryMinuteDays: number;
  /** The Telegram bot (docs/integrations.md); without a token no bot runs and nothing is sent. */
  telegramBotToken: string | undefined;
  /** The Bot API server, without a trailing slash (a local Bot API server, or a test's fake). */
  telegramApiRoot: string;
  /** Billing (docs/billing.md): the tariff's default, VAT and the provider's requisites on documents. */
  billing: {
    /** Kopecks per smart device per billing day, for organisations without a tariff of their own. */
    dailyRateKopecks: number;
    /** VAT included in every amount (22 % in Russia from 2026). */
    vatPercent: number;
    /** A JSON file with the service provider's requisites; without it the demo provider's. */
    sellerFile: string | undefined;
    /** How often each API process looks for billing days to charge (min); 0: never (tests). */
    chargeCheckMinutes: number;
    /**
     * The online payment provider, or null: top-up by invoice (bank transfer) only. The sandbox
     * credits money nobody paid, so it is refused in production.
     */
    paymentProvider: PaymentProviderName | null;
    /** The kopecks a top-up (online payment or invoice) may be, both ends included. */
    topUpMinKopecks: number;
    topUpMaxKopecks: number;
  };
  /** Prometheus metrics on a port of their own (docs/deployment.md); false: none. */
  metrics: { host: string; port: number } | false;
  /** How often open live streams look at their session, user and modules again (s). */
  liveSessionCheckSeconds: number;
  /**
   * E-mails to addresses not yet proven that an organisation's people cause (invitations, and
   * confirmations of a changed address), per organisation per hour and per day (docs/people.md).
   */
  invitations: { perHour: number; perDay: number };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(stripEmpty(env));
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
      .join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  const e = parsed.data;
  if (e.PAYMENT_PROVIDER === 'sandbox' && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  PAYMENT_PROVIDER: the sandbox credits money nobody paid; it is refused when NODE_ENV=production (top-up by invoice, or plug in a real provider)',
    );
  }
  if (e.BILLING_TOP_UP_MIN_KOPECKS > e.BILLING_TOP_UP_MAX_KOPECKS) {
    throw new ConfigError(
      'Invalid configuration:\n  BILLING_TOP_UP_MIN_KOPECKS: must not be greater than BILLING_TOP_UP_MAX_KOPECKS',
    );
  }
  const publicHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    httpMaxConnections: e.HTTP_MAX_CONNECTIONS,
    appUrl: (e.APP_URL ?? `http://${publicHost}:${e.PORT}`).replace(/\/+$/, ''),
    appUrlSet: e.APP_URL !== undefined,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databasePoolIdleMs: e.DATABASE_POOL_IDLE_SECONDS * 1000,
    workers: e.API_WORKERS === 'auto' ? availableParallelism() : e.API_WORKERS,
    keptAnswersMaxBytes: e.KEPT_ANSWERS_MB * 1024 * 1024,
    restartOnCrash: e.RESTART_ON_CRASH,
    demo: e.DEMO ?? e.NODE_ENV !== 'production',
    demoSimulator: e.DEMO_SIMULATOR ?? e.DEMO ?? e.NODE_ENV !== 'production',
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    sessionLifetimeMinutes: e.SESSION_LIFETIME_MINUTES,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    consoleDist: e.CONSOLE_DIST ?? fileURLToPath(new URL('../../../apps/console/dist', import.meta.url)),
    uploadsDir: resolve(e.UPLOADS_DIR ?? defaultUploadsDir(e.DATABASE_URL)),
    mqttEmbedded:
      e.MQTT_URL || e.MQTT_PORT === 'off'
        ? false
        : // A port set on purpose must be free; the default one may be another broker's (docs/operations.md).
          {
            host: e.MQTT_HOST ?? e.HOST,
            port: e.MQTT_PORT,
            required: env.MQTT_PORT !== undefined && env.MQTT_PORT !== '',
            maxConnections: e.MQTT_MAX_CONNECTIONS,
            idleSeconds: e.MQTT_IDLE_SECONDS,
          },
    mqttUrl: e.MQTT_URL,
    mqttConsume: e.MQTT_CONSUME,
    mqttClientId:
      e.MQTT_CLIENT_ID ??
      `kontrol-gateway-${hostname()
        .replace(/[^A-Za-z0-9_.-]/g, '-')
        .slice(0, 24)}`,
    telemetryRawDays: e.TELEMETRY_RAW_DAYS,
    deviceLimits: {
      maxConnections: e.DEVICE_MAX_CONNECTIONS,
      maxInFlight: e.DEVICE_MAX_IN_FLIGHT,
      samplesPerSecond: e.DEVICE_SAMPLES_PER_SECOND,
      burstSamples: e.DEVICE_SAMPLES_BURST,
      samplesPerDay: e.DEVICE_SAMPLES_PER_DAY,
    },
    rulesNoDataCheckSeconds: e.RULES_NO_DATA_CHECK_SECONDS,
    telemetryMinuteDays: e.TELEMETRY_MINUTE_DAYS,
    telegramBotToken: e.TELEGRAM_BOT_TOKEN,
    telegramApiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, ''),
    billing: {
      dailyRateKopecks: e.BILLING_DAILY_RATE_KOPECKS,
      vatPercent: e.BILLING_VAT_PERCENT,
      sellerFile: e.BILLING_SELLER_FILE,
      chargeCheckMinutes: e.BILLING_CHARGE_CHECK_MINUTES,
      paymentProvider: e.PAYMENT_PROVIDER === 'none' ? null : e.PAYMENT_PROVIDER,
      topUpMinKopecks: e.BILLING_TOP_UP_MIN_KOPECKS,
      topUpMaxKopecks: e.BILLING_TOP_UP_MAX_KOPECKS,
    },
    metrics: e.METRICS_PORT === 'off' ? false : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    liveSessionCheckSeconds: e.LIVE_SESSION_CHECK_SECONDS,
    invitations: { perHour: e.INVITES_PER_HOUR, perDay: e.INVITES_PER_DAY },
  };
}

/**
 * Uploads live next to the SQLite file (`./data/kontrol.db` → `./data/uploads`), so one data folder
 * holds everything to back up; with PostgreSQL or an in-memory database, in `./data/uploads`.
 */
function defaultUploadsDir(databaseUrl: string): string {
  const location = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : '';
  if (location === '' || location === ':memory:') return join('data', 'uploads');
  return join(dirname(location), 'uploads');
}

function stripEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}

function parseTrustProxy(value: string): Config['trustProxy'] {
  if (value === 'true') return true;
  if (value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}
