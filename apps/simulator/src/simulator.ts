import { MAX_SAMPLES_PER_MESSAGE, type TelemetrySampleInput } from '@kontrol/contracts';
import { profileOf, type FleetOptions } from './fleet.js';
import { createDeviceModel, type DeviceModel } from './models.js';
import { hashText } from './random.js';
import {
  emptyCounters,
  silentLogger,
  type CommandHandler,
  type DeviceLink,
  type TransportCounters,
} from './transport.js';
import { RequestLimiter, createHttpLink } from './transport-http.js';
import { createMqttLink } from './transport-mqtt.js';

/**
 * Live simulation: every device produces a sample each `intervalMs` and sends it (in batches of
 * `batch`) over its own MQTT connection or over HTTP. One timer drives the whole fleet.
 */
export interface SimulatorOptions extends FleetOptions {
  transport: 'mqtt' | 'http';
  /** Broker URL for `transport: 'mqtt'`, e.g. `mqtt://localhost:1883`. */
  mqttUrl?: string;
  /** Kontrol's base URL for `transport: 'http'`, e.g. `http://localhost:3000`. */
  httpUrl?: string;
  /** 4 = MQTT 3.1.1 (default), 5 = MQTT 5. */
  mqttVersion?: 4 | 5;
  /** Time between two samples of a device. Default 10 000. */
  intervalMs?: number;
  /** Samples per message or request. Default 1. */
  batch?: number;
  /** How often the timer looks for due samples. Default min(1 000, intervalMs). */
  tickMs?: number;
  /** New MQTT connections per second, so a big fleet does not knock on the broker all at once. Default 500. */
  connectPerSecond?: number;
  /** Most samples a device keeps while it cannot send. Default 10 000. */
  maxBuffered?: number;
  /** HTTP requests at once across the fleet. Default 64. */
  maxConcurrentRequests?: number;
  /** Pause between MQTT reconnect attempts; default a random 1–5 s per device. */
  reconnectPeriodMs?: number;
  /** How long stop() waits for what is in flight. Default 5 000. */
  stopTimeoutMs?: number;
  /**
   * Called with every command a device receives on its `cmd` topic. For now the simulator only
   * logs commands; recipe deployment will hook in here.
   */
  onCommand?: CommandHandler;
}

export interface SimulatorStats extends TransportCounters {
  transport: 'mqtt' | 'http';
  devices: number;
  /** MQTT: connected to the broker; HTTP: last request did not fail. */
  connected: number;
  /** Devices stopped because their credential was refused. */
  unauthorized: number;
  /** Samples the models produced (an offline spell produces none). */
  generated: number;
  /** Produced and waiting for their batch to fill. */
  pending: number;
  /** Commands received. */
  commands: number;
}

export interface Simulator {
  /** Sends what is pending, waits a little for acknowledgements, closes every connection. */
  stop(): Promise<void>;
  stats(): SimulatorStats;
}

interface RunningDevice {
  model: DeviceModel;
  link: DeviceLink;
  /** Time of the device's next sample. */
  nextTs: number;
  pending: TelemetrySampleInput[];
}

export function startSimulator(options: SimulatorOptions): Simulator {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const intervalMs = options.intervalMs ?? 10_000;
  const batch = options.batch ?? 1;
  const tickMs = options.tickMs ?? Math.min(1000, intervalMs);
  const connectPerSecond = options.connectPerSecond ?? 500;
  if (!(intervalMs >= 1)) throw new Error('intervalMs must be at least 1');
  if (!(Number.isInteger(batch) && batch >= 1 && batch <= MAX_SAMPLES_PER_MESSAGE)) {
    throw new Error(`batch must be an integer from 1 to ${MAX_SAMPLES_PER_MESSAGE}`);
  }
  const { mqttUrl, httpUrl } = options;
  if (options.transport === 'mqtt' && !mqttUrl) throw new Error('mqttUrl is required for the MQTT transport');
  if (options.transport === 'http' && !httpUrl) throw new Error('httpUrl is required for the HTTP transport');

  const limiter = new RequestLimiter(options.maxConcurrentRequests ?? 64);
  const startedAt = now();
  const devices: RunningDevice[] = options.devices.map((device) => {
    const model = createDeviceModel(profileOf(device, options));
    const common = {
      controllerId: device.controllerId,
      credential: device.credential,
      maxBuffered: options.maxBuffered,
      logger,
    };
    const link =
      options.transport === 'mqtt'
        ? createMqttLink({
            ...common,
            url: mqttUrl as string,
            protocolVersion: options.mqttVersion,
            reconnectPeriodMs: options.reconnectPeriodMs,
            onCommand: options.onCommand,
            now,
          })
        : createHttpLink({
            ...common,
            baseUrl: httpUrl as string,
            limiter,
            maxPerRequest: Math.max(1000, batch),
          });
    // Each device samples on its own grid, shifted by a phase from its id: a fleet spreads over the
    // interval instead of sending all at once, and the timestamps are the same on every run.
    const phase = hashText(device.controllerId) % intervalMs;
    let nextTs = Math.floor((startedAt - phase) / intervalMs) * intervalMs + phase;
    if (nextTs < startedAt) nextTs += intervalMs;
    return { model, link, nextTs, pending: [] };
  });

  let generated = 0;
  let connectedSoFar = 0;
  const connectPerTick = Math.max(1, Math.ceil((connectPerSecond * tickMs) / 1000));

  function tick(): void {
    for (let opened = 0; opened < connectPerTick && connectedSoFar < devices.length; opened++) {
      devices[connectedSoFar]!.link.start();
      connectedSoFar += 1;
    }
    const t = now();
    for (const device of devices) {
      if (device.link.unauthorized) continue; // stopped for good: produces nothing more
      while (device.nextTs <= t) {
        const sample = device.model.sampleAt(device.nextTs);
        device.nextTs += intervalMs;
        if (!sample) continue; // an offline spell
        generated += 1;
        device.pending.push(sample);
        if (device.pending.length >= batch) {
          device.link.send(device.pending);
          device.pending = [];
        }
      }
    }
  }

  tick();
  const timer = setInterval(tick, tickMs);
  let stopped: Promise<void> | undefined;

  return {
    stats() {
      const total = emptyCounters();
      let connected = 0;
      let unauthorized = 0;
      let pending = 0;
      let commands = 0;
      for (const device of devices) {
        const counters = device.link.counters();
        for (const key of Object.keys(total) as Array<keyof TransportCounters>) total[key] += counters[key];
        if (device.link.connected) connected += 1;
        if (device.link.unauthorized) unauthorized += 1;
        pending += device.pending.length;
        commands += device.link.commands;
      }
      return {
        transport: options.transport,
        devices: devices.length,
        connected,
        unauthorized,
        generated,
        pending,
        commands,
        ...total,
      };
    },

    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        for (const device of devices) {
          if (device.pending.length > 0) device.link.send(device.pending);
          device.pending = [];
        }
        await Promise.all(devices.map((device) => device.link.stop(options.stopTimeoutMs)));
      })();
      return stopped;
    },
  };
}
