import type { EventEmitter } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import {
  COMMAND_CHANNEL,
  MAX_CLOCK_AHEAD_MS,
  MAX_MESSAGE_BYTES,
  STATUS_CHANNEL,
  TELEMETRY_CHANNEL,
  deviceTopic,
  parseDeviceTopic,
} from '@kontrol/contracts';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import { writeToStream } from 'mqtt-packet';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { DeviceDirectory, GatewayDevice } from '../devices/device-directory.js';
import { PipelineBusyError, PipelineClosedError, type IngestPipeline } from '../ingest/pipeline.js';
import {
  ingestStatusMessage,
  ingestTelemetryMessage,
  type TelemetryMessageOutcome,
} from '../ingest/mqtt-message.js';
import { DeviceLimitError, refusalPauseMs, type DeviceLimiter } from '../limits/device-limiter.js';
import type { GatewayStats } from '../stats.js';

/** Where an MQTT 3.1.1 publish to a topic the device may not use goes: no one can subscribe to it. */
const DROPPED_TOPIC = '$kontrol/dropped';
/** What a topic that would upset aedes becomes (see {@link defuse}): never granted. */
const REFUSED_TOPIC = '$kontrol/refused';
/** CONNACK return codes (MQTT 3.1.1); aedes answers an MQTT 5 client with 0x86 and 0x88. */
const BAD_USERNAME_OR_PASSWORD = 4;
const SERVER_UNAVAILABLE = 3;
/** MQTT 5 DISCONNECT reason codes (an MQTT 3.1.1 connection is just closed). */
const UNSPECIFIED_ERROR = 0x80;
/** MQTT 5 PUBACK reason codes of a telemetry message of which nothing was stored. */
const IMPLEMENTATION_SPECIFIC_ERROR = 0x83;
const PAYLOAD_FORMAT_INVALID = 0x99;
const NOT_AUTHORIZED = 0x87;
const SERVER_BUSY = 0x89;
const SERVER_SHUTTING_DOWN = 0x8b;
const MESSAGE_RATE_TOO_HIGH = 0x96;
const QUOTA_EXCEEDED = 0x97;
/** MQTT_MAX_CONNECTIONS and MQTT_IDLE_SECONDS when none is given (config.ts has the same). */
const DEFAULT_MAX_CONNECTIONS = 20_000;
const DEFAULT_IDLE_SECONDS = 300;
/** Sockets past the connection limit that are still read, to be answered with CONNACK 3. */
const CONNECTIONS_OVER_LIMIT_ANSWERED = 1_000;
/** The longest MQTT 5 session kept after its connection (a device may ask for more): 7 days. */
const SESSION_EXPIRY_LIMIT_S = 7 * 86_400;

export interface EmbeddedBrokerOptions {
  port: number;
  host: string;
  directory: DeviceDirectory;
  pipeline: IngestPipeline;
  rawRetentionMs: number;
  stats: GatewayStats;
  /** The device limits (docs/device-protocol.md, "Limits"). */
  limiter: DeviceLimiter;
  log: Logger;
  /** Stores a device's `status` message (device_live.status). */
  saveStatus: (device: GatewayDevice, status: string) => Promise<void>;
  /** How often connected devices' credentials are checked again (rotated or deleted → cut off). */
  revalidateMs?: number;
  /** Connections kept at once (signed in or signing in); past it CONNECT is refused with CONNACK 3. */
  maxConnections?: number;
  /** A connection that sends and receives nothing this long is closed (keep-alive 0 included). */
  idleSeconds?: number;
  /** Told when a device can take commands: connected and subscribed to its `cmd` topic. */
  onCommandReady?: (controllerId: string) => void;
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
 * The embedded MQTT broker (aedes 2, MQTT 3.1, 3.1.1 and 5; docs/device-protocol.md): devices sign
 * in with their controller id as client id and user name and their credential as password; each
 * may publish only to its own `telemetry` and `status` topics and subscribe only to its own `cmd`
 * topic. A QoS 1 telemetry message is acknowledged (PUBACK) only after its samples are committed:
 * aedes sends the PUBACK when `authorizePublish` calls back, and that waits for the ingest pipeline.
 * A message that could not be committed gets no PUBACK: its connection is closed and the device
 * sends it again. A publish to any other topic is dropped and counted: acknowledged (MQTT 3.1.1,
 * as Mosquitto does with an ACL denial) or refused in the PUBACK (MQTT 5, 0x87); a subscription
 * to any other topic is refused in the SUBACK (0x80; MQTT 5: 0x87).
 */
export class EmbeddedBroker {
  private readonly server: Server;
  /** Open connections, signed in or not (closed with the broker). */
  private readonly sockets = new Set<Socket>();
  /** The device each client signed in as (from CONNECT on). */
  private readonly signedIn = new WeakMap<Client, GatewayDevice>();
  /** Connected devices by controller id: commands and credential checks. */
  private readonly devices = new Map<string, { client: Client; device: GatewayDevice }>();
  private revalidateTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: EmbeddedBrokerOptions,
    private readonly broker: Aedes,
  ) {
    this.server = createServer((socket) => this.accept(socket));
    // Past the limit a CONNECT is refused with its CONNACK; far past it (a flood of sockets that
    // never speak MQTT) the kernel's connection is closed at once, before any memory is spent on it.
    this.server.maxConnections = this.maxConnections + CONNECTIONS_OVER_LIMIT_ANSWERED;
  }

