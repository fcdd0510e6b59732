import { CONTROLLER_ID_PATTERN, DEVICE_TYPE_SLUGS, type DeviceTypeSlug } from '@kontrol/contracts';
import { readFile } from 'node:fs/promises';
import { resolveProfile, type DeviceProfile } from './models.js';
import type { Logger } from './transport.js';

/** A device to simulate: who it is to Kontrol, and what it is. */
export interface SimulatedDevice {
  controllerId: string;
  /** The gateway credential issued for the device (`kdc_…`). */
  credential: string;
  type: DeviceTypeSlug;
  /** Local `HH:MM`; default 08:00. */
  shiftStart?: string;
  /** IANA zone of the device's address; default Europe/Moscow. */
  timeZone?: string;
  /** Overrides the fleet's seed for this device. */
  seed?: number;
  /** Overrides the fleet's `programFailureRate` for this device. */
  programFailureRate?: number;
}

/** What live simulation and back-fill both need to know about the fleet. */
export interface FleetOptions {
  devices: SimulatedDevice[];
  /** Probability (0–1) of a fault per device per day. Default 0.02. */
  failureRate?: number;
  /** Probability (0–1) of an offline spell per device per day. Default 0.1. */
  offlineRate?: number;
  /** Seed of the whole fleet (each device mixes in its controller id). Default 1. */
  seed?: number;
  /**
   * Probability (0–1) that a device stores a recipe program file corrupted (a byte flipped), so
   * the CRC it reports does not match. Default 0. A device's own `programFailureRate` wins.
   */
  programFailureRate?: number;
  logger?: Logger;
  /** The clock; injectable for tests. Default Date.now. */
  now?: () => number;
}

/** The model profile of a fleet's device. Throws on an unknown type, shift start or zone. */
export function profileOf(device: SimulatedDevice, fleet: FleetOptions): DeviceProfile {
  return resolveProfile({
    type: device.type,
    controllerId: device.controllerId,
    shiftStart: device.shiftStart,
    timeZone: device.timeZone,
    seed: device.seed ?? fleet.seed,
    failureRate: fleet.failureRate,
    offlineRate: fleet.offlineRate,
  });
}

/**
 * Reads the devices of a JSON file: an array of
 * `{controller_id, credential, type, shift_start?, time_zone?, seed?, program_failure_rate?}`
 * (the names of the API).
 * Throws with the position and field of the first mistake.
 */
export function parseDevices(json: unknown): SimulatedDevice[] {
  if (!Array.isArray(json)) throw new Error('The devices file must hold a JSON array');
  const seen = new Set<string>();
  return json.map((entry: unknown, index) => {
    const fail = (message: string): never => {
      throw new Error(`Device #${index}: ${message}`);
    };
    if (typeof entry !== 'object' || entry === null) return fail('not an object');
    const record = entry as Record<string, unknown>;
    const text = (name: string, required: boolean): string | undefined => {
      const value = record[name];
      if (value === undefined || value === null) return required ? fail(`${name} is missing`) : undefined;
      if (typeof value !== 'string' || value === '') return fail(`${name} must be a non-empty string`);
      return value;
    };
    const controllerId = text('controller_id', true) as string;
    if (!CONTROLLER_ID_PATTERN.test(controllerId)) fail(`controller_id "${controllerId}" is not valid`);
    if (seen.has(controllerId)) fail(`controller_id "${controllerId}" appears twice`);
    seen.add(controllerId);
    const type = text('type', true) as string;
    if (!(DEVICE_TYPE_SLUGS as readonly string[]).includes(type)) {
      fail(`type "${type}" is not one of ${DEVICE_TYPE_SLUGS.join(', ')}`);
    }
    const device: SimulatedDevice = {
      controllerId,
      credential: text('credential', true) as string,
      type: type as DeviceTypeSlug,
    };
    const shiftStart = text('shift_start', false);
    if (shiftStart) device.shiftStart = shiftStart.slice(0, 5); // the API's "08:00:00" works too
    const timeZone = text('time_zone', false);
    if (timeZone) device.timeZone = timeZone;
    if (record.seed !== undefined) {
      if (typeof record.seed !== 'number' || !Number.isInteger(record.seed)) fail('seed must be an integer');
      device.seed = record.seed as number;
    }
    if (record.program_failure_rate !== undefined) {
      const rate = record.program_failure_rate;
      if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
        fail('program_failure_rate must be a number from 0 to 1');
      device.programFailureRate = rate as number;
    }
    try {
      resolveProfile({
        type: device.type,
        controllerId,
        shiftStart: device.shiftStart,
        timeZone: device.timeZone,
      });
    } catch (error) {
      fail((error as Error).message);
    }
    return device;
  });
}

export async function readDevicesFile(path: string): Promise<SimulatedDevice[]> {
  const text = await readFile(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseDevices(json);
}
