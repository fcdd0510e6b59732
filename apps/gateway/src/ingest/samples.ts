import {
  DEVICE_STATES,
  MAX_CLOCK_AHEAD_MS,
  MAX_SAMPLES_PER_MESSAGE,
  issuesToFieldErrors,
  readPlainSample,
  telemetrySampleSchema,
  translate,
  type DeviceState,
  type RejectedSample,
  type TelemetrySample,
} from '@kontrol/contracts';
import type { GatewayDevice } from '../devices/device-directory.js';

/** Devices read the reasons of rejected samples in English (docs/device-protocol.md). */
const DEVICE_LOCALE = 'en';

export const STATE_CODES: Readonly<Record<DeviceState, number>> = Object.fromEntries(
  DEVICE_STATES.map((state, index) => [state, index]),
) as Record<DeviceState, number>;

/** A message that is not a sample or an array of them at all (the whole message is refused). */
export class MessageShapeError extends Error {
  constructor(readonly reason: 'not_json' | 'not_samples' | 'too_many') {
    super(
      reason === 'not_json'
        ? 'The payload is not JSON.'
        : reason === 'too_many'
          ? `At most ${MAX_SAMPLES_PER_MESSAGE} samples per message.`
          : 'Send one sample object or an array of them.',
    );
  }
}

export interface CheckedSamples {
  valid: TelemetrySample[];
  rejected: RejectedSample[];
}

/** The items of a message: one sample object, or an array of them. */
export function messageItems(body: unknown): unknown[] {
  if (Array.isArray(body)) {
    if (body.length > MAX_SAMPLES_PER_MESSAGE) throw new MessageShapeError('too_many');
    return body;
  }
  if (body !== null && typeof body === 'object') return [body];
  throw new MessageShapeError('not_samples');
}

/** An MQTT payload's items (JSON text). */
export function payloadItems(payload: Buffer | string): unknown[] {
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    throw new MessageShapeError('not_json');
  }
  return messageItems(body);
}

/**
 * Validates each item on its own: a bad sample is rejected with its index and reasons, its valid
 * neighbours are kept. Besides the schema: `temperature` and `door_open` are required from types
 * that report them; a sample older than the raw retention or more than 5 minutes ahead of the
 * server's clock is refused.
 */
export function checkSamples(
  items: readonly unknown[],
  device: GatewayDevice,
  options: { now: number; rawRetentionMs: number },
): CheckedSamples {
  const valid: TelemetrySample[] = [];
  const rejected: RejectedSample[] = [];
  const oldest = options.now - options.rawRetentionMs;
  const newest = options.now + MAX_CLOCK_AHEAD_MS;
  const needsTemperature = device.reports.has('temperature');
  const needsDoor = device.reports.has('door');
  // A plain loop, and objects made only for what is rejected: this runs for every sample.
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    // Plain samples skip zod (readPlainSample); the schema reads the rest and says what is wrong.
    let sample = readPlainSample(item);
    if (!sample) {
      const parsed = telemetrySampleSchema.safeParse(item);
      if (!parsed.success) {
        rejected.push({
          index,
          reason: 'invalid',
          errors: issuesToFieldErrors(parsed.error.issues, DEVICE_LOCALE),
        });
        continue;
      }
      sample = parsed.data;
    }
    const noTemperature = needsTemperature && sample.temperature === undefined;
    const noDoor = needsDoor && sample.door_open === undefined;
    if (noTemperature || noDoor) {
      const missing: Record<string, string[]> = {};
      if (noTemperature) missing.temperature = [translate(DEVICE_LOCALE, 'telemetry.not_reported')];
      if (noDoor) missing.door_open = [translate(DEVICE_LOCALE, 'telemetry.not_reported')];
      rejected.push({ index, reason: 'not_reported_by_type', errors: missing });
    } else if (sample.ts < oldest) {
      rejected.push({
        index,
        reason: 'too_old',
        errors: { ts: [translate(DEVICE_LOCALE, 'telemetry.too_old')] },
      });
    } else if (sample.ts > newest) {
      rejected.push({
        index,
        reason: 'in_future',
        errors: { ts: [translate(DEVICE_LOCALE, 'telemetry.in_future')] },
      });
    } else {
      valid.push(sample);
    }
  }
  return { valid, rejected };
}
