import { MAX_SAMPLES_PER_MESSAGE, type TelemetrySampleInput } from '@kontrol/contracts';
import { profileOf, type FleetOptions } from './fleet.js';
import { createDeviceModel, type DeviceModel } from './models.js';
import {
  createProgramDevice,
  isProgramsCommand,
  type ProgramCounters,
  type ProgramDevice,
} from './programs.js';
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
  /**
   * Kontrol's base URL, e.g. `http://localhost:3000`: where samples go with `transport: 'http'`,
   * and where devices on MQTT download the recipe programs their commands name (without it they
   * ignore `programs` commands).
   */
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
   * Called with every command a device receives on its `cmd` topic (after a `programs` command
   * was handed to the device's recipe storage, when there is an `httpUrl`).
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
  /** Recipe programs (devices on MQTT with an `httpUrl`): stored, corrupted, removed, failed. */
  programs: ProgramCounters;
}

export interface Simulator {
  /** Sends what is pending, waits a little for acknowledgements, closes every connection. */
  stop(): Promise<void>;
  stats(): SimulatorStats;
  /** The recipe program files a device holds (name → bytes as stored); empty without programs. */
  programFiles(controllerId: string): ReadonlyMap<string, Buffer>;
  /** Changes the program failure rate of the given devices (all when none are named), from the next file on. */
  setProgramFailureRate(rate: number, controllerIds?: readonly string[]): void;
  /** Resolves when the devices have done every `programs` command received so far. */
  programsIdle(): Promise<void>;
}

interface RunningDevice {
  controllerId: string;
  model: DeviceModel;
  link: DeviceLink;
  programs: ProgramDevice | undefined;
  /** Its program failure rate, changeable while it runs. */
  programFailure: { rate: number };
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
  const programFailureRate = checkedRate(options.programFailureRate ?? 0);
  const devices: RunningDevice[] = options.devices.map((device) => {
    const model = createDeviceModel(profileOf(device, options));
    const common = {
      controllerId: device.controllerId,
      credential: device.credential,
      maxBuffered: options.maxBuffered,
      logger,
    };
    const programFailure = { rate: checkedRate(device.programFailureRate ?? programFailureRate) };
    const programs =
      options.transport === 'mqtt' && httpUrl
        ? createProgramDevice({
            controllerId: device.controllerId,
            credential: device.credential,
            baseUrl: httpUrl,
            seed: device.seed ?? options.seed,
            failureRate: () => programFailure.rate,
            logger,
          })
        : undefined;
    const onCommand: CommandHandler = (controllerId, command) => {
      if (isProgramsCommand(command)) programs?.handle(command);
      options.onCommand?.(controllerId, command);
    };
    const link =
      options.transport === 'mqtt'
        ? createMqttLink({
            ...common,
            url: mqttUrl as string,
            protocolVersion: options.mqttVersion,
            reconnectPeriodMs: options.reconnectPeriodMs,
            onCommand,
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
    return { controllerId: device.controllerId, model, link, programs, programFailure, nextTs, pending: [] };
  });
  const byController = new Map(devices.map((device) => [device.controllerId, device]));

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
      const programs: ProgramCounters = { commands: 0, stored: 0, corrupted: 0, removed: 0, failures: 0 };
      for (const device of devices) {
        const counted = device.programs?.counters();
        if (counted)
          for (const key of Object.keys(programs) as Array<keyof ProgramCounters>)
            programs[key] += counted[key];
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
        programs,
        ...total,
      };
    },

    programFiles(controllerId) {
      return byController.get(controllerId)?.programs?.files() ?? new Map<string, Buffer>();
    },

    setProgramFailureRate(rate, controllerIds) {
      const checked = checkedRate(rate);
      for (const device of controllerIds ? controllerIds.map((id) => byController.get(id)) : devices) {
        if (!device) throw new Error('setProgramFailureRate: no such device');
        device.programFailure.rate = checked;
      }
    },

    async programsIdle() {
      await Promise.all(devices.map((device) => device.programs?.idle() ?? Promise.resolve()));
    },

    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        for (const device of devices) {
          if (device.pending.length > 0) device.link.send(device.pending);
          device.pending = [];
        }
        await Promise.all(devices.map((device) => device.programs?.stop() ?? Promise.resolve()));
        await Promise.all(devices.map((device) => device.link.stop(options.stopTimeoutMs)));
      })();
      return stopped;
    },
  };
}

function checkedRate(rate: number): number {
  if (!(rate >= 0 && rate <= 1)) throw new Error('programFailureRate must be from 0 to 1');
  return rate;
}
