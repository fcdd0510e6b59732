import {
  COMMAND_CHANNEL,
  STATUS_CHANNEL,
  TELEMETRY_CHANNEL,
  deviceTopic,
  type DeviceStatus,
  type TelemetrySampleInput,
} from '@kontrol/contracts';
import { ErrorWithReasonCode, connect, type IClientOptions, type MqttClient } from 'mqtt';
import {
  DEFAULT_MAX_BUFFERED,
  delay,
  emptyCounters,
  settlesWithin,
  silentLogger,
  type CommandHandler,
  type DeviceLink,
  type Logger,
} from './transport.js';

/**
 * One device on MQTT, as a real controller talks to the gateway: its own connection (client id and
 * user name = controller id, password = credential), telemetry at QoS 1, a status message on every
 * connect, and a subscription to its command topic.
 *
 * Nothing is lost while the broker is away: messages published but not yet acknowledged stay in
 * mqtt.js's outgoing store and are re-sent after the reconnect (`clean: false`); messages produced
 * while disconnected wait in a bounded buffer of our own (mqtt.js's offline queue has no bound),
 * the oldest dropped and counted when it is full.
 */
export interface MqttLinkOptions {
  /** `mqtt://host:1883`, `mqtts://…`, `ws://…`. */
  url: string;
  controllerId: string;
  credential: string;
  /** 4 = MQTT 3.1.1 (default), 5 = MQTT 5. */
  protocolVersion?: 4 | 5;
  /** Most samples kept while disconnected. Default 10 000. */
  maxBuffered?: number;
  /** Pause between reconnect attempts. Default a random 1–5 s, so a fleet does not reconnect in step. */
  reconnectPeriodMs?: number;
  /** Reported in the status message. */
  firmware?: string;
  logger?: Logger;
  /** Called with each command received (JSON parsed when it is JSON, otherwise the text). */
  onCommand?: CommandHandler;
  /** The clock for `uptime_s`. */
  now?: () => number;
}

export const SIMULATOR_FIRMWARE = 'sim-1.0';
/** The status a device leaves behind: its will, and its last word when it stops. */
const OFFLINE_STATUS = JSON.stringify({ online: false } satisfies DeviceStatus);

/** CONNACK codes that mean a bad credential: 4/5 in MQTT 3.1.1, 134/135 in MQTT 5. Retrying cannot help. */
const CREDENTIAL_REFUSED = new Set([4, 5, 134, 135]);
/** PUBACK reason codes from 128 on are a refusal (MQTT 5 only). */
const PUBACK_REFUSED_FROM = 0x80;

