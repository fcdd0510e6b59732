import { Counter, Gauge, type Registry } from 'prom-client';
import type { Gateway } from './gateway.js';

/**
 * The gateway's counters and queues in a process's Prometheus registry (docs/deployment.md,
 * "Monitoring"), read at each scrape.
 */
export function watchGateway(registry: Registry, gateway: Gateway): void {
  const { stats } = gateway;
  const registers = [registry];
  statCounter(registry, 'kontrol_ingest_messages_total', 'Telemetry messages received, by transport.', {
    label: 'transport',
    read: () => ({ mqtt: stats.mqttMessages, http: stats.httpMessages }),
  });
  statCounter(
    registry,
    'kontrol_ingest_samples_total',
    'Samples received: stored, already stored, rejected.',
    {
      label: 'result',
      read: () => ({
        stored: stats.acceptedSamples,
        duplicate: stats.duplicateSamples,
        rejected: stats.rejectedSamples,
      }),
    },
  );
  statCounter(
    registry,
    'kontrol_device_limit_refusals_total',
    'Device messages and connections refused by the device limits, by reason (MQTT messages held back: in_flight).',
    { label: 'reason', read: () => ({ ...stats.limited }) },
  );
  statCounter(
    registry,
    'kontrol_mqtt_connections_closed_total',
    'Embedded-broker connections refused at CONNECT (a bad credential, or the broker full) or closed after MQTT_IDLE_SECONDS of silence.',
    {
      label: 'reason',
      read: () => ({ refused: stats.refusedConnections, idle: stats.idleDisconnects }),
    },
  );
  statCounter(registry, 'kontrol_ingest_batches_total', 'Ingest batches committed (one transaction each).', {
    read: () => ({ '': stats.batches }),
  });
  new Gauge({
    name: 'kontrol_ingest_slowest_batch_seconds',
    help: 'The longest batch commit since the process started.',
    aggregator: 'max',
    registers,
    collect() {
      this.set(stats.slowestBatchMs / 1000);
    },
  });
  new Gauge({
    name: 'kontrol_ingest_queue_samples',
    help: 'Samples received and waiting to be written (acknowledged only once written).',
    registers,
    collect() {
      this.set(gateway.pipeline.pending);
    },
  });
  new Gauge({
    name: 'kontrol_rules_queue_samples',
    help: 'Stored samples waiting for the event rules.',
    registers,
    collect() {
      this.set(gateway.rules.pending);
    },
  });
  new Gauge({
    name: 'kontrol_mqtt_connected_devices',
    help: 'Devices connected to the embedded broker of this process.',
    registers,
    collect() {
      this.set(gateway.broker ? stats.connectedDevices : 0);
    },
  });
  new Gauge({
    name: 'kontrol_mqtt_broker_connections',
    help: 'Connections of this process to the external broker, by state (up or configured).',
    labelNames: ['state'],
    registers,
    collect() {
      const connections = gateway.external?.connections ?? { up: 0, all: 0 };
      this.set({ state: 'up' }, connections.up);
      this.set({ state: 'configured' }, connections.all);
    },
  });
}

/**
 * A counter whose value lives elsewhere (the gateway's stats), set from `read` at each scrape: one
 * series per key of its answer under `label`, or a single series (key '') without one.
 */
function statCounter(
  registry: Registry,
  name: string,
  help: string,
  { label, read }: { label?: string; read: () => Record<string, number> },
): void {
  new Counter({
    name,
    help,
    labelNames: label ? [label] : [],
    registers: [registry],
    collect() {
      this.reset();
      for (const [value, count] of Object.entries(read())) {
        if (label) this.inc({ [label]: value }, count);
        else this.inc(count);
      }
    },
  });
}
