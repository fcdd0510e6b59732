import { utcDay, type DeviceLimitReason, type DeviceLimitSettings } from '@kontrol/contracts';
import type { GatewayDevice } from '../devices/device-directory.js';

const DAY_MS = 86_400_000;
/** A device neither sending nor connected for this long, its bucket full again, is forgotten. */
const IDLE_FORGET_MS = 10 * 60_000;
/** A device's taken samples are written at least this often, so its day's count is never far behind. */
export const FLUSH_AFTER_MS = 5 * 60_000;

/** How long a credential refused over its device's limits is answered without looking it up again. */
export const REMEMBER_REFUSED_MS = 15_000;

/** The longest pause before a refusal over the rate or the day is answered. */
export const REFUSAL_PAUSE_MS = 1_000;

/**
 * How long the answer to a refusal waits: over the rate or the day, until the device may send
 * again, at most a second; none for connections and messages in flight (they free up at once).
 * A device that ignores `Retry-After` then cannot make a connection refuse it more than once a
 * second: the answer to an HTTP request, and the MQTT connection's next read, wait for it.
 */
export function refusalPauseMs(error: DeviceLimitError): number {
  return error.reason === 'rate' || error.reason === 'day'
    ? Math.min(REFUSAL_PAUSE_MS, error.retryAfterS * 1000)
    : 0;
}

/**
 * A device's message or connection over one of its limits; `retryAfterS` is when to try again.
 * A flood makes thousands a second: they carry no stack trace, which would cost more than the rest.
 */
export class DeviceLimitError extends Error {
  readonly reason: DeviceLimitReason;
  readonly retryAfterS: number;

  constructor(reason: DeviceLimitReason, retryAfterS: number) {
    const depth = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`device limit: ${reason}`);
    Error.stackTraceLimit = depth;
    this.name = 'DeviceLimitError';
    this.reason = reason;
    this.retryAfterS = retryAfterS;
  }
}

/** What one process counted for a device and a UTC day since it last wrote it to the database. */
export interface DayDelta {
  deviceId: number;
  organisationId: number;
  day: string;
  samples: number;
  refused: number;
  lastRefusedTs: number | null;
  lastReason: DeviceLimitReason | null;
}

interface DeviceState {
  organisationId: number;
  /** HTTP requests in progress (each holds a connection and is a message in flight). */
  http: number;
  /** MQTT connections signed in (the embedded broker keeps one per controller id). */
  mqtt: number;
  /** Messages being stored (MQTT and HTTP). */
  inFlight: number;
  /** MQTT messages waiting for an in-flight slot, in arrival order. */
  waiting: Array<() => void>;
  /** The token bucket: samples it may send now, and when that was worked out. */
  tokens: number;
  refilledAt: number;
  /**
   * The samples of the device's last message refused for its rate (0 once one passes): a device
   * sends the same message again, so until the bucket holds that many its messages are refused
   * before they are read.
   */
  owed: number;
  /** The UTC day counted, and its samples: written to the database (as last read back) and not yet. */
  day: string;
  dayStored: number;
  /** Whether `dayStored` has been read from the database for `day` (until then it counts as 0). */
  dayKnown: boolean;
  /** Samples of `day` handed to a write that has not answered yet. */
  dayWriting: number;
  /** Not yet written, by UTC day (usually one). */
  pending: Map<string, Omit<DayDelta, 'deviceId' | 'organisationId' | 'day'> & { since: number }>;
  lastSeen: number;
}

/**
 * The per-device limits of one gateway process (docs/device-protocol.md, "Limits"), in memory so
 * that the ingest path costs no database round trip:
 * - connections per credential and messages in flight: counted in this process;
 * - samples per second: a token bucket per device in this process, from which what the device sent
 *   through other processes is taken off whenever this process writes its counts;
 * - samples per day: the database's count (`device_ingest_days`, shared by every process) plus what
 *   this process took since it last wrote; written in steps (see {@link DeviceLimiter.dueDeltas}).
 * A refusal is counted for the device's day, and the organisation told once a day (limit-store.ts).
 */
export class DeviceLimiter {
  private readonly devices = new Map<number, DeviceState>();
  /** Credentials (their hash) refused over their device's limits lately, with the device and when. */
  private readonly refusedCredentials = new Map<string, { device: GatewayDevice; at: number }>();
  /** Samples a device's unwritten count may reach before it is written: 1 % of the daily limit. */
  readonly flushStep: number;

  constructor(
    readonly settings: DeviceLimitSettings,
    private readonly onRefused: (reason: DeviceLimitReason) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.flushStep = Math.max(1, Math.ceil(settings.samplesPerDay / 100));
  }

  /**
   * An MQTT connection signed in as the device; undefined (and counted) when the credential
   * already holds as many connections as it may. The returned function ends it (call it once).
   */
  openMqtt(device: GatewayDevice): (() => void) | undefined {
    const state = this.state(device);
    // One MQTT connection per controller id (a new one takes the old one's place), so it counts once.
    if (state.http + 1 > this.settings.maxConnections) {
      this.refuse(state, 'connections');
      return undefined;
    }
    state.mqtt += 1;
    return once(() => {
      state.mqtt -= 1;
      state.lastSeen = this.now();
    });
  }