export function createMqttLink(options: MqttLinkOptions): DeviceLink {
  const { controllerId } = options;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
  const telemetryTopic = deviceTopic(controllerId, TELEMETRY_CHANNEL);
  const statusTopic = deviceTopic(controllerId, STATUS_CHANNEL);
  const commandTopic = deviceTopic(controllerId, COMMAND_CHANNEL);

  const counters = emptyCounters();
  /** Messages produced while disconnected, oldest first. */
  const buffer: TelemetrySampleInput[][] = [];
  let client: MqttClient | undefined;
  let startedAt = now();
  let stopping = false;
  let closed = false;
  let unauthorized = false;
  let commands = 0;
  let lastError = '';

  function dropOldestWhileFull(): void {
    while (counters.buffered > maxBuffered && buffer.length > 0) {
      const oldest = buffer.shift() as TelemetrySampleInput[];
      counters.buffered -= oldest.length;
      counters.dropped += oldest.length;
    }
  }

  function publish(mqtt: MqttClient, samples: TelemetrySampleInput[]): void {
    const count = samples.length;
    counters.sent += count;
    counters.inFlight += count;
    const payload = JSON.stringify(count === 1 ? samples[0] : samples);
    mqtt.publish(telemetryTopic, payload, { qos: 1 }, (error) => {
      if (closed) return; // counted as dropped when the link closed
      counters.inFlight -= count;
      if (!error) {
        counters.acknowledged += count;
      } else if (error instanceof ErrorWithReasonCode && error.code >= PUBACK_REFUSED_FROM) {
        counters.rejected += count;
        logger.warn(`${controllerId}: the broker refused ${count} sample(s): ${error.message}`);
      } else {
        counters.errors += 1;
        counters.dropped += count;
        logger.warn(`${controllerId}: ${count} sample(s) not delivered: ${error.message}`);
      }
    });
  }

  function onConnect(mqtt: MqttClient): void {
    lastError = '';
    logger.info(`${controllerId}: connected to ${options.url}`);
    const status: DeviceStatus = {
      online: true,
      firmware: options.firmware ?? SIMULATOR_FIRMWARE,
      uptime_s: Math.max(0, Math.floor((now() - startedAt) / 1000)),
    };
    mqtt.publish(statusTopic, JSON.stringify(status), { qos: 1 });
    // Subscribed again on every connect: a broker that restarted has forgotten the session.
    mqtt.subscribe(commandTopic, { qos: 1 });
    while (buffer.length > 0 && mqtt.connected) {
      const samples = buffer.shift() as TelemetrySampleInput[];
      counters.buffered -= samples.length;
      publish(mqtt, samples);
    }
  }

  function onMessage(topic: string, payload: Buffer): void {
    if (topic !== commandTopic) return;
    commands += 1;
    const text = payload.toString('utf8');
    let command: unknown = text;
    try {
      command = JSON.parse(text);
    } catch {
      // Not JSON: handed over as text.
    }
    logger.info(`${controllerId}: command ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`);
    options.onCommand?.(controllerId, command);
  }

  function onError(mqtt: MqttClient, error: Error): void {
    const code = error instanceof ErrorWithReasonCode ? error.code : undefined;
    if (code !== undefined && CREDENTIAL_REFUSED.has(code)) {
      unauthorized = true;
      logger.error(`${controllerId}: the broker refused the credential (${error.message}); device stopped`);
      counters.dropped += counters.buffered;
      counters.buffered = 0;
      buffer.length = 0;
      mqtt.end(true);
      return;
    }
    // Logged once per kind of error, not on every reconnect attempt.
    if (error.message !== lastError) {
      lastError = error.message;
      logger.warn(`${controllerId}: ${error.message}`);
    }
  }

  return {
    controllerId,
    get connected() {
      return client?.connected ?? false;
    },
    get unauthorized() {
      return unauthorized;
    },
    get commands() {
      return commands;
    },

    start() {
      if (client || stopping) return;
      startedAt = now();
      const clientOptions: IClientOptions = {
        clientId: controllerId,
        username: controllerId,
        password: options.credential,
        protocolVersion: options.protocolVersion ?? 4,
        clean: false,
        // We subscribe on every connect ourselves.
        resubscribe: false,
        reconnectPeriod: options.reconnectPeriodMs ?? 1000 + Math.floor(Math.random() * 4000),
        // Keep retrying after "server unavailable"; a refused credential is handled in onError.
        reconnectOnConnackError: true,
        connectTimeout: 30_000,
        keepalive: 60,
        queueQoSZero: false,
        // Kontrol (with an external broker) sends commands to devices whose last status is online.
        will: { topic: statusTopic, payload: Buffer.from(OFFLINE_STATUS), qos: 1, retain: false },
      };
      if (clientOptions.protocolVersion === 5) {
        // Like clean: false in 3.1.1: the broker keeps the session for a day.
        clientOptions.properties = { sessionExpiryInterval: 86_400 };
      }
      const mqtt = connect(options.url, clientOptions);
      client = mqtt;
      mqtt.on('connect', () => onConnect(mqtt));
      mqtt.on('message', onMessage);
      mqtt.on('error', (error) => onError(mqtt, error));
      mqtt.on('close', () => {
        if (!stopping && !unauthorized) counters.errors += 1;
      });
    },

    send(samples) {
      if (samples.length === 0) return;
      if (stopping || unauthorized) {
        counters.dropped += samples.length;
        return;
      }
      if (client?.connected && buffer.length === 0) {
        publish(client, samples);
        return;
      }
      buffer.push(samples);
      counters.buffered += samples.length;
      dropOldestWhileFull();
    },

    counters() {
      return { ...counters };
    },

    async stop(timeoutMs = 5000) {
      if (stopping) return;
      stopping = true;
      const mqtt = client;
      if (mqtt) {
        if (mqtt.connected)
          await settlesWithin(
            mqtt.publishAsync(statusTopic, OFFLINE_STATUS, { qos: 1 }).catch(() => undefined),
            Math.min(timeoutMs, 1000),
          );
        // Give the PUBACKs of what is in flight a chance to arrive.
        const deadline = Date.now() + timeoutMs;
        while (counters.inFlight > 0 && mqtt.connected && Date.now() < deadline) await delay(20);
        await mqtt.endAsync(counters.inFlight > 0 || !mqtt.connected);
      }
      closed = true;
      counters.dropped += counters.inFlight + counters.buffered;
      counters.inFlight = 0;
      counters.buffered = 0;
      buffer.length = 0;
    },
  };
}
