import { deviceStatusSchema } from '@kontrol/contracts';
import type { GatewayDevice } from '../devices/device-directory.js';
import type { GatewayStats } from '../stats.js';
import type { IngestPipeline } from './pipeline.js';
import { MessageShapeError, checkSamples, payloadItems } from './samples.js';

export interface MqttIngestContext {
  pipeline: IngestPipeline;
  stats: GatewayStats;
  rawRetentionMs: number;
}

/**
 * One MQTT telemetry message of a device, from either broker: its valid samples are committed
 * (the promise resolves after the commit, when the PUBACK may go); a payload that is not samples
 * at all, and invalid samples, are counted (MQTT has no answer to carry the reasons).
 */
export async function ingestTelemetryMessage(
  device: GatewayDevice,
  payload: Buffer | string,
  context: MqttIngestContext,
): Promise<void> {
  const { stats } = context;
  stats.mqttMessages += 1;
  let items: unknown[];
  try {
    items = payloadItems(payload);
  } catch (error) {
    if (!(error instanceof MessageShapeError)) throw error;
    stats.rejectedMessages += 1;
    return;
  }
  const { valid, rejected } = checkSamples(items, device, {
    now: Date.now(),
    rawRetentionMs: context.rawRetentionMs,
  });
  stats.rejectedSamples += rejected.length;
  const stored = await context.pipeline.submit(device, valid);
  stats.acceptedSamples += stored.accepted;
  stats.duplicateSamples += stored.duplicates;
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
