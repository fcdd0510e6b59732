import { DEVICE_LIMIT_REASONS, type DeviceLimitReason } from '@kontrol/contracts';

/** Counters of the gateway since it started (Prometheus metrics: metrics.ts). */
export interface GatewayStats {
  connectedDevices: number;
  refusedConnections: number;
  /** Embedded-broker connections closed after MQTT_IDLE_SECONDS of silence. */
  idleDisconnects: number;
  mqttMessages: number;
  httpMessages: number;
  acceptedSamples: number;
  duplicateSamples: number;
  rejectedSamples: number;
  /** Messages that were not samples at all (not JSON, not an object or array). */
  rejectedMessages: number;
  /** Publishes to a topic the device may not use: acknowledged and dropped. */
  droppedPublishes: number;
  deniedSubscriptions: number;
  batches: number;
  /** Longest batch commit so far (ms). */
  slowestBatchMs: number;
  /** Messages and connections refused by the device limits, by reason (MQTT messages held back count as `in_flight`). */
  limited: Record<DeviceLimitReason, number>;
}

export function emptyStats(): GatewayStats {
  return {
    connectedDevices: 0,
    refusedConnections: 0,
    idleDisconnects: 0,
    mqttMessages: 0,
    httpMessages: 0,
    acceptedSamples: 0,
    duplicateSamples: 0,
    rejectedSamples: 0,
    rejectedMessages: 0,
    droppedPublishes: 0,
    deniedSubscriptions: 0,
    batches: 0,
    slowestBatchMs: 0,
    limited: Object.fromEntries(DEVICE_LIMIT_REASONS.map((reason) => [reason, 0])) as Record<
      DeviceLimitReason,
      number
    >,
  };
}
