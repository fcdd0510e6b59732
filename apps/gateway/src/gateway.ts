import type { DatabaseHandle } from '@kontrol/db';
import type { FastifyBaseLogger as Logger, FastifyContextConfig, FastifyInstance } from 'fastify';
import { DeviceDirectory, type GatewayDevice } from './devices/device-directory.js';
import { ingestRoutes } from './http/ingest-routes.js';
import { IngestPipeline } from './ingest/pipeline.js';
import { createTelemetryStore } from './ingest/create-store.js';
import { EmbeddedBroker, PortInUseError } from './mqtt/embedded-broker.js';
import { emptyStats, type GatewayStats } from './stats.js';

const DAY_MS = 86_400_000;

export interface GatewayOptions {
  database: DatabaseHandle;
  log: Logger;
  /** Raw samples are kept this many days (TELEMETRY_RAW_DAYS); older ones are refused. */
  rawRetentionDays: number;
  /**
   * The embedded broker's address, or false for none (HTTP ingest only, or an API process). When
   * its port is taken, `required` makes that an error; otherwise the gateway goes on without MQTT
   * and says so in the log (the default port may be another broker's).
   */
  embeddedBroker: { port: number; host: string; required?: boolean } | false;
  batch?: { maxSamples?: number; maxDelayMs?: number };
  /** How often connected devices' credentials are checked again. */
  revalidateMs?: number;
}

/**
 * The device side of Kontrol (docs/telemetry.md): the device directory, the ingest pipeline with
 * its group commit, the embedded MQTT broker when asked for, and the HTTP ingest route for a
 * Fastify instance (the API's in `npm start`, or a gateway process's own).
 */
export class Gateway {
  readonly directory: DeviceDirectory;
  readonly pipeline: IngestPipeline;
  readonly stats: GatewayStats = emptyStats();
  broker: EmbeddedBroker | undefined;
  private readonly rawRetentionMs: number;

  private constructor(private readonly options: GatewayOptions) {
    this.rawRetentionMs = options.rawRetentionDays * DAY_MS;
    this.directory = new DeviceDirectory(options.database.db);
    this.pipeline = new IngestPipeline({
      store: createTelemetryStore(options.database),
      maxBatchSamples: options.batch?.maxSamples,
      maxDelayMs: options.batch?.maxDelayMs,
      onCommitted: (batch) => {
        this.stats.batches += 1;
        this.stats.slowestBatchMs = Math.max(this.stats.slowestBatchMs, batch.durationMs);
      },
    });
  }

  static async start(options: GatewayOptions): Promise<Gateway> {
    const gateway = new Gateway(options);
    const address = options.embeddedBroker;
    if (address) {
      try {
        gateway.broker = await EmbeddedBroker.start({
          host: address.host,
          port: address.port,
          directory: gateway.directory,
          pipeline: gateway.pipeline,
          rawRetentionMs: gateway.rawRetentionMs,
          stats: gateway.stats,
          log: options.log,
          saveStatus: (device, status) => gateway.saveStatus(device, status),
          revalidateMs: options.revalidateMs,
        });
        options.log.info(`MQTT broker (embedded) listening on ${address.host}:${gateway.broker.port}`);
      } catch (error) {
        if (!(error instanceof PortInUseError) || address.required) throw error;
        options.log.error(`${error.message} Devices can still send telemetry over HTTP.`);
      }
    }
    return gateway;
  }

  /** Registers `POST /api/ingest/v1/telemetry` on a Fastify instance. */
  async registerHttpIngest(app: FastifyInstance, routeConfig?: FastifyContextConfig): Promise<void> {
    await app.register(ingestRoutes, {
      pipeline: this.pipeline,
      directory: this.directory,
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

  /** Stops the broker, then writes what is waiting. */
  async close(): Promise<void> {
    await this.broker?.close();
    await this.pipeline.close();
  }

  private async saveStatus(device: GatewayDevice, status: string) {
    const now = new Date().toISOString();
    await this.options.database.db
      .insertInto('device_live')
      .values({ device_id: device.id, status, status_at: now })
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ status, status_at: now }))
      .execute();
  }
}
