import { Gateway, gatewayMqtt, watchGateway } from '@kontrol/gateway';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../app.js';

export interface AllInOneOptions extends Omit<AppOptions, 'deviceSide'> {
  /**
   * Run the MQTT side in this process: the embedded broker (config.mqttEmbedded), or the external
   * broker's subscriptions (config.mqttUrl). Every API process serves the HTTP ingest and keeps
   * device accounts; only one process per machine runs this (server.ts: the single process, or
   * the cluster's primary).
   */
  runsMqtt?: boolean;
}

/**
 * The API with the gateway in the same process, as `npm start` runs it (and the tests build it):
 * the gateway's HTTP ingest is served on the API's port, its counters go to the process's
 * metrics, and it closes with the app.
 */
export async function buildAllInOneApp({
  runsMqtt = false,
  ...options
}: AllInOneOptions): Promise<{ app: FastifyInstance; gateway: Gateway }> {
  const { config, database, metrics } = options;
  let started: Gateway | undefined;
  const app = await buildApp({
    ...options,
    deviceSide: async (api) => {
      const gateway = await Gateway.start({
        database,
        log: api.log,
        rawRetentionDays: config.telemetryRawDays,
        mqtt: gatewayMqtt(config, runsMqtt),
        noDataEveryMs: config.rulesNoDataCheckSeconds * 1000,
        limits: config.deviceLimits,
      });
      started = gateway;
      if (metrics) watchGateway(metrics.registry, gateway);
      try {
        await gateway.registerHttpIngest(api, { access: 'device', csrf: false });
      } catch (error) {
        await gateway.close(); // the app never takes it over, so nothing else would close its broker
        throw error;
      }
      return gateway;
    },
  });
  if (!started) throw new Error('buildApp did not start the device side');
  return { app, gateway: started };
}
