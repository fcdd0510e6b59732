import { createServer, type AddressInfo, type Server } from 'node:net';
import {
  COMMAND_CHANNEL,
  STATUS_CHANNEL,
  TELEMETRY_CHANNEL,
  deviceTopic,
  parseDeviceTopic,
} from '@kontrol/contracts';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { DeviceDirectory, GatewayDevice } from '../devices/device-directory.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import { ingestTelemetryMessage, readStatusMessage } from '../ingest/mqtt-message.js';
import type { GatewayStats } from '../stats.js';

/** Where a publish to a topic the device may not use goes: no one can subscribe to it. */
const DROPPED_TOPIC = '$kontrol/dropped';
const BAD_USERNAME_OR_PASSWORD = 4;

export interface EmbeddedBrokerOptions {
  port: number;
  host: string;
  directory: DeviceDirectory;
  pipeline: IngestPipeline;
  rawRetentionMs: number;
  stats: GatewayStats;
  log: Logger;
  /** Stores a device's `status` message (device_live.status). */
  saveStatus: (device: GatewayDevice, status: string) => Promise<void>;
  /** How often connected devices' credentials are checked again (rotated or deleted → cut off). */
  revalidateMs?: number;
}

export class PortInUseError extends Error {
  constructor(port: number, host: string) {
    super(
      `MQTT_PORT ${port} on ${host} is already in use (another MQTT broker, or another Kontrol?). ` +
        'Set MQTT_PORT to a free port, or MQTT_URL to use that broker instead of the embedded one.',
    );
  }
}

/**
 * The embedded MQTT broker (aedes; docs/device-protocol.md): devices sign in with their controller
 * id as client id and user name and their credential as password; each may publish only to its
 * own `telemetry` and `status` topics and subscribe only to its own `cmd` topic. A QoS 1 telemetry
 * message is acknowledged (PUBACK) only after its samples are committed: aedes sends the PUBACK
 * when `authorizePublish` calls back, and that waits for the ingest pipeline. A publish to any
 * other topic is acknowledged, dropped and counted (as Mosquitto does with an ACL denial); a
 * subscription to any other topic is refused in the SUBACK (0x80).
 *
 * aedes speaks MQTT 3.1 and 3.1.1; a device speaking MQTT 5 needs the external broker (MQTT_URL).
 */
