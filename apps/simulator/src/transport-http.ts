import {
  INGEST_HTTP_PATH,
  ingestResultSchema,
  type RejectedSample,
  type TelemetrySampleInput,
} from '@kontrol/contracts';
import {
  DEFAULT_MAX_BUFFERED,
  backoffMs,
  delay,
  emptyCounters,
  settlesWithin,
  silentLogger,
  type DeviceLink,
  type Logger,
} from './transport.js';

/**
 * Devices on HTTP: `POST <base>/api/ingest/v1/telemetry` with the device's credential as a bearer
 * token. 202 stores, 401 means a bad credential (the device stops), 422 refuses every sample,
 * 5xx and network errors are retried with backoff with the very same samples (the server
 * deduplicates by device and timestamp, so a retry after a lost answer stores nothing twice).
 */
export const INGEST_PATH = INGEST_HTTP_PATH;

/** What one request came to. */
export type PostOutcome =
  | { kind: 'stored'; accepted: number; duplicates: number; rejected: RejectedSample[] }
  | { kind: 'unauthorized' }
  /** 422 or another 4xx: sending these samples again cannot help. */
  | { kind: 'refused'; status: number; detail: string }
  /** 5xx, 429 or a network error: try again later with the same samples. */
  | { kind: 'retry'; detail: string };

/** The ingest URL of a Kontrol base URL (`http://localhost:3000` or `…/` both work). */
export function ingestUrl(baseUrl: string): string {
  return new URL(INGEST_PATH, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
}

/** One request; never throws. */
export async function postSamples(
  url: string,
  credential: string,
  samples: TelemetrySampleInput[],
  signal?: AbortSignal,
  timeoutMs = 30_000,
): Promise<PostOutcome> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
      body: JSON.stringify(samples.length === 1 ? samples[0] : samples),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    return { kind: 'retry', detail: error instanceof Error ? error.message : String(error) };
  }
  const text = await response.text().catch(() => '');
  if (response.status === 202 || response.status === 200) {
    const parsed = ingestResultSchema.safeParse(safeJson(text));
    // A 202 without the expected body still means stored.
    if (!parsed.success) return { kind: 'stored', accepted: samples.length, duplicates: 0, rejected: [] };
    return { kind: 'stored', ...parsed.data.data };
  }
  if (response.status === 401) return { kind: 'unauthorized' };
  if (response.status === 429 || response.status >= 500) {
    return { kind: 'retry', detail: `HTTP ${response.status}` };
  }
  return { kind: 'refused', status: response.status, detail: text.slice(0, 300) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** At most `limit` requests at once across many devices (a fleet of 10 000 must not open 10 000 sockets). */
export class RequestLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

export interface HttpLinkOptions {
  /** Kontrol's base URL, e.g. `http://localhost:3000`. */
  baseUrl: string;
  controllerId: string;
  credential: string;
  /** Most samples kept waiting. Default 10 000. */
  maxBuffered?: number;
  /** Most samples in one request when catching up after an outage. Default 1 000. */
  maxPerRequest?: number;
  /** Shared by the devices of one simulator. Default: a limiter of 32 for this device alone. */
  limiter?: RequestLimiter;
  retryInitialMs?: number;
  retryMaxMs?: number;
  logger?: Logger;
}

export function createHttpLink(options: HttpLinkOptions): DeviceLink {
  const { controllerId } = options;
  const logger = options.logger ?? silentLogger;
  const url = ingestUrl(options.baseUrl);
  const maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
  const maxPerRequest = options.maxPerRequest ?? 1000;
  const limiter = options.limiter ?? new RequestLimiter(32);
  const retryInitialMs = options.retryInitialMs ?? 1000;
  const retryMaxMs = options.retryMaxMs ?? 60_000;

  const counters = emptyCounters();
  /** Samples waiting, oldest first; the ones in the current request are no longer here. */
  let queue: TelemetrySampleInput[] = [];
  let sending = false;
  let failing = false;
  let unauthorized = false;
  let stopping = false;
  /** Aborts a request or a backoff wait when the link is stopped for good. */
  const abort = new AbortController();
  let idle: Promise<void> = Promise.resolve();

  /** Sends the queue, one request at a time, so a device's samples arrive in order. */
  async function pump(): Promise<void> {
    while (queue.length > 0 && !unauthorized && !abort.signal.aborted) {
      const samples = queue.splice(0, maxPerRequest);
      counters.buffered -= samples.length;
      counters.sent += samples.length;
      counters.inFlight += samples.length;
      let attempt = 0;
      for (;;) {
        attempt += 1;
        const outcome = await limiter.run(() => postSamples(url, options.credential, samples, abort.signal));
        if (outcome.kind !== 'retry') {
          if (failing) logger.info(`${controllerId}: delivering again`);
          failing = false;
          settle(samples.length, outcome);
          break;
        }
        counters.errors += 1;
        if (abort.signal.aborted) {
          counters.inFlight -= samples.length;
          counters.dropped += samples.length;
          return;
        }
        if (!failing) logger.warn(`${controllerId}: ${outcome.detail}; retrying`);
        failing = true;
        await delay(backoffMs(attempt, retryInitialMs, retryMaxMs), abort.signal);
      }
    }
  }

  function settle(count: number, outcome: Exclude<PostOutcome, { kind: 'retry' }>): void {
    counters.inFlight -= count;
    switch (outcome.kind) {
      case 'stored':
        counters.acknowledged += outcome.accepted + outcome.duplicates;
        counters.rejected += outcome.rejected.length;
        if (outcome.rejected.length > 0) {
          const first = outcome.rejected[0] as RejectedSample;
          logger.warn(
            `${controllerId}: ${outcome.rejected.length} sample(s) rejected, e.g. #${first.index} ${first.reason} ${JSON.stringify(first.errors)}`,
          );
        }
        break;
      case 'unauthorized':
        unauthorized = true;
        counters.dropped += count + counters.buffered;
        counters.buffered = 0;
        queue = [];
        logger.error(`${controllerId}: the server refused the credential (401); device stopped`);
        break;
      case 'refused':
        counters.rejected += count;
        logger.warn(`${controllerId}: HTTP ${outcome.status}, ${count} sample(s) refused: ${outcome.detail}`);
        break;
    }
  }

  function kick(): void {
    if (sending) return;
    sending = true;
    idle = pump().finally(() => {
      sending = false;
    });
  }

  return {
    controllerId,
    get connected() {
      return !failing && !unauthorized;
    },
    get unauthorized() {
      return unauthorized;
    },
    commands: 0,

    start() {},

    send(samples) {
      if (samples.length === 0) return;
      if (stopping || unauthorized) {
        counters.dropped += samples.length;
        return;
      }
      queue.push(...samples);
      counters.buffered += samples.length;
      if (queue.length > maxBuffered) {
        const excess = queue.length - maxBuffered;
        queue.splice(0, excess);
        counters.buffered -= excess;
        counters.dropped += excess;
      }
      kick();
    },

    counters() {
      return { ...counters };
    },

    async stop(timeoutMs = 5000) {
      if (stopping) return;
      stopping = true;
      // Delivers what is queued if the server answers in time; otherwise gives up on it.
      const finished = await settlesWithin(idle, timeoutMs);
      if (!finished || queue.length > 0) {
        abort.abort();
        await idle;
      }
      counters.dropped += counters.buffered;
      counters.buffered = 0;
      queue = [];
    },
  };
}
