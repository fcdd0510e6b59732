import type { TelemetrySample } from '@kontrol/contracts';
import type { GatewayDevice } from '../devices/device-directory.js';
import {
  advanceLive,
  dayDeltas,
  emptyLive,
  hourDeltas,
  minuteDates,
  minuteDeltas,
  type LiveState,
  type StoredSample,
  type WashCycle,
} from './derive.js';
import { STATE_CODES } from './samples.js';
import type { TelemetryStore } from './store.js';

export interface IngestOutcome {
  /** Samples stored by this submission. */
  accepted: number;
  /** Samples that were stored already (same device and ts): a redelivery. */
  duplicates: number;
}

export interface PipelineOptions {
  store: TelemetryStore;
  /** Most samples written in one transaction (default: the store's `batchSamples`, else 5 000). */
  maxBatchSamples?: number;
  /** Batches written at once (default: the store's `concurrentBatches`, else 1). */
  concurrentBatches?: number;
  /** How long the first waiting sample waits for others before its batch is written. */
  maxDelayMs?: number;
  /** Samples waiting beyond this make `submit` refuse with {@link PipelineBusyError}. */
  maxPendingSamples?: number;
  /** Told after every committed batch (live updates, metrics). */
  onCommitted?: (batch: CommittedBatch) => void;
}

export interface CommittedBatch {
  samples: number;
  stored: number;
  devices: number[];
  washes: WashCycle[];
  durationMs: number;
  /** The samples this batch stored (redeliveries left out): what the rules engine evaluates. */
  storedSamples: readonly StoredSample[];
}

/** Too much is waiting to be written: the caller should retry later (HTTP 503). */
export class PipelineBusyError extends Error {
  constructor() {
    super('The telemetry store is busy; retry later.');
  }
}

export class PipelineClosedError extends Error {
  constructor() {
    super('The gateway is shutting down.');
  }
}

interface Submission {
  device: GatewayDevice;
  samples: StoredSample[];
  resolve: (outcome: IngestOutcome) => void;
  reject: (error: unknown) => void;
}

/** Devices send in time order, so a sort is usually not needed. */
function isSorted(samples: readonly StoredSample[]): boolean {
  for (let i = 1; i < samples.length; i += 1)
    if ((samples[i] as StoredSample).ts < (samples[i - 1] as StoredSample).ts) return false;
  return true;
}

export function toStored(deviceId: number, sample: TelemetrySample): StoredSample {
  return {
    deviceId,
    ts: sample.ts,
    current: sample.current,
    temperature: sample.temperature ?? null,
    doorOpen: sample.door_open === undefined ? null : sample.door_open ? 1 : 0,
    state: STATE_CODES[sample.state],
    program: sample.program ?? null,
    errorCode: sample.error_code ?? null,
    coreTemperature: sample.core_temperature ?? null,
    humidity: sample.humidity ?? null,
  };
}

/**
 * Group commit (docs/telemetry.md, "Pipeline"): submissions from every MQTT message and HTTP
 * request wait together for at most `maxDelayMs` (or until `maxBatchSamples` are waiting) and are
 * written in one transaction; each submission's promise resolves only after that transaction has
 * committed, which is when the gateway sends the PUBACK or the 202. One batch is written at a
 * time; what arrives meanwhile forms the next one. A failed batch rejects all of its submissions
 * (nothing was acknowledged, so devices send them again).
 */
export class IngestPipeline {
  private readonly store: TelemetryStore;
  private readonly maxBatchSamples: number;
  private readonly maxDelayMs: number;
  private readonly maxPendingSamples: number;
  private readonly onCommitted: ((batch: CommittedBatch) => void) | undefined;
  private waiting: Submission[] = [];
  private waitingSamples = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly concurrentBatches: number;
  /** The batches being written, and their devices (a device is in one batch at a time). */
  private readonly writing = new Set<Promise<void>>();
  private readonly busyDevices = new Set<number>();
  private closed = false;

