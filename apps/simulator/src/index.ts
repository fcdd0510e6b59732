/**
 * @kontrol/simulator: virtual kitchen equipment that speaks the real device protocol (MQTT or
 * HTTP) to any Kontrol, for the demo, the benchmarks and the tests. See README.md.
 */
export { startSimulator, type Simulator, type SimulatorOptions, type SimulatorStats } from './simulator.js';
export { backfill, type BackfillOptions, type BackfillResult } from './backfill.js';
export {
  parseDevices,
  profileOf,
  readDevicesFile,
  type FleetOptions,
  type SimulatedDevice,
} from './fleet.js';
export {
  DEFAULT_FAILURE_RATE,
  DEFAULT_OFFLINE_RATE,
  DEFAULT_SHIFT_START,
  DEFAULT_TIME_ZONE,
  REPORTED_FIELDS,
  createDeviceModel,
  deviceSamples,
  resolveProfile,
  sampleNow,
  type DeviceModel,
  type DeviceProfile,
  type ReportedFields,
  type SimulatedSample,
} from './models.js';
export { SIMULATOR_FIRMWARE, createMqttLink, type MqttLinkOptions } from './transport-mqtt.js';
export {
  INGEST_PATH,
  RequestLimiter,
  createHttpLink,
  ingestUrl,
  postSamples,
  type HttpLinkOptions,
  type PostOutcome,
} from './transport-http.js';
export type { CommandHandler, DeviceLink, Logger, TransportCounters } from './transport.js';
