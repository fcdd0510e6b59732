import {
  COMMAND_CHANNEL,
  STATUS_CHANNEL,
  TELEMETRY_CHANNEL,
  TOPIC_ROOT,
  deviceTopic,
  parseDeviceTopic,
} from '@kontrol/contracts';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { ISubscriptionMap, MqttClient } from 'mqtt';
import type { DeviceDirectory, GatewayDevice } from '../devices/device-directory.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import { ingestStatusMessage, ingestTelemetryMessage } from '../ingest/mqtt-message.js';
import { DeviceLimitError, type DeviceLimiter } from '../limits/device-limiter.js';
import type { GatewayStats } from '../stats.js';

/** The shared-subscription group of every gateway: each message goes to one of its members. */
export const SHARE_GROUP = 'kontrol-gateway';
/** How long the broker keeps a disconnected gateway's session and its unacknowledged messages. */
const SESSION_EXPIRY_S = 7 * 24 * 3600;
/** A device looked up by its topic is remembered this long (type, zone and organisation rarely change). */
const DEVICE_CACHE_MS = 30_000;
/**
 * After a message could not be stored (the database does not answer), the connection waits this
 * long before it comes back for the redelivery, rather than taking the same message at once.
 */
const RECONNECT_AFTER_FAILURE_MS = 2_000;

export interface ExternalBrokerOptions {
  url: string;
  /** Stable across restarts, one per gateway process: the broker keeps its sessions (QoS 1 queue). */
  clientIdBase: string;
  /** Connections in the share group (mqtt.js handles one message at a time per connection). */
  connections: number;
  directory: DeviceDirectory;
  pipeline: IngestPipeline;
  rawRetentionMs: number;
  stats: GatewayStats;
  /** The device limits (docs/device-protocol.md, "Limits"). */
  limiter: DeviceLimiter;
  log: Logger;
  saveStatus: (device: GatewayDevice, status: string) => Promise<void>;
}

/**
 * The gateway as a client of an external broker (Mosquitto 2, `MQTT_URL`). The broker enforces
 * who may publish where (dynamic security, dynamic-security.ts), so the topic names the device.
 * Several connections, and several gateway processes, subscribe to `$share/kontrol-gateway/…`
 * with persistent sessions: the broker hands each message to one of them and keeps what a
 * disconnected one has not acknowledged. A message is acknowledged (PUBACK to the broker) only
 * after its samples are committed (`customHandleAcks`); until then the broker redelivers it.
 */
export class ExternalBroker {
  private readonly devices = new Map<string, { device: GatewayDevice; until: number }>();
  /** Set by close(): no reconnect is scheduled after it. */
  private closed = false;

  private constructor(
    private readonly options: ExternalBrokerOptions,
    private readonly clients: MqttClient[],
  ) {}

  static async start(options: ExternalBrokerOptions): Promise<ExternalBroker> {
    // mqtt.js is loaded by the first connection: a gateway with the embedded broker never needs it.
    const { default: mqtt } = await import('mqtt');
    const clients: MqttClient[] = [];
    const broker = new ExternalBroker(options, clients);
    for (let index = 0; index < options.connections; index += 1) {
      const client = await mqtt.connectAsync(options.url, {
        clientId: `${options.clientIdBase}-${index}`,
        // MQTT 5: mqtt.js lets the application send the PUBACK (customHandleAcks) only on version 5.
        protocolVersion: 5,
        clean: false,
        properties: { sessionExpiryInterval: SESSION_EXPIRY_S },
        reconnectPeriod: 2_000,
        connectTimeout: 10_000,
        customHandleAcks: (topic, payload, _packet, done) => {
          broker.handle(topic, payload).then(
            () => done(0),
            (error: unknown) => {
              // Not committed: no PUBACK. The connection is ended so the broker redelivers, and
              // comes back after a pause, so a database that is down is not asked again at once.
              if (broker.closed || client.disconnecting) return;
              options.log.error({ err: error, topic }, 'telemetry not stored; reconnecting in 2 s');
              client.end(true, () => {
                setTimeout(() => {
                  if (!broker.closed) client.reconnect();
                }, RECONNECT_AFTER_FAILURE_MS).unref();
              });
            },
          );
        },
      });
      client.on('error', (error) => options.log.warn({ err: error }, 'MQTT broker connection error'));
      const topics = [
        `$share/${SHARE_GROUP}/${TOPIC_ROOT}/+/${TELEMETRY_CHANNEL}`,
        `$share/${SHARE_GROUP}/${TOPIC_ROOT}/+/${STATUS_CHANNEL}`,
      ];
      await client.subscribeAsync(topics, { qos: 1 });
      // Subscribe again on every reconnect. mqtt.js does so only when the broker says it kept no
      // session, but Mosquitto 2 restarted from its persistence file says it kept the session and
      // has lost the shared subscriptions in it: the gateway would receive nothing until restarted
      // (scripts/faults/broker-restart.mjs). `resubscribe` makes mqtt.js send a subscription it
      // believes it already holds.
      client.on('connect', () => {
        const again: ISubscriptionMap = Object.fromEntries(
          topics.map((topic) => [topic, { qos: 1 as const }]),
        );
        client.subscribe({ ...again, resubscribe: true } as unknown as ISubscriptionMap, (error) => {
          if (error) options.log.warn({ err: error }, 'MQTT subscription failed after a reconnect');
        });
      });
      clients.push(client);
    }
    return broker;
  }

  /** The connections to the broker that are up now, and all of them (metrics). */
  get connections(): { up: number; all: number } {
    return { up: this.clients.filter((client) => client.connected).length, all: this.clients.length };
  }

  /** Sends a command to a device (QoS 1; the broker keeps it for a persistent device session). */
  async publishCommand(controllerId: string, command: unknown): Promise<boolean> {
    const client = this.clients[0];
    if (!client?.connected) return false;
    await client.publishAsync(deviceTopic(controllerId, COMMAND_CHANNEL), JSON.stringify(command), {
      qos: 1,
    });
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.clients.map((client) => client.endAsync()));
  }

  private async device(controllerId: string): Promise<GatewayDevice | undefined> {
    const cached = this.devices.get(controllerId);
    if (cached && cached.until > Date.now()) return cached.device;
    const device = await this.options.directory.byControllerIdTrusted(controllerId);
    if (device) this.devices.set(controllerId, { device, until: Date.now() + DEVICE_CACHE_MS });
    else this.devices.delete(controllerId);
    return device;
  }

  private async handle(topic: string, payload: Buffer): Promise<void> {
    const stats = this.options.stats;
    const target = parseDeviceTopic(topic);
    const device = target ? await this.device(target.controllerId) : undefined;
    if (!target || !device) {
      stats.droppedPublishes += 1; // a device deleted meanwhile, or a topic outside the protocol
      return;
    }
    try {
      if (target.channel === STATUS_CHANNEL) {
        const saved = await ingestStatusMessage(device, payload, this.options.limiter, (status) =>
          this.options.saveStatus(device, status),
        );
        if (!saved) stats.rejectedMessages += 1;
        return;
      }
      await ingestTelemetryMessage(device, payload, this.options);
    } catch (error) {
      // The broker acknowledged the device's publish when it took it: a message over the device's
      // limits can only be dropped (counted by the limiter), and is acknowledged to the broker.
      if (!(error instanceof DeviceLimitError)) throw error;
    }
  }
}