  private get maxConnections(): number {
    return this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  }

  static async start(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
    const broker = await Aedes.createBroker({
      drainTimeout: 30_000,
      connectTimeout: 10_000,
      maxClientsIdLength: 64,
      // MQTT 5 only: sessions of devices that never come back do not pile up.
      sessionExpiryIntervalLimit: SESSION_EXPIRY_LIMIT_S,
      // A packet declaring more is refused once its fixed header is read, before its body is
      // buffered: the connection is closed (MQTT 5: DISCONNECT 0x95 "packet too large").
      maximumPacketSize: MAX_MESSAGE_BYTES,
      // MQTT 5 devices are told how many messages they may have unacknowledged (the rest wait).
      receiveMaximum: Math.min(65_535, options.limiter.settings.maxInFlight),
    });
    const embedded = new EmbeddedBroker(options, broker);
    broker.authenticate = (client, username, password, done) =>
      embedded.authenticate(client, username, password, done);
    broker.authorizePublish = (client, packet, done) => embedded.authorizePublish(client, packet, done);
    broker.authorizeSubscribe = (client, subscription, done) => {
      const allowed = embedded.signedIn.get(client)?.controllerId;
      if (allowed && subscription.topic === deviceTopic(allowed, COMMAND_CHANNEL))
        return done(null, subscription);
      options.stats.deniedSubscriptions += 1;
      done(null, null); // SUBACK 0x80 (MQTT 5: 0x87) for this topic; the connection stays
    };
    broker.on('client', (client) => {
      const device = embedded.signedIn.get(client);
      if (device) embedded.devices.set(client.id, { client, device });
      options.stats.connectedDevices = embedded.devices.size;
    });
    // After the CONNACK. A persistent session's subscription is restored by then, with no SUBSCRIBE.
    broker.on('clientReady', (client) => {
      if (embedded.signedIn.has(client) && embedded.canCommand(client.id))
        options.onCommandReady?.(client.id);
    });
    broker.on('subscribe', (subscriptions, client) => {
      const device = embedded.signedIn.get(client);
      const topic = device?.controllerId ? deviceTopic(device.controllerId, COMMAND_CHANNEL) : undefined;
      if (topic && subscriptions.some((sub) => sub.topic === topic && sub.qos < 0x80))
        options.onCommandReady?.(client.id);
    });
    broker.on('clientDisconnect', (client) => {
      if (embedded.devices.get(client.id)?.client === client) embedded.devices.delete(client.id);
      options.stats.connectedDevices = embedded.devices.size;
    });
    const tooLarge = (client: Client | null, error: Error & { maximumPacketSize?: number }) => {
      if (error.maximumPacketSize === undefined) return;
      const device = client ? embedded.signedIn.get(client) : undefined;
      if (device) options.limiter.packetTooLarge(device);
      else options.stats.limited.packet_size += 1;
    };
    broker.on('clientError', tooLarge);
    broker.on('connectionError', tooLarge);
    try {
      await new Promise<void>((resolve, reject) => {
        embedded.server.once('error', (error: NodeJS.ErrnoException) =>
          reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.port, options.host) : error),
        );
        embedded.server.listen(options.port, options.host, () => resolve());
      });
    } catch (error) {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      throw error;
    }
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

  /** Whether the device is connected and subscribed to its `cmd` topic, so a command reaches it. */
  canCommand(controllerId: string): boolean {
    const client = this.devices.get(controllerId)?.client;
    if (!client?.connected) return false;
    // aedes keeps a client's subscriptions by topic (restored ones too); its types do not say so.
    const { subscriptions } = client as unknown as { subscriptions?: Record<string, unknown> };
    return deviceTopic(controllerId, COMMAND_CHANNEL) in (subscriptions ?? {});
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

  /** Stops listening and ends every connection (MQTT 5 devices get DISCONNECT 0x8B, "server shutting down"). */
  async close(): Promise<void> {
    clearInterval(this.revalidateTimer);
    // The server's callback waits for its connections, so it is awaited once they are closed.
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await new Promise<void>((resolve) => this.broker.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy(); // connections that never signed in
    await stopped;
  }

  private accept(socket: Socket) {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    // aedes closes a client silent for 1.5 × its keep-alive, but keep-alive 0 means never.
    socket.setTimeout((this.options.idleSeconds ?? DEFAULT_IDLE_SECONDS) * 1000);
    socket.once('timeout', () => {
      this.options.stats.idleDisconnects += 1;
      socket.destroy();
    });
    const client = this.broker.handle(socket) as Client & { _parser?: EventEmitter };
    // Must run before aedes sees the packet: aedes adds its own listener when it makes the client.
    if (typeof client._parser?.prependListener !== 'function') {
      this.options.log.error(
        'aedes has changed: its MQTT packet parser is not where it was; connection refused',
      );
      socket.destroy();
      return;
    }
    client._parser.prependListener('packet', defuse);
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
    // A client id such as `constructor` would crash aedes 2.0.0-beta.1 (see defuse); no device has one.
    if (!username || !password || username !== client.id || username in Object.prototype) return refuse();
    if (this.sockets.size > this.maxConnections) {
      // The broker is full: "try again later" (MQTT 5: 0x88 "server unavailable").
      this.options.stats.refusedConnections += 1;
      const full = new Error('Too many connections to the broker') as AuthenticateError;
      full.returnCode = SERVER_UNAVAILABLE;
      return done(full, false);
    }
    this.options.directory.byControllerId(username, password.toString('utf8')).then(
      (device) => {
        if (!device) return refuse();
        const release = this.options.limiter.openMqtt(device);
        if (!release) {
          // Too many connections with this credential: "try again later", as when the server is busy.
          const busy = new Error('Too many connections with this credential') as AuthenticateError;
          busy.returnCode = SERVER_UNAVAILABLE;
          return done(busy, false);
        }
        if (client.conn.destroyed) release();
        else client.conn.once('close', release);
        this.signedIn.set(client, device);
        done(null, true);
      },
      (error: unknown) => {
        this.options.log.error({ err: error }, 'MQTT authentication failed');
        const failure = new Error('Server unavailable') as AuthenticateError;
        failure.returnCode = SERVER_UNAVAILABLE;
        done(failure, false);
      },
    );
  }

  private authorizePublish(
    client: Client | null,
    packet: PublishPacket,
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
      // MQTT 5: aedes answers an error with PUBACK 0x87 (QoS 0: nothing), publishes nothing and
      // keeps the connection. MQTT 3.1.1 has no such answer (aedes would close the connection):
      // the message is acknowledged and sent where no one listens.
      if (client.version === 5) return done(new Error('Not authorized'));
      packet.topic = DROPPED_TOPIC;
      packet.retain = false;
      return done(null);
    }
    if (target.channel === STATUS_CHANNEL) return this.status(client, device, packet, done);
    packet.retain = false; // samples are stored, not kept by the broker
    ingestTelemetryMessage(device, packet.payload, this.options).then(
      (outcome) => {
        const refusal = client.version === 5 && packet.qos === 1 ? nothingStored(outcome) : undefined;
        if (refusal) return this.refusePublish(client, packet, refusal, done);
        done(null);
      },
      (error: unknown) => {
        if (error instanceof DeviceLimitError) return this.overLimit(client, packet, error, done);
        this.options.log.error({ err: error, device: device.id }, 'telemetry not stored');
        this.notCommitted(client, error, done);
      },
    );
  }

  private status(
    client: Client,
    device: GatewayDevice,
    packet: PublishPacket,
    done: (error?: Error | null) => void,
  ) {
    ingestStatusMessage(device, packet.payload, this.options.limiter, (status) =>
      this.options.saveStatus(device, status),
    ).then(
      (stored) => {
        if (!stored) this.options.stats.rejectedMessages += 1;
        done(null);
      },
      (error: unknown) => {
        if (error instanceof DeviceLimitError) return this.overLimit(client, packet, error, done);
        this.notCommitted(client, error, done);
      },
    );
  }

  /**
   * A message over the device's rate or day (docs/device-protocol.md, "Limits"), counted by the
   * limiter: at QoS 0 it is dropped; at QoS 1 it is not acknowledged — the connection is closed
   * (MQTT 5: DISCONNECT 0x96 "message rate too high", or 0x97 "quota exceeded" for the day), and
   * the device sends it again after reconnecting, later. Either after a pause of up to a second
   * (`refusalPauseMs`), during which the broker reads nothing more from that connection.
   */
  private overLimit(
    client: Client,
    packet: PublishPacket,
    error: DeviceLimitError,
    done: (error?: Error | null) => void,
  ) {
    setTimeout(() => {
      if (packet.qos === 0) {
        packet.topic = DROPPED_TOPIC;
        return done(null);
      }
      const reasonCode = error.reason === 'day' ? QUOTA_EXCEEDED : MESSAGE_RATE_TOO_HIGH;
      const reasonString = `Over the device's limit: send it again in ${error.retryAfterS} s`;
      this.refuseUnacknowledged(client, error, reasonCode, reasonString, done);
    }, refusalPauseMs(error));
  }

  /**
   * MQTT 5: a telemetry message of which no sample was stored is answered with a PUBACK that says
   * so (the message is done with: sending it again would not help). aedes answers an error from
   * `authorizePublish` only with 0x87 "not authorized", so the PUBACK is written here and aedes is
   * told, by the flag its own refusals set, not to acknowledge or publish the message again.
   */
  private refusePublish(
    client: Client,
    packet: PublishPacket,
    refusal: { reasonCode: number; reasonString: string },
    done: (error?: Error | null) => void,
  ) {
    const wantsReasons = (client as { _requestProblemInformation?: boolean })._requestProblemInformation;
    writeToStream(
      {
        cmd: 'puback',
        messageId: packet.messageId,
        reasonCode: refusal.reasonCode,
        ...(wantsReasons === false ? {} : { properties: { reasonString: refusal.reasonString } }),
      },
      client.conn,
      { protocolVersion: 5 },
    );
    (packet as PublishPacket & { _notAuthorized?: boolean })._notAuthorized = true;
    done(null);
  }

  /**
   * A message that was not committed gets no PUBACK: the connection closes and the device sends it
   * again (MQTT 5: DISCONNECT 0x89 when the pipeline is full, 0x8B when it is closing, else 0x80).
   */
  private notCommitted(client: Client, error: unknown, done: (error?: Error | null) => void) {
    const failure = error instanceof Error ? error : new Error(String(error));
    const reasonCode =
      failure instanceof PipelineBusyError
        ? SERVER_BUSY
        : failure instanceof PipelineClosedError
          ? SERVER_SHUTTING_DOWN
          : UNSPECIFIED_ERROR;
    this.refuseUnacknowledged(client, failure, reasonCode, 'Not stored: send it again', done);
  }

  /**
   * Ends the connection without the PUBACK: MQTT 3.1.1 has no other way to say "not taken" (aedes
   * closes the connection on the error); MQTT 5 gets DISCONNECT with `reasonCode` first, since
   * aedes would answer the error with a PUBACK 0x87, which tells the device the message is done with.
   */
  private refuseUnacknowledged(
    client: Client,
    failure: Error,
    reasonCode: number,
    reasonString: string,
    done: (error?: Error | null) => void,
  ) {
    if (client.version !== 5) return done(failure);
    client.disconnect({ reasonCode, properties: { reasonString } }, () => {
      client.conn.destroy(); // already closed, unless it was closing anyway
      done(failure);
    });
  }

  /** Closes the sessions of devices whose credential was rotated or that were deleted. */
  async revalidateNow(): Promise<void> {
    const connected = [...this.devices.values()];
    if (connected.length === 0) return;
    const valid = await this.options.directory.stillValid(connected.map((entry) => entry.device));
    for (const { client, device } of connected) {
      if (!valid.has(device.id)) {
        this.options.log.info({ device: device.id }, 'credential changed: MQTT session closed');
        client.disconnect({ reasonCode: NOT_AUTHORIZED }); // MQTT 3.1.1: the connection is closed
      }
    }
  }
}