  /**
   * An HTTP request of the device, before its body is read: a connection and a message in flight
   * of its own, refused when either limit is reached, or when it would be refused anyway (see
   * {@link precheck}); the body is then never read. The returned function ends it (call it once).
   */
  openHttp(device: GatewayDevice): () => void {
    const state = this.state(device);
    this.checkHttp(state);
    state.http += 1;
    state.inFlight += 1;
    return once(() => {
      state.http -= 1;
      this.endMessage(state);
    });
  }

  /**
   * An MQTT message of the device: waits while the device has as many messages in flight as it
   * may (the broker reads nothing more from that connection meanwhile). Resolves with the function
   * that ends it (call it once).
   */
  async openMqttMessage(device: GatewayDevice): Promise<() => void> {
    const state = this.state(device);
    if (state.inFlight >= this.settings.maxInFlight) {
      this.onRefused('in_flight'); // held back, not refused: counted, not told
      await new Promise<void>((resolve) => state.waiting.push(resolve));
    }
    state.inFlight += 1;
    return once(() => this.endMessage(state));
  }

  /**
   * An HTTP request carrying a credential refused over its device's limits in the last 15 s:
   * refused again at once when the device is still over them, with no database lookup (a flood's
   * requests cost next to nothing; a credential rotated meanwhile gets this 429 instead of a 401
   * for those seconds, and nothing is stored either way). Undefined when the credential is not
   * known here, or its device is no longer over its limits: look it up as usual.
   */
  refusedAgain(credentialHash: string): DeviceLimitError | undefined {
    const known = this.refusedCredentials.get(credentialHash);
    if (!known) return undefined;
    if (this.now() - known.at >= REMEMBER_REFUSED_MS) {
      this.refusedCredentials.delete(credentialHash);
      return undefined;
    }
    try {
      this.checkHttp(this.state(known.device));
    } catch (error) {
      if (error instanceof DeviceLimitError) return error;
      throw error;
    }
    return undefined;
  }

  /** Remembers a credential whose request was just refused over its device's limits (see {@link refusedAgain}). */
  rememberRefused(credentialHash: string, device: GatewayDevice): void {
    this.refusedCredentials.set(credentialHash, { device, at: this.now() });
  }

  /**
   * Refuses a message before it is read when its device's day is used up, its bucket is empty, or
   * its bucket does not hold yet the message last refused for the rate (the device sends it again):
   * a flood then costs no parsing.
   */
  precheck(device: GatewayDevice): void {
    const state = this.state(device);
    this.check(state, Math.max(1, state.owed));
  }

  /**
   * Takes `count` samples of a message from the device's bucket and day, or refuses the whole
   * message (nothing taken). A message larger than the bucket passes when the bucket is full.
   */
  take(device: GatewayDevice, count: number): void {
    const state = this.state(device);
    try {
      this.check(state, count);
    } catch (error) {
      if (error instanceof DeviceLimitError && error.reason === 'rate')
        state.owed = Math.min(count, this.settings.burstSamples);
      throw error;
    }
    state.owed = 0;
    state.tokens -= count;
    this.pendingOf(state, state.day).samples += count;
  }

  /** A packet over the size limit from a signed-in device: counted and told, like any refusal. */
  packetTooLarge(device: GatewayDevice): void {
    this.refuse(this.state(device), 'packet_size');
  }

  /**
   * The counts due to be written: refusals at once, samples once a step is reached or after five
   * minutes, and whatever belongs to a day that has ended; everything with `all` (shutdown). They
   * are taken out of memory: give them back with {@link restore} when the write fails, and the
   * database's answer to {@link stored}.
   */
  dueDeltas(all = false): DayDelta[] {
    const now = this.now();
    const today = utcDay(now);
    const due: DayDelta[] = [];
    for (const [deviceId, state] of this.devices) {
      for (const [day, delta] of state.pending) {
        const ripe =
          all ||
          day !== today ||
          delta.refused > 0 ||
          delta.samples >= this.flushStep ||
          now - delta.since >= FLUSH_AFTER_MS;
        if (!ripe || (delta.samples === 0 && delta.refused === 0)) continue;
        state.pending.delete(day);
        if (day === state.day) state.dayWriting += delta.samples;
        due.push({ deviceId, organisationId: state.organisationId, day, ...withoutSince(delta) });
      }
      const refilled = state.tokens + ((now - state.refilledAt) / 1000) * this.settings.samplesPerSecond;
      if (
        !all &&
        state.pending.size === 0 &&
        state.dayWriting === 0 &&
        state.http === 0 &&
        state.mqtt === 0 &&
        state.inFlight === 0 &&
        refilled >= this.settings.burstSamples &&
        now - state.lastSeen >= IDLE_FORGET_MS
      )
        this.devices.delete(deviceId);
    }
    for (const [hash, known] of this.refusedCredentials)
      if (now - known.at >= REMEMBER_REFUSED_MS) this.refusedCredentials.delete(hash);
    return due.sort((a, b) => a.deviceId - b.deviceId || a.day.localeCompare(b.day));
  }