  constructor(options: PipelineOptions) {
    this.store = options.store;
    this.maxBatchSamples = options.maxBatchSamples ?? options.store.batchSamples ?? 5_000;
    this.concurrentBatches = options.concurrentBatches ?? options.store.concurrentBatches ?? 1;
    this.maxDelayMs = options.maxDelayMs ?? 5;
    this.maxPendingSamples = options.maxPendingSamples ?? 200_000;
    this.onCommitted = options.onCommitted;
  }

  /** Samples waiting to be written. */
  get pending(): number {
    return this.waitingSamples;
  }

  submit(device: GatewayDevice, samples: readonly TelemetrySample[]): Promise<IngestOutcome> {
    if (this.closed) return Promise.reject(new PipelineClosedError());
    if (samples.length === 0) return Promise.resolve({ accepted: 0, duplicates: 0 });
    if (this.waitingSamples + samples.length > this.maxPendingSamples)
      return Promise.reject(new PipelineBusyError());
    return new Promise<IngestOutcome>((resolve, reject) => {
      this.waiting.push({
        device,
        samples: samples.map((sample) => toStored(device.id, sample)),
        resolve,
        reject,
      });
      this.waitingSamples += samples.length;
      this.schedule();
    });
  }

  /** Writes what is waiting and refuses anything new. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.waiting.length > 0 || this.writing.size > 0) {
      if (this.writing.size < this.concurrentBatches) this.writeNext();
      if (this.writing.size > 0) await Promise.race(this.writing);
    }
  }

  private schedule() {
    // A running batch picks the rest up when it ends.
    if (this.writing.size >= this.concurrentBatches) return;
    if (this.waitingSamples >= this.maxBatchSamples) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.writeNext();
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.writeNext();
      }, this.maxDelayMs);
    }
  }

  /**
   * Starts a batch of what is waiting, in order, up to `maxBatchSamples`. Submissions of a device
   * whose batch is still being written wait for the next one, and so do that device's later ones:
   * a device's samples are written in the order they came, one batch at a time.
   */
  private writeNext() {
    if (this.writing.size >= this.concurrentBatches || this.waiting.length === 0) return;
    const batch: Submission[] = [];
    const rest: Submission[] = [];
    const deferred = new Set<number>();
    let count = 0;
    let index = 0;
    for (; index < this.waiting.length; index += 1) {
      const submission = this.waiting[index] as Submission;
      if (batch.length > 0 && count + submission.samples.length > this.maxBatchSamples) break;
      const id = submission.device.id;
      if (this.busyDevices.has(id) || deferred.has(id)) {
        deferred.add(id);
        rest.push(submission);
      } else {
        batch.push(submission);
        count += submission.samples.length;
      }
    }
    // The batch is full: the rest waits as it is, in order.
    for (; index < this.waiting.length; index += 1) rest.push(this.waiting[index] as Submission);
    // Everything waiting is of devices being written: the batch that ends first starts the next.
    if (batch.length === 0) return;
    this.waiting = rest;
    this.waitingSamples -= count;
    const devices = new Set(batch.map((submission) => submission.device.id));
    for (const id of devices) this.busyDevices.add(id);
    const writing: Promise<void> = this.write(batch, count).finally(() => {
      this.writing.delete(writing);
      for (const id of devices) this.busyDevices.delete(id);
      if (this.waiting.length > 0) this.schedule();
    });
    this.writing.add(writing);
    if (this.waiting.length > 0) this.schedule();
  }

  private async write(batch: Submission[], count: number): Promise<void> {
    const started = performance.now();
    try {
      const byDevice = new Map<number, GatewayDevice>();
      for (const submission of batch) byDevice.set(submission.device.id, submission.device);
      const { stored, devices, washes } =
        (await this.writeAll(batch, byDevice)) ?? (await this.writeStepByStep(batch, byDevice));

      // Credit each submission with the samples it stored (the stores return the very objects they
      // inserted); the rest were stored already. Usually all of them were.
      const fresh = stored.length === count ? undefined : new Set(stored);
      for (const submission of batch) {
        let accepted = submission.samples.length;
        if (fresh) {
          accepted = 0;
          for (const sample of submission.samples) if (fresh.has(sample)) accepted += 1;
        }
        submission.resolve({ accepted, duplicates: submission.samples.length - accepted });
      }
      this.onCommitted?.({
        samples: count,
        stored: stored.length,
        devices,
        washes,
        durationMs: performance.now() - started,
        storedSamples: stored,
      });
    } catch (error) {
      for (const submission of batch) submission.reject(error);
    }
  }