/**
 * The failure an MQTT 5 PUBACK reports for a telemetry message of which nothing was stored, or
 * undefined when some of it was (a partial success is a success; docs/device-protocol.md):
 * 0x99 "payload format invalid" when it is not samples or none is a valid sample, 0x83
 * "implementation specific error" when every sample is valid but outside the time the server
 * takes (the device's clock is wrong, or it sent what is too old to keep).
 */
export function nothingStored(
  outcome: TelemetryMessageOutcome,
): { reasonCode: number; reasonString: string } | undefined {
  if ('notSamples' in outcome)
    return { reasonCode: PAYLOAD_FORMAT_INVALID, reasonString: outcome.notSamples.message };
  if (outcome.valid > 0) return undefined;
  if (outcome.rejected.length === 0)
    return { reasonCode: PAYLOAD_FORMAT_INVALID, reasonString: 'The message holds no sample.' };
  const count = (reason: string) => outcome.rejected.filter((sample) => sample.reason === reason).length;
  const inFuture = count('in_future');
  const tooOld = count('too_old');
  if (inFuture + tooOld === outcome.rejected.length) {
    const parts = [
      inFuture > 0
        ? `${inFuture} more than ${MAX_CLOCK_AHEAD_MS / 60_000} minutes ahead of the server's clock`
        : '',
      tooOld > 0 ? `${tooOld} older than the server keeps` : '',
    ].filter(Boolean);
    return {
      reasonCode: IMPLEMENTATION_SPECIFIC_ERROR,
      reasonString: `No sample stored: ${parts.join(', ')}. Check the device's clock.`,
    };
  }
  const first = outcome.rejected.find(
    (sample) => sample.reason !== 'in_future' && sample.reason !== 'too_old',
  );
  const why = first
    ? Object.entries(first.errors).map(([field, errors]) => `${field}: ${errors.join(' ')}`)
    : [];
  return {
    reasonCode: PAYLOAD_FORMAT_INVALID,
    reasonString:
      `No sample stored: ${outcome.rejected.length} invalid (sample ${first?.index ?? 0}: ${why.join('; ')})`.slice(
        0,
        300,
      ),
  };
}

/**
 * aedes 2.0.0-beta.1 keeps some of what arrives over the wire in plain objects
 * (GHSA-52qw-whmv-87c5, fixed in aedes 1.2.0, not in this beta): an UNSUBSCRIBE of `toString`,
 * or a SUBSCRIBE naming `__proto__` among other topics, throws inside aedes and takes the process
 * down. No device may use such a topic, so before aedes reads the packet they become topics
 * that are never granted (each its own, so aedes's de-duplication keeps one answer per topic).
 * Remove when aedes has the fix.
 */
function defuse(packet: {
  cmd: string;
  subscriptions?: Array<{ topic: string }>;
  unsubscriptions?: string[];
}) {
  if (packet.cmd === 'subscribe' && packet.subscriptions) {
    packet.subscriptions.forEach((subscription, index) => {
      if (subscription.topic in Object.prototype) subscription.topic = `${REFUSED_TOPIC}/${index}`;
    });
  } else if (packet.cmd === 'unsubscribe' && packet.unsubscriptions) {
    packet.unsubscriptions = packet.unsubscriptions.map((topic, index) =>
      topic in Object.prototype ? `${REFUSED_TOPIC}/${index}` : topic,
    );
  }
}
