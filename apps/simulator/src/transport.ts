import type { TelemetrySampleInput } from '@kontrol/contracts';

/** Where the simulator writes what happens; the CLI prints it, tests and libraries may pass nothing. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Counters of one device's link, in samples (not messages or requests). */
export interface TransportCounters {
  /** Handed to the network for the first time (re-sends are not counted again). */
  sent: number;
  /** Confirmed by the other side: MQTT PUBACK, or HTTP 202 (accepted or duplicate). */
  acknowledged: number;
  /** Refused for good by the server (HTTP 422 or a sample listed in `rejected`, MQTT 5 PUBACK error). */
  rejected: number;
  /** Failed attempts: connection errors, network errors, 5xx answers (each retried). */
  errors: number;
  /** Waiting in the device's buffer to be sent (while disconnected, or between retries). */
  buffered: number;
  /** Sent and not yet acknowledged. */
  inFlight: number;
  /** Thrown away: the oldest samples when the buffer was full, or what was left at stop. */
  dropped: number;
}

export function emptyCounters(): TransportCounters {
  return { sent: 0, acknowledged: 0, rejected: 0, errors: 0, buffered: 0, inFlight: 0, dropped: 0 };
}

/** A command the server sent to a device on `kontrol/v1/<controller_id>/cmd`. */
export type CommandHandler = (controllerId: string, command: unknown) => void;

/** One simulated device's link to Kontrol, whichever protocol carries it. */
export interface DeviceLink {
  readonly controllerId: string;
  /** Opens the connection (MQTT); HTTP has nothing to open. */
  start(): void;
  /** Queues samples as one message; never throws, never blocks (the buffer is bounded). */
  send(samples: TelemetrySampleInput[]): void;
  counters(): TransportCounters;
  /** Connected to the broker (MQTT), or not failing (HTTP). */
  readonly connected: boolean;
  /** The server refused the credential: the device stopped and sends nothing more. */
  readonly unauthorized: boolean;
  /** Commands received. */
  readonly commands: number;
  /** Waits up to `timeoutMs` for what is in flight, then closes; the rest counts as dropped. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Default bound of a device's buffer: about 28 hours of samples at a 10 s interval. */
export const DEFAULT_MAX_BUFFERED = 10_000;

export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Whether `promise` settled within `ms`; the timer does not outlive it (no process kept alive). */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Exponential backoff with ±20 % jitter, so a thousand devices do not retry in step. */
export function backoffMs(attempt: number, initialMs: number, maxMs: number): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
