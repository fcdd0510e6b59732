import type { TelemetrySample } from '@kontrol/contracts';
import type { GatewayDevice } from '../devices/device-directory.js';
import {
  advanceLive,
  dayDeltas,
  emptyLive,
  hourDeltas,
  minuteDeltas,
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
  /** Most samples written in one transaction. */
  maxBatchSamples?: number;
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
  private writing: Promise<void> | undefined;
  private closed = false;

  constructor(options: PipelineOptions) {
    this.store = options.store;
    this.maxBatchSamples = options.maxBatchSamples ?? 5_000;
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
    while (this.waiting.length > 0 || this.writing) {
      if (this.writing) await this.writing;
      else this.writeNext();
    }
  }

  private schedule() {
    if (this.writing) return; // the running batch picks the rest up when it ends
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

  private writeNext() {
    if (this.writing || this.waiting.length === 0) return;
    const batch: Submission[] = [];
    let count = 0;
    while (
      this.waiting.length > 0 &&
      (batch.length === 0 || count + (this.waiting[0]?.samples.length ?? 0) <= this.maxBatchSamples)
    ) {
      const next = this.waiting.shift() as Submission;
      batch.push(next);
      count += next.samples.length;
    }
    this.waitingSamples -= count;
    this.writing = this.write(batch, count).finally(() => {
      this.writing = undefined;
      if (this.waiting.length > 0) this.schedule();
    });
  }

  private async write(batch: Submission[], count: number): Promise<void> {
    const started = performance.now();
    try {
      const { stored, devices, washes } = await this.store.writeBatch(async (writer) => {
        const byDevice = new Map<number, GatewayDevice>();
        for (const submission of batch) byDevice.set(submission.device.id, submission.device);
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

        const perDevice = new Map<number, StoredSample[]>();
        for (const sample of inserted) {
          let list = perDevice.get(sample.deviceId);
          if (!list) perDevice.set(sample.deviceId, (list = []));
          list.push(sample);
        }
        const previous = await writer.loadLive([...perDevice.keys()]);
        const states = [];
        const ended: WashCycle[] = [];
        for (const [deviceId, list] of perDevice) {
          const device = byDevice.get(deviceId) as GatewayDevice;
          if (!isSorted(list)) list.sort((a, b) => a.ts - b.ts);
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

      // Credit each submission with the samples it stored (the stores return the very objects they
      // inserted); the rest were stored already.
      const fresh = new Set(stored);
      for (const submission of batch) {
        let accepted = 0;
        for (const sample of submission.samples) if (fresh.has(sample)) accepted += 1;
        submission.resolve({ accepted, duplicates: submission.samples.length - accepted });
      }
      this.onCommitted?.({
        samples: count,
        stored: stored.length,
        devices,
        washes,
        durationMs: performance.now() - started,
      });
    } catch (error) {
      for (const submission of batch) submission.reject(error);
    }
  }
}