  /**
   * The store's one-statement write (PostgreSQL), when it has one: everything is derived first,
   * from the batch as if all its samples were new and from the live states the store knows; the
   * store writes it only if that still holds. When another process had moved a device's live
   * state, it is derived once more from what the database holds. Undefined when the store did not
   * write it (nothing was written).
   */
  private async writeAll(batch: readonly Submission[], byDevice: ReadonlyMap<number, GatewayDevice>) {
    const { store } = this;
    if (!store.writeAll || !store.knownLive) return undefined;
    const samples = batch.flatMap((submission) => submission.samples);
    const perDevice = samplesByDevice(samples);
    const ids = [...perDevice.keys()];
    const minutes = minuteDeltas(samples, byDevice);
    const dates = minuteDates(minutes, byDevice);
    // Working minutes are counted by the store from the minute upsert (what a minute held before).
    const noneYet = minutes.map(() => 0);
    const hours = hourDeltas(minutes, noneYet);
    const days = dayDeltas(minutes, noneYet, byDevice, dates);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const known = await store.knownLive(ids);
      const previous: LiveState[] = [];
      const live: LiveState[] = [];
      const washes: WashCycle[] = [];
      for (const [deviceId, list] of perDevice) {
        const before = known.get(deviceId) ?? emptyLive(deviceId);
        const advanced = advanceLive(before, byDevice.get(deviceId) as GatewayDevice, list);
        previous.push(before);
        live.push(advanced.live);
        washes.push(...advanced.washes);
      }
      const outcome = await store.writeAll({
        samples,
        deviceIds: ids,
        previous,
        minutes,
        minuteDates: dates as string[],
        hours,
        days,
        live,
        washes,
      });
      if (outcome === 'written') return { stored: samples, devices: ids, washes };
      if (outcome === 'declined') return undefined;
    }
    return undefined;
  }

  /** One statement per table in one transaction: what was stored already is found as it is written. */
  private writeStepByStep(batch: readonly Submission[], byDevice: ReadonlyMap<number, GatewayDevice>) {
    return this.store.writeBatch(async (writer) => {
      const ids = [...byDevice.keys()];
      const existing = await writer.existingDevices(ids);
      const samples = batch.flatMap((submission) =>
        existing.has(submission.device.id) ? submission.samples : [],
      );
      const inserted = await writer.insertSamples(samples);

      const minutes = minuteDeltas(inserted, byDevice);
      const workingAfter = await writer.upsertMinutes(minutes);
      await writer.upsertHours(hourDeltas(minutes, workingAfter));
      await writer.upsertDays(dayDeltas(minutes, workingAfter, byDevice));

      const perDevice = samplesByDevice(inserted);
      const previous = await writer.loadLive([...perDevice.keys()]);
      const states = [];
      const ended: WashCycle[] = [];
      for (const [deviceId, list] of perDevice) {
        const device = byDevice.get(deviceId) as GatewayDevice;
        const { live, washes: closed } = advanceLive(
          previous.get(deviceId) ?? emptyLive(deviceId),
          device,
          list,
        );
        states.push(live);
        ended.push(...closed);
      }
      await writer.saveLive(states);
      await writer.insertWashes(ended);
      return { stored: inserted, devices: [...perDevice.keys()], washes: ended };
    });
  }
}

/** The samples of each device, each list sorted by time (devices send in order: rarely sorted here). */
function samplesByDevice(samples: readonly StoredSample[]): Map<number, StoredSample[]> {
  const perDevice = new Map<number, StoredSample[]>();
  for (const sample of samples) {
    let list = perDevice.get(sample.deviceId);
    if (!list) perDevice.set(sample.deviceId, (list = []));
    list.push(sample);
  }
  for (const list of perDevice.values()) if (!isSorted(list)) list.sort((a, b) => a.ts - b.ts);
  return perDevice;
}
