import { MAX_SAMPLES_PER_MESSAGE, type TelemetrySampleInput } from '@kontrol/contracts';
import { profileOf, type FleetOptions, type SimulatedDevice } from './fleet.js';
import { createDeviceModel, deviceSamples } from './models.js';
import { DAY_MS } from './time-zone.js';
import { backoffMs, delay, silentLogger } from './transport.js';
import { ingestUrl, postSamples } from './transport-http.js';

/**
 * History for a fleet: every sample of the last `days` days, sent over HTTP in big requests, a few
 * at a time. The demo runs it on first start so the charts have two weeks to show. The samples
 * sit on the interval's grid, so running it twice stores nothing twice (the server deduplicates
 * by device and timestamp).
 */
export interface BackfillOptions extends FleetOptions {
  /** Kontrol's base URL, e.g. `http://localhost:3000`. */
  httpUrl: string;
  days: number;
  /** Default 60 000 (one sample a minute). */
  intervalMs?: number;
  /** Samples per request. Default 5 000, at most MAX_SAMPLES_PER_MESSAGE. */
  batch?: number;
  /** Requests at once. Default 4. */
  concurrency?: number;
  /** Attempts of one request (5xx, network errors) before the back-fill fails. Default 10. */
  maxAttempts?: number;
  /** First pause between attempts; doubles up to 30 s. Default 500 ms. */
  retryInitialMs?: number;
  /** Stops the back-fill (it then rejects). */
  signal?: AbortSignal;
  /** Called after each request with the totals so far. */
  onProgress?: (progress: BackfillResult) => void;
}

export interface BackfillResult {
  devices: number;
  /** Samples sent (each once, however many attempts it took). */
  samples: number;
  accepted: number;
  duplicates: number;
  /** Samples the server refused (listed in `rejected`, or a 422). */
  rejected: number;
  requests: number;
  /** Attempts that failed and were repeated. */
  retries: number;
  /** Devices whose credential the server refused (401): the rest of their history was skipped. */
  unauthorized: string[];
}

/** Resolves when every sample has been answered by a 202 (or refused for good); rejects when the server stays away. */
export async function backfill(options: BackfillOptions): Promise<BackfillResult> {
  const intervalMs = options.intervalMs ?? 60_000;
  const batch = Math.min(options.batch ?? 5000, MAX_SAMPLES_PER_MESSAGE);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const maxAttempts = options.maxAttempts ?? 10;
  const retryInitialMs = options.retryInitialMs ?? 500;
  const logger = options.logger ?? silentLogger;
  if (!(options.days > 0)) throw new Error('days must be more than 0');
  if (!(intervalMs >= 1000)) throw new Error('intervalMs must be at least 1000');
  if (!(batch >= 1)) throw new Error('batch must be at least 1');

  const url = ingestUrl(options.httpUrl);
  const to = (options.now ?? Date.now)();
  const from = to - options.days * DAY_MS;
  const unauthorized = new Set<string>();
  const result: BackfillResult = {
    devices: options.devices.length,
    samples: 0,
    accepted: 0,
    duplicates: 0,
    rejected: 0,
    requests: 0,
    retries: 0,
    unauthorized: [],
  };
  // Check every profile before the first request.
  const models = options.devices.map((device) => createDeviceModel(profileOf(device, options)));

  /** The requests to make, device after device, generated lazily (two weeks of 10 000 devices is a lot). */
  function* requests(): Generator<{ device: SimulatedDevice; samples: TelemetrySampleInput[] }> {
    for (const [index, device] of options.devices.entries()) {
      let samples: TelemetrySampleInput[] = [];
      for (const sample of deviceSamples(models[index]!, from, to, intervalMs)) {
        samples.push(sample);
        if (samples.length === batch) {
          if (unauthorized.has(device.controllerId)) break;
          yield { device, samples };
          samples = [];
        }
      }
      if (samples.length > 0 && !unauthorized.has(device.controllerId)) yield { device, samples };
    }
  }

  const queue = requests();
  let failure: Error | undefined;

  async function worker(): Promise<void> {
    for (;;) {
      if (failure || options.signal?.aborted) return;
      const next = queue.next();
      if (next.done) return;
      const { device, samples } = next.value;
      if (unauthorized.has(device.controllerId)) continue;
      for (let attempt = 1; ; attempt++) {
        result.requests += 1;
        const outcome = await postSamples(url, device.credential, samples, options.signal);
        if (outcome.kind === 'retry') {
          if (attempt >= maxAttempts || options.signal?.aborted) {
            failure ??= new Error(`Back-fill failed: ${outcome.detail} after ${attempt} attempts`);
            return;
          }
          result.retries += 1;
          logger.warn(`back-fill: ${outcome.detail}; retrying (attempt ${attempt + 1})`);
          await delay(backoffMs(attempt, retryInitialMs, 30_000), options.signal);
          continue;
        }
        if (outcome.kind === 'unauthorized') {
          if (!unauthorized.has(device.controllerId)) {
            unauthorized.add(device.controllerId);
            result.unauthorized.push(device.controllerId);
            logger.error(`back-fill: the server refused the credential of ${device.controllerId} (401)`);
          }
        } else if (outcome.kind === 'refused') {
          result.samples += samples.length;
          result.rejected += samples.length;
          logger.warn(`back-fill: HTTP ${outcome.status} for ${device.controllerId}: ${outcome.detail}`);
        } else {
          result.samples += samples.length;
          result.accepted += outcome.accepted;
          result.duplicates += outcome.duplicates;
          result.rejected += outcome.rejected.length;
        }
        options.onProgress?.({ ...result, unauthorized: [...result.unauthorized] });
        break;
      }
    }
  }

  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  if (failure) throw failure;
  if (options.signal?.aborted) throw new Error('Back-fill aborted');
  return result;
}
