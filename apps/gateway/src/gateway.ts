import type { DeviceAccounts } from '@kontrol/domain';
import { DEFAULT_DEVICE_LIMITS, type DeviceLimitSettings } from '@kontrol/contracts';
import type { DatabaseHandle } from '@kontrol/db';
import type { FastifyBaseLogger as Logger, FastifyContextConfig, FastifyInstance } from 'fastify';
import { DeviceDirectory, type GatewayDevice } from './devices/device-directory.js';
import { ingestRoutes } from './http/ingest-routes.js';
import { createTelemetryStore } from './ingest/create-store.js';
import { IngestPipeline } from './ingest/pipeline.js';
import { DeviceLimiter } from './limits/device-limiter.js';
import { UsageRecorder } from './limits/usage-recorder.js';
import { DynamicSecurity } from './mqtt/dynamic-security.js';
import { EmbeddedBroker, PortInUseError } from './mqtt/embedded-broker.js';
import { ExternalBroker } from './mqtt/external-broker.js';
import { ProgramDispatcher } from './programs/dispatcher.js';
import { programRoutes } from './programs/program-routes.js';
import { lastStatuses } from './programs/programs.repository.js';
import { RulesEngine } from './rules/rules-engine.js';
import { emptyStats, type GatewayStats } from './stats.js';

const DAY_MS = 86_400_000;

/**
 * Where devices' MQTT goes:
 * - `embedded`: this process runs the aedes broker on `host:port`. When the port is taken,
 *   `required` makes that an error; otherwise the gateway goes on without MQTT and says so (the
 *   default port may be another broker's).
 * - `external`: a Mosquitto 2 broker at `url`. Every process keeps device accounts there (dynamic
 *   security); with `consume`, this process also takes telemetry from it (shared subscription).
 * - false: no MQTT (HTTP ingest only).
 */
export type GatewayMqtt =
  | {
      mode: 'embedded';
      host: string;
      port: number;
      required?: boolean;
      /** Connections the broker keeps at once (MQTT_MAX_CONNECTIONS); more are refused, CONNACK 3. */
      maxConnections?: number;
      /** A connection silent this long is closed (MQTT_IDLE_SECONDS), keep-alive 0 or not. */
      idleSeconds?: number;
    }
  | { mode: 'external'; url: string; consume: boolean; clientIdBase: string; connections?: number }
  | false;

export interface GatewayOptions {
  database: DatabaseHandle;
  log: Logger;
  /** Raw samples are kept this many days (TELEMETRY_RAW_DAYS); older ones are refused. */
  rawRetentionDays: number;
  mqtt: GatewayMqtt;
  batch?: { maxSamples?: number; maxDelayMs?: number };
  /** How often the embedded broker checks connected devices' credentials again. */
  revalidateMs?: number;
  /** How often `no_data` rules are checked (ms; default 30 s, 0: never, tests call it). */
  noDataEveryMs?: number;
  /** Told when device events opened or closed. */
  onDeviceEvents?: (change: { opened: number; closed: number }) => void;
  /** Recipe delivery where this process runs MQTT (programs/dispatcher.ts); defaults otherwise. */
  programs?: { everyMs?: number; reportTimeoutMs?: number };
  /** What one device may send (docs/device-protocol.md, "Limits"); `DEFAULT_DEVICE_LIMITS` otherwise. */
  limits?: DeviceLimitSettings;
  /** How often the device counts are written (ms; default 2 s, 0: only at close, tests call `usage.flush`). */
  limitsFlushMs?: number;
}

const NO_ACCOUNTS: DeviceAccounts = {
  renameNeedsNewCredential: false,
  issued: async () => undefined,
  removed: async () => undefined,
};

/**
 * The device side of Kontrol (docs/telemetry.md): the device directory, the ingest pipeline with
 * its group commit, the MQTT side (embedded broker or external one) and the HTTP ingest route for
 * a Fastify instance (the API's in `npm start`, or a gateway process's own).
 */
