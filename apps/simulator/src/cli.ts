import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backfill, type BackfillResult } from './backfill.js';
import { readDevicesFile } from './fleet.js';
import { DEFAULT_FAILURE_RATE, DEFAULT_OFFLINE_RATE } from './models.js';
import { startSimulator, type SimulatorStats } from './simulator.js';
import type { Logger } from './transport.js';

/** `npm run simulate -- …`: runs a fleet of virtual devices against a Kontrol. */

const HELP = `Usage: npm run simulate -- --devices <file.json> (--mqtt <url> | --http <url>) [options]

Virtual kitchen equipment (combi ovens, fryers, dishwashers, fridges…) that sends realistic
telemetry to Kontrol over the real device protocol, until Ctrl+C.

Devices:
  --devices <file.json>      JSON array of devices:
                             [{"controller_id": "KC-0001", "credential": "kdc_…", "type": "combi_oven",
                               "shift_start": "08:00", "time_zone": "Europe/Moscow"}, …]
                             type: combi_oven, convection_oven, fryer, dishwasher, refrigerator, freezer,
                             blast_chiller, induction_hob, other. shift_start (local HH:MM, default
                             08:00), time_zone (IANA, default Europe/Moscow), seed and
                             program_failure_rate (0..1) are optional.

Where to send:
  --mqtt <url>               Live samples over MQTT, one connection per device, e.g. mqtt://localhost:1883
  --http <url>               Kontrol's base URL, e.g. http://localhost:3000: live samples over HTTP when
                             --mqtt is not given, and always the back-fill. With --mqtt, devices also
                             download the recipe programs their commands name from here.
  --mqtt-version <4|5>       MQTT protocol version: 4 = MQTT 3.1.1 (default), 5 = MQTT 5.

Live samples:
  --interval <duration>      Time between two samples of a device (default 10s). Durations: 500ms, 10s,
                             1m, 1h; a bare number is seconds.
  --batch <n>                Samples per MQTT message or HTTP request (default 1, at most 10000).

History:
  --backfill-days <n>        First send the last n days of history over HTTP (needs --http), in
                             requests of up to 5000 samples, then go live. Safe to repeat: the server
                             deduplicates by device and timestamp.
  --backfill-interval <dur>  Time between two samples of the history (default 60s).
  --backfill-only            Exit after the back-fill.

Behaviour:
  --failure-rate <0..1>      Probability of a fault per device per day (default ${DEFAULT_FAILURE_RATE}).
  --offline-rate <0..1>      Probability of an offline spell (10–60 min without samples) per device per
                             day (default ${DEFAULT_OFFLINE_RATE}).
  --seed <integer>           Seed of the fleet: the same seed gives the same samples (default 1).
  --program-failure-rate <0..1>
                             Probability that a device stores a recipe program file corrupted (a byte
                             flipped), so the CRC it reports does not match (default 0). A device's
                             program_failure_rate in the devices file wins.

Output:
  --stats-every <duration>   One line of counters this often (default 10s).
  --verbose                  Also log connections and received commands.
  -h, --help                 This help.

Counters: sent (handed to the network), acked (PUBACK or HTTP 202), in flight, buffered (waiting
while disconnected; oldest dropped beyond 10000 per device), rejected, errors (failed attempts,
retried), dropped. Ctrl+C (SIGINT) or SIGTERM stops cleanly: pending samples are sent and their
acknowledgements awaited for up to 5 s.
`;

const OPTIONS = {
  devices: { type: 'string' },
  mqtt: { type: 'string' },
  http: { type: 'string' },
  'mqtt-version': { type: 'string', default: '4' },
  interval: { type: 'string', default: '10s' },
  batch: { type: 'string', default: '1' },
  'backfill-days': { type: 'string', default: '0' },
  'backfill-interval': { type: 'string', default: '60s' },
  'backfill-only': { type: 'boolean', default: false },
  'failure-rate': { type: 'string', default: String(DEFAULT_FAILURE_RATE) },
  'offline-rate': { type: 'string', default: String(DEFAULT_OFFLINE_RATE) },
  seed: { type: 'string', default: '1' },
  'program-failure-rate': { type: 'string', default: '0' },
  'stats-every': { type: 'string', default: '10s' },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

class UsageError extends Error {}

/** `500ms`, `10s`, `1m`, `1h`, or a bare number of seconds, in milliseconds. */
function parseDuration(text: string, name: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--${name}: "${text}" is not a duration (500ms, 10s, 1m, 1h)`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'] ?? 1000;
  const ms = Math.round(Number(match[1]) * unit);
  if (ms < 1) throw new UsageError(`--${name} must be more than 0`);
  return ms;
}

function parseNumber(text: string, name: string, min: number, max: number, integer = false): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max}`);
  }
  if (integer && !Number.isInteger(value)) throw new UsageError(`--${name} must be an integer`);
  return value;
}

function time(): string {
  return new Date().toISOString().slice(11, 19);
}

function cliLogger(verbose: boolean): Logger {
  return {
    info: (message) => {
      if (verbose) console.log(`${time()} ${message}`);
    },
    warn: (message) => console.warn(`${time()} warn: ${message}`),
    error: (message) => console.error(`${time()} error: ${message}`),
  };
}