  /** Deltas whose write failed, back into memory to be written next time. */
  restore(deltas: readonly DayDelta[]): void {
    for (const delta of deltas) {
      const state = this.devices.get(delta.deviceId);
      if (!state) continue;
      if (delta.day === state.day) state.dayWriting = Math.max(0, state.dayWriting - delta.samples);
      const pending = this.pendingOf(state, delta.day);
      pending.samples += delta.samples;
      pending.refused += delta.refused;
      if (delta.lastRefusedTs !== null && delta.lastRefusedTs >= (pending.lastRefusedTs ?? 0)) {
        pending.lastRefusedTs = delta.lastRefusedTs;
        pending.lastReason = delta.lastReason;
      }
    }
  }

  /**
   * The database's count of a device's day after this process wrote `written` samples of it (0 when
   * it only read it). What other processes took meanwhile is taken off this process's bucket too,
   * so several processes together hold the device close to its rate.
   */
  stored(deviceId: number, day: string, total: number, written: number): void {
    const state = this.devices.get(deviceId);
    if (!state || state.day !== day) return;
    const others = state.dayKnown ? total - state.dayStored - written : 0;
    if (others > 0) state.tokens -= others;
    state.dayWriting = Math.max(0, state.dayWriting - written);
    state.dayStored = total;
    state.dayKnown = true;
  }

  /** Devices whose count of today has not been read from the database yet (read once, in a batch). */
  unknownDays(): Array<{ deviceId: number; day: string }> {
    const unknown = [];
    for (const [deviceId, state] of this.devices)
      if (!state.dayKnown) unknown.push({ deviceId, day: state.day });
    return unknown;
  }

  /** An HTTP request's checks before its body is read; throws the refusal. */
  private checkHttp(state: DeviceState): void {
    const connections = state.http + Math.min(state.mqtt, 1);
    if (connections + 1 > this.settings.maxConnections) throw this.refuse(state, 'connections');
    if (state.inFlight + 1 > this.settings.maxInFlight) throw this.refuse(state, 'in_flight');
    this.check(state, Math.max(1, state.owed));
  }

  /** Whether the device may send a message of `count` samples now; throws the refusal otherwise. */
  private check(state: DeviceState, count: number): void {
    const { samplesPerDay, samplesPerSecond, burstSamples } = this.settings;
    const now = this.now();
    const takenToday = state.dayStored + state.dayWriting + (state.pending.get(state.day)?.samples ?? 0);
    if (takenToday + count > samplesPerDay) {
      const nextDay = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
      throw this.refuse(state, 'day', Math.ceil((nextDay - now) / 1000));
    }
    const needed = Math.min(count, burstSamples);
    if (state.tokens < needed)
      throw this.refuse(state, 'rate', Math.ceil((needed - state.tokens) / samplesPerSecond));
  }

  /** Counts a refusal for the device's day; returns the error to answer with. */
  private refuse(state: DeviceState, reason: DeviceLimitReason, retryAfterS = 1): DeviceLimitError {
    this.onRefused(reason);
    const pending = this.pendingOf(state, state.day);
    pending.refused += 1;
    pending.lastRefusedTs = this.now();
    pending.lastReason = reason;
    return new DeviceLimitError(reason, Math.max(1, retryAfterS));
  }

  private endMessage(state: DeviceState) {
    state.inFlight -= 1;
    state.lastSeen = this.now();
    state.waiting.shift()?.();
  }

  /** The device's state, its bucket refilled and its day moved on to now. */
  private state(device: GatewayDevice): DeviceState {
    const now = this.now();
    const today = utcDay(now);
    let state = this.devices.get(device.id);
    if (!state) {
      state = {
        organisationId: device.organisationId,
        http: 0,
        mqtt: 0,
        inFlight: 0,
        waiting: [],
        tokens: this.settings.burstSamples,
        refilledAt: now,
        owed: 0,
        day: today,
        dayStored: 0,
        dayKnown: false,
        dayWriting: 0,
        pending: new Map(),
        lastSeen: now,
      };
      this.devices.set(device.id, state);
    }
    const { burstSamples, samplesPerSecond } = this.settings;
    state.tokens = Math.min(
      burstSamples,
      state.tokens + ((now - state.refilledAt) / 1000) * samplesPerSecond,
    );
    state.refilledAt = now;
    if (state.day !== today) {
      state.day = today;
      state.dayStored = 0;
      state.dayWriting = 0;
      state.dayKnown = false;
    }
    state.lastSeen = now;
    return state;
  }

  private pendingOf(state: DeviceState, day: string) {
    let pending = state.pending.get(day);
    if (!pending) {
      pending = { samples: 0, refused: 0, lastRefusedTs: null, lastReason: null, since: this.now() };
      state.pending.set(day, pending);
    }
    return pending;
  }
}

function withoutSince<T extends { since: number }>(delta: T): Omit<T, 'since'> {
  const rest: Partial<T> = { ...delta };
  delete rest.since;
  return rest as Omit<T, 'since'>;
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