export class Gateway {
  readonly directory: DeviceDirectory;
  readonly pipeline: IngestPipeline;
  /** The current templates' rules, run on every committed batch (docs/events.md). */
  readonly rules: RulesEngine;
  readonly stats: GatewayStats = emptyStats();
  /** The per-device limits of this process, and the writer of their counts (docs/device-protocol.md, "Limits"). */
  readonly limiter: DeviceLimiter;
  readonly usage: UsageRecorder;
  /** The embedded broker, when this process runs it. */
  broker: EmbeddedBroker | undefined;
  /** The external broker's subscriptions, when this process takes telemetry from it. */
  external: ExternalBroker | undefined;
  accounts: DeviceAccounts = NO_ACCOUNTS;
  /**
   * Sends recipe deliveries to devices (docs/device-protocol.md, "Recipes"), in the process that
   * runs MQTT; undefined elsewhere (the dispatcher of that process finds the work in the database).
   */
  programs: ProgramDispatcher | undefined;
  private dynamicSecurity: DynamicSecurity | undefined;
  private readonly rawRetentionMs: number;

  private constructor(private readonly options: GatewayOptions) {
    this.rawRetentionMs = options.rawRetentionDays * DAY_MS;
    this.directory = new DeviceDirectory(options.database.db);
    this.limiter = new DeviceLimiter(options.limits ?? DEFAULT_DEVICE_LIMITS, (reason) => {
      this.stats.limited[reason] += 1;
    });
    this.usage = new UsageRecorder({
      db: options.database.db,
      limiter: this.limiter,
      log: options.log,
      everyMs: options.limitsFlushMs,
    });
    this.rules = new RulesEngine({
      db: options.database.db,
      log: options.log,
      noDataEveryMs: options.noDataEveryMs,
      onEvents: options.onDeviceEvents,
    });
    this.pipeline = new IngestPipeline({
      store: createTelemetryStore(options.database),
      maxBatchSamples: options.batch?.maxSamples,
      maxDelayMs: options.batch?.maxDelayMs,
      onCommitted: (batch) => {
        this.stats.batches += 1;
        this.stats.slowestBatchMs = Math.max(this.stats.slowestBatchMs, batch.durationMs);
        this.rules.enqueue(batch.storedSamples);
      },
    });
  }

  static async start(options: GatewayOptions): Promise<Gateway> {
    const gateway = new Gateway(options);
    try {
      if (options.mqtt && options.mqtt.mode === 'embedded') await gateway.startEmbedded(options.mqtt);
      if (options.mqtt && options.mqtt.mode === 'external') await gateway.startExternal(options.mqtt);
      gateway.startPrograms();
    } catch (error) {
      await gateway.close();
      throw error;
    }
    return gateway;
  }

  /** Sends a command to a device over MQTT; false when no broker can take it now. */
  async publishCommand(controllerId: string, command: unknown): Promise<boolean> {
    if (this.broker) return this.broker.publishCommand(controllerId, command);
    if (this.external) return this.external.publishCommand(controllerId, command);
    return false;
  }

  /**
   * Registers the device's HTTP routes on a Fastify instance: `POST /api/ingest/v1/telemetry`, and
   * the program files' download and report (`PROGRAMS_PATH`).
   */
  async registerHttpIngest(app: FastifyInstance, routeConfig?: FastifyContextConfig): Promise<void> {
    await app.register(programRoutes, {
      db: this.options.database.db,
      directory: this.directory,
      routeConfig,
    });
    await app.register(ingestRoutes, {
      pipeline: this.pipeline,
      directory: this.directory,
      limiter: this.limiter,
      rawRetentionMs: this.rawRetentionMs,
      routeConfig,
      onMessage: (counts) => {
        this.stats.httpMessages += 1;
        this.stats.acceptedSamples += counts.accepted;
        this.stats.duplicateSamples += counts.duplicates;
        this.stats.rejectedSamples += counts.rejected;
      },
    });
  }