function statsLine(stats: SimulatorStats, previousAcked: number, everyMs: number): string {
  const rate = ((stats.acknowledged - previousAcked) * 1000) / everyMs;
  return [
    `${time()} ${stats.transport}: ${stats.devices} devices, ${stats.connected} connected`,
    `sent ${stats.sent}`,
    `acked ${stats.acknowledged} (${rate.toFixed(1)}/s)`,
    `in flight ${stats.inFlight}`,
    `buffered ${stats.buffered + stats.pending}`,
    `rejected ${stats.rejected}`,
    `errors ${stats.errors}`,
    `dropped ${stats.dropped}`,
    `unauthorized ${stats.unauthorized}`,
    `commands ${stats.commands}`,
    `programs ${stats.programs.stored} stored (${stats.programs.corrupted} corrupted), ${stats.programs.removed} removed`,
  ].join(' · ');
}

function backfillLine(progress: BackfillResult): string {
  return (
    `${time()} back-fill: ${progress.samples} samples sent, ${progress.accepted} accepted, ` +
    `${progress.duplicates} duplicates, ${progress.rejected} rejected, ${progress.retries} retries, ` +
    `${progress.unauthorized.length} unauthorized`
  );
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (!values.devices) throw new UsageError('--devices <file.json> is required');
  if (!values.mqtt && !values.http) throw new UsageError('give --mqtt <url> or --http <url>');
  const backfillDays = parseNumber(values['backfill-days'], 'backfill-days', 0, 3650);
  if (backfillDays > 0 && !values.http)
    throw new UsageError('--backfill-days sends over HTTP: give --http <url>');
  if (values['backfill-only'] && backfillDays === 0)
    throw new UsageError('--backfill-only needs --backfill-days');
  const mqttVersion = values['mqtt-version'];
  if (mqttVersion !== '4' && mqttVersion !== '5') throw new UsageError('--mqtt-version must be 4 or 5');

  // npm runs the script in apps/simulator; a relative path means where the user typed the command.
  const devices = await readDevicesFile(resolve(process.env.INIT_CWD ?? process.cwd(), values.devices));
  const logger = cliLogger(values.verbose);
  const fleet = {
    devices,
    failureRate: parseNumber(values['failure-rate'], 'failure-rate', 0, 1),
    offlineRate: parseNumber(values['offline-rate'], 'offline-rate', 0, 1),
    seed: parseNumber(values.seed, 'seed', 0, 2 ** 32 - 1, true),
    programFailureRate: parseNumber(values['program-failure-rate'], 'program-failure-rate', 0, 1),
    logger,
  };
  const intervalMs = parseDuration(values.interval, 'interval');
  const batch = parseNumber(values.batch, 'batch', 1, 10_000, true);
  const statsEveryMs = parseDuration(values['stats-every'], 'stats-every');

  // The first signal stops cleanly; a second one does not wait.
  const stopping = new AbortController();
  let stopLive: (() => Promise<void>) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping.signal.aborted) process.exit(130);
    console.log(`${time()} ${signal}: stopping…`);
    stopping.abort();
    void stopLive?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  if (backfillDays > 0) {
    const intervalOfHistory = parseDuration(values['backfill-interval'], 'backfill-interval');
    console.log(`${time()} back-fill: ${backfillDays} days of ${devices.length} devices to ${values.http}`);
    let lastPrinted = Date.now();
    const result = await backfill({
      ...fleet,
      httpUrl: values.http as string,
      days: backfillDays,
      intervalMs: intervalOfHistory,
      signal: stopping.signal,
      onProgress: (progress) => {
        if (Date.now() - lastPrinted < statsEveryMs) return;
        lastPrinted = Date.now();
        console.log(backfillLine(progress));
      },
    }).catch((error: unknown) => {
      if (stopping.signal.aborted) return undefined;
      throw error;
    });
    if (!result) return;
    console.log(`${backfillLine(result)} — done`);
  }
  if (values['backfill-only'] || stopping.signal.aborted) return;

  const transport = values.mqtt ? 'mqtt' : 'http';
  console.log(
    `${time()} live: ${devices.length} devices over ${transport} to ${values.mqtt ?? values.http}, ` +
      `a sample every ${intervalMs / 1000} s, ${batch} per message`,
  );
  const simulator = startSimulator({
    ...fleet,
    transport,
    mqttUrl: values.mqtt,
    httpUrl: values.http,
    mqttVersion: mqttVersion === '5' ? 5 : 4,
    intervalMs,
    batch,
  });
  let previousAcked = 0;
  const statsTimer = setInterval(() => {
    const stats = simulator.stats();
    console.log(statsLine(stats, previousAcked, statsEveryMs));
    previousAcked = stats.acknowledged;
  }, statsEveryMs);

  await new Promise<void>((stopped) => {
    stopLive = async () => {
      clearInterval(statsTimer);
      await simulator.stop();
      console.log(`${statsLine(simulator.stats(), previousAcked, statsEveryMs)} — stopped`);
      stopped();
    };
  });
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\nSee --help.`);
      process.exit(2);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
