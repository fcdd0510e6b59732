import { deviceStatusSchema } from '@kontrol/contracts';
import type { GatewayDevice } from '../devices/device-directory.js';
import type { DeviceLimiter } from '../limits/device-limiter.js';
import type { GatewayStats } from '../stats.js';
import type { IngestPipeline } from './pipeline.js';
import type { RejectedSample } from '@kontrol/contracts';
import { MessageShapeError, checkSamples, payloadItems } from './samples.js';

export interface MqttIngestContext {
  pipeline: IngestPipeline;
  stats: GatewayStats;
  rawRetentionMs: number;
  limiter: DeviceLimiter;
}

/** What became of a telemetry message: how many samples were valid, and why the others were not. */
export type TelemetryMessageOutcome =
  { valid: number; rejected: readonly RejectedSample[] } | { notSamples: MessageShapeError };

/**
 * One MQTT telemetry message of a device, from either broker: its valid samples are committed
 * (the promise resolves after the commit, when the PUBACK may go); a payload that is not samples
 * at all, and invalid samples, are counted, and the outcome says what was refused (an MQTT 5
 * PUBACK can carry it). The device's limits apply: the message waits for a slot while the device
 * has as many in flight as it may, and one over its rate or its day rejects with a
 * `DeviceLimitError`, nothing stored.
 */
export async function ingestTelemetryMessage(
  device: GatewayDevice,
  payload: Buffer | string,
  context: MqttIngestContext,
): Promise<TelemetryMessageOutcome> {
  const { stats, limiter } = context;
  stats.mqttMessages += 1;
  const release = await limiter.openMqttMessage(device);
  try {
    limiter.precheck(device); // a message that would be refused is not even parsed
    let items: unknown[];
    try {
      items = payloadItems(payload);
    } catch (error) {
      if (!(error instanceof MessageShapeError)) throw error;
      limiter.take(device, 1); // what was not samples still costs a message's worth
      stats.rejectedMessages += 1;
      return { notSamples: error };
    }
    limiter.take(device, items.length);
    const { valid, rejected } = checkSamples(items, device, {
      now: Date.now(),
      rawRetentionMs: context.rawRetentionMs,
    });
    stats.rejectedSamples += rejected.length;
    const stored = await context.pipeline.submit(device, valid);
    stats.acceptedSamples += stored.accepted;
    stats.duplicateSamples += stored.duplicates;
    return { valid: valid.length, rejected };
  } finally {
    release();
  }
}

/**
 * A device's `status` message, within its limits (it counts as one sample): stored by `save`
 * when it is one (JSON of its known fields); false when it is not one.
 */
export async function ingestStatusMessage(
  device: GatewayDevice,
  payload: Buffer | string,
  limiter: DeviceLimiter,
  save: (status: string) => Promise<void>,
): Promise<boolean> {
  const release = await limiter.openMqttMessage(device);
  try {
    limiter.take(device, 1);
    const status = readStatusMessage(payload);
    if (!status) return false;
    await save(status);
    return true;
  } finally {
    release();
  }
}

/** A `status` message as stored (JSON of its known fields), or undefined when it is not one. */
export function readStatusMessage(payload: Buffer | string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString());
  } catch {
    return undefined;
  }
  const status = deviceStatusSchema.safeParse(parsed);
  return status.success ? JSON.stringify(status.data) : undefined;
}