  /** Stops taking messages, then writes what is waiting. */
  async close(): Promise<void> {
    await this.programs?.close();
    await this.broker?.close();
    await this.external?.close();
    await this.dynamicSecurity?.close();
    await this.pipeline.close();
    await this.usage.close();
    await this.rules.close();
  }

  /** The recipe dispatcher, when this process can send commands (an embedded or consumed external broker). */
  private startPrograms() {
    const { broker, external } = this;
    if (!broker && !external) return;
    this.programs = new ProgramDispatcher({
      db: this.options.database.db,
      log: this.options.log,
      everyMs: this.options.programs?.everyMs,
      reportTimeoutMs: this.options.programs?.reportTimeoutMs,
      publish: (controllerId, command) => this.publishCommand(controllerId, command),
      reachable: async (devices) => {
        if (broker)
          return new Set(devices.filter((device) => broker.canCommand(device.controllerId)).map((d) => d.id));
        // An external broker: the device's last status message says it is online.
        const statuses = await lastStatuses(
          this.options.database.db,
          devices.map((device) => device.id),
        );
        return new Set([...statuses].filter(([, status]) => saysOnline(status)).map(([id]) => id));
      },
    });
    this.programs.start();
  }

  private async startEmbedded(address: Omit<Extract<GatewayMqtt, { mode: 'embedded' }>, 'mode'>) {
    const { log } = this.options;
    try {
      this.broker = await EmbeddedBroker.start({
        host: address.host,
        port: address.port,
        directory: this.directory,
        pipeline: this.pipeline,
        rawRetentionMs: this.rawRetentionMs,
        stats: this.stats,
        limiter: this.limiter,
        log,
        saveStatus: (device, status) => this.saveStatus(device, status),
        revalidateMs: this.options.revalidateMs,
        maxConnections: address.maxConnections,
        idleSeconds: address.idleSeconds,
        onCommandReady: () => void this.programs?.kick(),
      });
      log.info(`MQTT broker (embedded) listening on ${address.host}:${this.broker.port}`);
    } catch (error) {
      if (!(error instanceof PortInUseError) || address.required) throw error;
      log.error(`${error.message} Devices can still send telemetry over HTTP.`);
    }
  }

  private async startExternal(external: Extract<GatewayMqtt, { mode: 'external' }>) {
    const dynamicSecurity = await DynamicSecurity.connect(
      external.url,
      `${external.clientIdBase}-accounts-${process.pid}`,
    );
    this.dynamicSecurity = dynamicSecurity;
    this.accounts = {
      renameNeedsNewCredential: true,
      issued: (controllerId, secret) => dynamicSecurity.createDevice(controllerId, secret),
      removed: (controllerId) => dynamicSecurity.deleteDevice(controllerId),
    };
    if (!external.consume) return;
    this.external = await ExternalBroker.start({
      url: external.url,
      clientIdBase: external.clientIdBase,
      connections: external.connections ?? 8,
      directory: this.directory,
      pipeline: this.pipeline,
      rawRetentionMs: this.rawRetentionMs,
      stats: this.stats,
      limiter: this.limiter,
      log: this.options.log,
      saveStatus: (device, status) => this.saveStatus(device, status),
    });
    this.options.log.info(`MQTT: taking telemetry from ${new URL(external.url).host} (shared subscription)`);
  }

  private async saveStatus(device: GatewayDevice, status: string) {
    const now = new Date().toISOString();
    await this.options.database.db
      .insertInto('device_live')
      .values({ device_id: device.id, status, status_at: now })
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ status, status_at: now }))
      .execute();
    // With an external broker, a device that says it is online can be sent its recipes now.
    if (this.external && saysOnline(status)) void this.programs?.kick();
  }
}

function saysOnline(status: string): boolean {
  try {
    return (JSON.parse(status) as { online?: unknown }).online === true;
  } catch {
    return false;
  }
}