export class EmbeddedBroker {
  private readonly broker: Aedes;
  private readonly server: Server;
  /** The device each client signed in as (from CONNECT on). */
  private readonly signedIn = new WeakMap<Client, GatewayDevice>();
  /** Connected devices by controller id: commands and credential checks. */
  private readonly devices = new Map<string, { client: Client; device: GatewayDevice }>();
  private revalidateTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: EmbeddedBrokerOptions,
    broker: Aedes,
  ) {
    this.broker = broker;
    this.server = createServer(broker.handle);
  }

  static async start(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
    const broker = new Aedes({ drainTimeout: 30_000, connectTimeout: 10_000, maxClientsIdLength: 64 });
    const embedded = new EmbeddedBroker(options, broker);
    broker.authenticate = (client, username, password, done) =>
      embedded.authenticate(client, username, password, done);
    broker.authorizePublish = (client, packet, done) => embedded.authorizePublish(client, packet, done);
    broker.authorizeSubscribe = (client, subscription, done) => {
      const allowed = embedded.signedIn.get(client)?.controllerId;
      if (allowed && subscription.topic === deviceTopic(allowed, COMMAND_CHANNEL))
        return done(null, subscription);
      options.stats.deniedSubscriptions += 1;
      done(null, null); // SUBACK 0x80 for this topic; the connection stays
    };
    broker.on('client', (client) => {
      const device = embedded.signedIn.get(client);
      if (device) embedded.devices.set(client.id, { client, device });
      options.stats.connectedDevices = embedded.devices.size;
    });
    broker.on('clientDisconnect', (client) => {
      if (embedded.devices.get(client.id)?.client === client) embedded.devices.delete(client.id);
      options.stats.connectedDevices = embedded.devices.size;
    });
    await broker.listen();
    await new Promise<void>((resolve, reject) => {
      embedded.server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.port, options.host) : error),
      );
      embedded.server.listen(options.port, options.host, () => resolve());
    });
    embedded.revalidateTimer = setInterval(() => {
      embedded
        .revalidateNow()
        .catch((error: unknown) => options.log.warn({ err: error }, 'MQTT credential check failed'));
    }, options.revalidateMs ?? 15_000);
    embedded.revalidateTimer.unref();
    return embedded;
  }

  /** The port it listens on (useful with port 0). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Sends a command to a connected device (QoS 1); false when it is not connected. */
  publishCommand(controllerId: string, command: unknown): Promise<boolean> {
    if (!this.devices.has(controllerId)) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      this.broker.publish(
        {
          cmd: 'publish',
          topic: deviceTopic(controllerId, COMMAND_CHANNEL),
          payload: Buffer.from(JSON.stringify(command)),
          qos: 1,
          retain: false,
          dup: false,
        },
        (error) => (error ? reject(error) : resolve(true)),
      );
    });
  }

  async close(): Promise<void> {
    clearInterval(this.revalidateTimer);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const { client } of this.devices.values()) client.close();
    await new Promise<void>((resolve) => this.broker.close(() => resolve()));
  }

  private authenticate(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
  ) {
    const refuse = () => {
      this.options.stats.refusedConnections += 1;
      const error = new Error('Bad controller id or credential') as AuthenticateError;
      error.returnCode = BAD_USERNAME_OR_PASSWORD;
      done(error, false);
    };
    if (!username || !password || username !== client.id) return refuse();
    this.options.directory.byControllerId(username, password.toString('utf8')).then(
      (device) => {
        if (!device) return refuse();
        this.signedIn.set(client, device);
        done(null, true);
      },
      (error: unknown) => {
        this.options.log.error({ err: error }, 'MQTT authentication failed');
        const failure = new Error('Server unavailable') as AuthenticateError;
        failure.returnCode = 3;
        done(failure, false);
      },
    );
  }

  private authorizePublish(
    client: Client | null,
    packet: { topic: string; payload: Buffer | string; retain: boolean },
    done: (error?: Error | null) => void,
  ) {
    if (!client) return done(null); // the broker's own publishes (commands)
    const device = this.signedIn.get(client);
    const target = parseDeviceTopic(packet.topic);
    if (
      !device ||
      !target ||
      target.controllerId !== device.controllerId ||
      (target.channel !== TELEMETRY_CHANNEL && target.channel !== STATUS_CHANNEL)
    ) {
      this.options.stats.droppedPublishes += 1;
      packet.topic = DROPPED_TOPIC;
      packet.retain = false;
      return done(null);
    }
    if (target.channel === STATUS_CHANNEL) return this.status(device, packet.payload, done);
    packet.retain = false; // samples are stored, not kept by the broker
    ingestTelemetryMessage(device, packet.payload, this.options).then(
      () => done(null),
      // Not committed: no PUBACK, the connection closes and the device sends it again.
      (error: unknown) => {
        this.options.log.error({ err: error, device: device.id }, 'telemetry not stored');
        done(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  private status(device: GatewayDevice, payload: Buffer | string, done: (error?: Error | null) => void) {
    const status = readStatusMessage(payload);
    if (!status) {
      this.options.stats.rejectedMessages += 1;
      return done(null);
    }
    this.options.saveStatus(device, status).then(
      () => done(null),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Closes the sessions of devices whose credential was rotated or that were deleted. */
  async revalidateNow(): Promise<void> {
    const connected = [...this.devices.values()];
    if (connected.length === 0) return;
    const valid = await this.options.directory.stillValid(connected.map((entry) => entry.device));
    for (const { client, device } of connected) {
      if (!valid.has(device.id)) {
        this.options.log.info({ device: device.id }, 'credential changed: MQTT session closed');
        client.close();
      }
    }
  }
}
