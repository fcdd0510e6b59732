import type { DeviceTypeSlug } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { DeviceAccounts } from '@kontrol/domain';
import type { Gateway } from '@kontrol/gateway';
import { backfill, startSimulator, type SimulatedDevice, type Simulator } from '@kontrol/simulator';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { findUserByEmail } from '../modules/users/users.repository.js';
import { rotateDeviceCredential } from '../modules/devices/devices.service.js';
import { DEMO_LOGIN } from '../modules/demo/demo.seed.js';

/** How many of the demo's smart devices the simulator runs, and the history they get on first start. */
export const DEMO_SIMULATED_DEVICES = 12;
export const DEMO_HISTORY_DAYS = 14;
const LIVE_INTERVAL_MS = 10_000;

export interface DemoFleet {
  stop(): Promise<void>;
}

/** The demo organisation's smart devices the simulator plays, with what their models need. */
async function demoDevices(db: Kysely<Database>) {
  const admin = await findUserByEmail(db, DEMO_LOGIN.email);
  if (!admin) return undefined;
  const rows = await db
    .selectFrom('devices')
    .innerJoin('rooms', 'rooms.id', 'devices.room_id')
    .innerJoin('addresses', 'addresses.id', 'rooms.address_id')
    .innerJoin('device_types', 'device_types.id', 'devices.type_id')
    .select([
      'devices.id',
      'devices.controller_id',
      'devices.shift_start',
      'device_types.slug',
      'addresses.time_zone',
    ])
    .where('devices.organisation_id', '=', admin.organisation_id)
    .where('devices.controller_id', 'is not', null)
    .orderBy('devices.id')
    .limit(DEMO_SIMULATED_DEVICES)
    .execute();
  return { organisationId: admin.organisation_id, rows };
}

/**
 * The demo's devices come alive (`npm start` with the demo on; docs/operations.md): the first
 * smart devices of the demo organisation get fresh credentials (every start: the simulator is
 * their only holder), devices without any sample get 14 days of history over HTTP, and then all
 * send live samples every 10 s — over the embedded broker when it runs, else over HTTP.
 * Nothing here blocks the start: the history is sent in the background and logged when done.
 */
export async function startDemoFleet(options: {
  db: Kysely<Database>;
  gateway: Gateway;
  accounts: DeviceAccounts;
  /** Where this Kontrol answers HTTP, from inside the machine (`http://127.0.0.1:<PORT>`). */
  httpUrl: string;
  log: FastifyBaseLogger;
}): Promise<DemoFleet | undefined> {
  const { db, gateway, log } = options;
  const found = await demoDevices(db);
  if (!found || found.rows.length === 0) return undefined;
  const devices: SimulatedDevice[] = [];
  for (const row of found.rows) {
    const issued = await rotateDeviceCredential(db, options.accounts, found.organisationId, row.id);
    devices.push({
      controllerId: row.controller_id as string,
      credential: issued.credential as string,
      type: row.slug as DeviceTypeSlug,
      ...(row.shift_start ? { shiftStart: row.shift_start } : {}),
      timeZone: row.time_zone,
      seed: row.id,
    });
  }
  const logger = {
    info: (message: string) => log.debug(`simulator: ${message}`),
    warn: (message: string) => log.warn(`simulator: ${message}`),
    error: (message: string) => log.error(`simulator: ${message}`),
  };

  const controller = new AbortController();
  let live: Simulator | undefined;
  const withHistory = await db
    .selectFrom('device_live')
    .select('device_id')
    .where(
      'device_id',
      'in',
      found.rows.map((row) => row.id),
    )
    .where('last_ts', 'is not', null)
    .execute();
  const fresh = devices.filter(
    (_, index) => !withHistory.some((row) => row.device_id === found.rows[index]?.id),
  );

  const startLive = () => {
    if (controller.signal.aborted) return;
    const broker = gateway.broker;
    live = startSimulator({
      devices,
      ...(broker
        ? // Over MQTT they also take recipe deliveries, downloading the files over HTTP.
          { transport: 'mqtt' as const, mqttUrl: `mqtt://127.0.0.1:${broker.port}`, httpUrl: options.httpUrl }
        : { transport: 'http' as const, httpUrl: options.httpUrl }),
      intervalMs: LIVE_INTERVAL_MS,
      logger,
    });
    log.info(`demo: ${devices.length} simulated devices are sending telemetry (${broker ? 'MQTT' : 'HTTP'})`);
  };

  if (fresh.length === 0) startLive();
  else {
    log.info(`demo: sending ${DEMO_HISTORY_DAYS} days of history for ${fresh.length} devices`);
    backfill({
      devices: fresh,
      httpUrl: options.httpUrl,
      days: DEMO_HISTORY_DAYS,
      signal: controller.signal,
      logger,
    })
      .then((result) => log.info(`demo: history sent (${result.accepted} samples)`))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) log.warn({ err: error }, 'demo: history could not be sent');
      })
      .finally(startLive);
  }

  return {
    stop: async () => {
      controller.abort();
      await live?.stop();
    },
  };
}
