import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeviceWithCredential, RecipeBind, uploadStatusSchema } from '@kontrol/contracts';
import { startSimulator, type Simulator } from '@kontrol/simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { buildOrganisation, buildRecipe, buildRecipeSet, buildRoom } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { mosquittoAvailable, startMosquitto, type TestMosquitto } from '../../test/mosquitto.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';

type UploadStatus = z.infer<typeof uploadStatusSchema>;

/** What keeps the process busy, by kind (`TCPSocketWrap: 3, Timeout: 12`). */
function activeResources(): string {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${kind}: ${count}`).join(', ');
}

/** `GET /api/…, POST /api/…` for the requests, or `none`. */
function inFlightLines(requests: Iterable<IncomingMessage> = []): string {
  return [...requests].map((request) => `${request.method} ${request.url}`).join(', ') || 'none';
}

/**
 * Runs `step`, and writes its name on stderr every 10 s it has not ended, with the process's
 * active resources, the API's open HTTP connections and the requests still in flight (what it
 * may be waiting for).
 */
async function slowStepNamed(
  name: string,
  step: () => Promise<unknown>,
  http?: { server: () => Server; inFlight: ReadonlySet<IncomingMessage> },
): Promise<void> {
  const started = Date.now();
  const warn = setInterval(() => {
    const report = (connections: number | string) =>
      console.warn(
        `deploy-mosquitto teardown: ${name}: still waiting after ${Date.now() - started} ms; ` +
          `HTTP connections open: ${connections}; requests in flight: ${inFlightLines(http?.inFlight)}; ` +
          `active: ${activeResources()}`,
      );
    if (http) http.server().getConnections((error, count) => report(error ? error.message : count));
    else report('-');
  }, 10_000);
  try {
    await step();
  } finally {
    clearInterval(warn);
  }
}

/**
 * Recipe deployment through an external Mosquitto 2 (MQTT_URL): the gateway cannot see the
 * device's connection, so it sends to a device whose last status says it is online, and keeps
 * the binds of one that said it went offline queued until it says it is back.
 */
describe.skipIf(!mosquittoAvailable())('recipe deployment through an external broker (Mosquitto 2)', () => {
  let mosquitto: TestMosquitto;
  let t: TestApp;
  let httpUrl = '';
  const simulators: Simulator[] = [];
  /** The API's requests not yet answered, for the teardown's report. */
  const inFlight = new Set<IncomingMessage>();

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    t = await buildTestApp(
      { MQTT_URL: mosquitto.url, MQTT_CLIENT_ID: `kontrol-deploy-${process.pid}` },
      { runsMqtt: true },
    );
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    t.app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      inFlight.add(request);
      response.once('close', () => inFlight.delete(request));
    });
    httpUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // This teardown once outlasted the hook's minute in the whole suite: each step says so when slow.
    await slowStepNamed('the simulators stop', () =>
      Promise.all(simulators.map((simulator) => simulator.stop())),
    );
    // What t.close() does, one step at a time. As the server's own shutdown does after its grace
    // period (src/server.ts), connections still open after 15 s are closed: a run once waited here
    // for the hook's whole minute on one connection.
    await slowStepNamed(
      'the app closes',
      async () => {
        const grace = setTimeout(() => {
          console.warn('deploy-mosquitto teardown: closing the connections still open after 15 s');
          t.app.server.closeAllConnections();
        }, 15_000);
        try {
          await t?.app.close();
        } finally {
          clearTimeout(grace);
        }
      },
      { server: () => t.app.server, inFlight },
    );
    await slowStepNamed('its database is dropped', async () => t?.database.drop());
    await slowStepNamed('Mosquitto stops', async () => mosquitto?.stop());
  });

  const db = () => t.database.handle.db;

  async function lastStatus(deviceId: number) {
    const row = await db()
      .selectFrom('device_live')
      .select('status')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    return row?.status ? (JSON.parse(row.status) as { online?: boolean }) : undefined;
  }

  async function status(client: TestClient, deviceId: number): Promise<UploadStatus> {
    const res = await client.get(`/api/devices/${deviceId}/get_upload_status`);
    expect(res.statusCode).toBe(200);
    return res.json<{ data: UploadStatus }>().data;
  }

  async function settled(client: TestClient, deviceId: number, state: RecipeBind['state']) {
    await vi.waitFor(
      async () =>
        expect((await status(client, deviceId)).binds.map((bind) => bind.state)).toEqual([state, state]),
      { timeout: 15_000, interval: 100 },
    );
  }

  it('delivers to a device that says it is online, and keeps the binds of one that went offline queued until it is back', async () => {
    const org = await buildOrganisation(db());
    const room = await buildRoom(db(), org.organisationId);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    const type = await db()
      .selectFrom('device_types')
      .select('id')
      .where('slug', '=', 'combi_oven')
      .executeTakeFirstOrThrow();
    // Created through the API, so the broker gets its account.
    const controllerId = `deploy-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const created = await client.post('/api/devices/', {
      name: 'Combi',
      type_id: type.id,
      room_id: room.id,
      controller_id: controllerId,
    });
    expect(created.statusCode).toBe(201);
    const device = created.json<{ data: DeviceWithCredential }>().data;
    const recipes = [
      await buildRecipe(db(), org.organisationId),
      await buildRecipe(db(), org.organisationId),
    ];
    const set = await buildRecipeSet(db(), org.organisationId, { recipeIds: recipes.map((r) => r.id) });
    const simulated = [{ controllerId, credential: device.credential ?? '', type: 'combi_oven' as const }];
    const simulate = () => {
      const simulator = startSimulator({
        devices: simulated,
        transport: 'mqtt',
        mqttUrl: `mqtt://127.0.0.1:${mosquitto.port}`,
        httpUrl,
        intervalMs: 3_600_000,
        offlineRate: 0,
        reconnectPeriodMs: 100,
      });
      simulators.push(simulator);
      return simulator;
    };

    const first = simulate();
    await vi.waitFor(async () => expect(await lastStatus(device.id)).toMatchObject({ online: true }), {
      timeout: 10_000,
    });
    expect((await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`)).statusCode).toBe(200);
    await settled(client, device.id, 'installed');
    expect(first.programFiles(controllerId).size).toBe(2);

    // The device stops and says so; an upload now waits for it.
    await first.stop();
    await vi.waitFor(async () => expect(await lastStatus(device.id)).toEqual({ online: false }), {
      timeout: 10_000,
    });
    const upload = await client.post('/api/recipes_sets/upload_recipes', {
      device_id: device.id,
      recipe_ids: recipes.map((recipe) => recipe.id),
    });
    expect(upload.statusCode).toBe(200);
    await t.gateway.programs?.kick();
    await t.gateway.programs?.kick();
    expect((await status(client, device.id)).binds.map((bind) => [bind.state, bind.attempts])).toEqual([
      ['queued', 1],
      ['queued', 1],
    ]);

    // Back online: its status kicks the delivery.
    const second = simulate();
    await settled(client, device.id, 'installed');
    expect((await status(client, device.id)).binds.map((bind) => bind.attempts)).toEqual([2, 2]);
    expect(second.programFiles(controllerId).size).toBe(2);
  });
});
