import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import {
  PROGRAMS_PATH,
  PROGRAM_REPORT_TIMEOUT_MS,
  crcHex,
  programFileName,
  programsCommandSchema,
  type RecipeBind,
  type RecipeStep,
  type crcFileSchema,
  type uploadStatusSchema,
} from '@kontrol/contracts';
import { startSimulator, type SimulatedDevice, type Simulator } from '@kontrol/simulator';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { buildOrganisation, buildRecipe, buildRecipeSet, buildSmartDevice } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { readZip } from '../../test/read-zip.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * Recipe deployment end to end (docs/recipes.md, "Deployment"): the API deploys, the gateway's
 * dispatcher publishes `programs` commands through the embedded broker, simulated devices
 * connected over real MQTT download the files over real HTTP with their credentials, store them
 * (one corrupting what it stores), compute the CRC32 and report it.
 */
const t = useTestApp({ runsMqtt: true });

type UploadStatus = z.infer<typeof uploadStatusSchema>;
type CrcFile = z.infer<typeof crcFileSchema>;

let httpUrl = '';
const simulators: Simulator[] = [];
const clients: MqttClient[] = [];

beforeAll(async () => {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  httpUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});
afterAll(async () => {
  await Promise.all(simulators.splice(0).map((simulator) => simulator.stop()));
});

const mqttUrl = () => `mqtt://127.0.0.1:${t.gateway.broker?.port ?? 0}`;

const step = (temperature: number, prompt: string | null = null): RecipeStep => ({
  mode: 'combination',
  temperature,
  humidity: 60,
  fan_speed: 3,
  duration_seconds: 900,
  core_temperature: null,
  prompt,
});

/** An organisation with a set of two combi-oven recipes, `devices` smart ovens, and its admin signed in. */
async function setup(devices: number) {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const roast = await buildRecipe(t.db, org.organisationId, {
    name: 'Курица гриль',
    steps: [step(160, 'Загрузите курицу'), step(220)],
  });
  const bread = await buildRecipe(t.db, org.organisationId, { name: 'Bread' });
  const set = await buildRecipeSet(t.db, org.organisationId, { recipeIds: [roast.id, bread.id] });
  const built = [];
  for (let i = 0; i < devices; i += 1) built.push(await buildSmartDevice(t.db, org.organisationId));
  return { org, client, recipes: [roast, bread], set, devices: built };
}

function simulate(devices: SimulatedDevice[]) {
  const simulator = startSimulator({
    devices,
    transport: 'mqtt',
    mqttUrl: mqttUrl(),
    httpUrl,
    intervalMs: 3_600_000, // telemetry is not what this is about
    offlineRate: 0,
    failureRate: 0,
    reconnectPeriodMs: 100,
  });
  simulators.push(simulator);
  return simulator;
}

const asSimulated = (
  device: { controllerId: string; credential: string },
  programFailureRate?: number,
): SimulatedDevice => ({
  controllerId: device.controllerId,
  credential: device.credential,
  type: 'combi_oven',
  ...(programFailureRate === undefined ? {} : { programFailureRate }),
});

async function status(client: TestClient, deviceId: number): Promise<UploadStatus> {
  const res = await client.get(`/api/devices/${deviceId}/get_upload_status`);
  expect(res.statusCode).toBe(200);
  return res.json<{ data: UploadStatus }>().data;
}

/** Waits until every bind of the device is in `state` (and there are `count` of them). */
async function settled(client: TestClient, deviceId: number, state: RecipeBind['state'], count = 2) {
  let last: UploadStatus | undefined;
  await vi.waitFor(
    async () => {
      last = await status(client, deviceId);
      expect(last.binds.map((bind) => bind.state)).toEqual(Array<string>(count).fill(state));
    },
    { timeout: 15_000, interval: 50 },
  );
  return last as UploadStatus;
}

const commandReady = (controllerId: string) => t.gateway.broker?.canCommand(controllerId) === true;

describe('recipe deployment over MQTT with the simulator', () => {
  it('installs a set on two devices, fails one that corrupts its files with a CRC mismatch, and a retry installs it', async () => {
    const { client, recipes, set, devices } = await setup(3);
    const [a, b, c] = devices as [
      (typeof devices)[number],
      (typeof devices)[number],
      (typeof devices)[number],
    ];
    const simulator = simulate([asSimulated(a), asSimulated(b), asSimulated(c, 1)]);
    await vi.waitFor(() => expect(devices.every((device) => commandReady(device.controllerId))).toBe(true), {
      timeout: 10_000,
    });

    for (const device of devices) {
      const res = await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`);
      expect(res.statusCode).toBe(200);
      const answer = res.json<{ data: UploadStatus }>().data;
      expect(answer).toMatchObject({ device_id: device.id, set_id: set.id });
      expect(answer.counts).toEqual({ queued: 2, sending: 0, installed: 0, failed: 0, removing: 0 });
    }

    for (const device of [a, b]) {
      const done = await settled(client, device.id, 'installed');
      expect(done.counts.installed).toBe(2);
      for (const bind of done.binds)
        expect(bind).toMatchObject({ error: null, reported_crc: bind.crc, attempts: 1, outdated: false });
    }
    const broken = await settled(client, c.id, 'failed');
    for (const bind of broken.binds) {
      expect(bind.error).toBe('crc_mismatch');
      expect(bind.reported_crc).toMatch(/^[0-9a-f]{8}$/);
      expect(bind.reported_crc).not.toBe(bind.crc);
    }
    expect(simulator.stats().programs).toMatchObject({ stored: 6, corrupted: 2, failures: 0 });

    // What device A stored is byte for byte the recipes' program files, with the recipes' CRCs.
    const stored = simulator.programFiles(a.controllerId);
    expect([...stored.keys()].sort()).toEqual(recipes.map((recipe) => programFileName(recipe.id, 1)).sort());
    for (const recipe of recipes) {
      const bytes = stored.get(programFileName(recipe.id, 1));
      expect(bytes?.equals(recipe.file.bytes)).toBe(true);
      expect(crcHex(crc32(bytes ?? Buffer.alloc(0)))).toBe(recipe.crc);
    }

    // The corruption stops; a redeploy of the set queues the failed binds again and they install.
    simulator.setProgramFailureRate(0, [c.controllerId]);
    const retried = await client.post('/api/recipes_sets/upload', { device_id: c.id, set_id: set.id });
    expect(retried.statusCode).toBe(200);
    expect(retried.json<{ data: UploadStatus }>().data.counts.queued).toBe(2);
    const fixed = await settled(client, c.id, 'installed');
    for (const bind of fixed.binds)
      expect(bind).toMatchObject({ error: null, reported_crc: bind.crc, attempts: 2 });
    // A and B were not sent anything again.
    expect((await status(client, a.id)).binds.map((bind) => bind.attempts)).toEqual([1, 1]);
  });

  it('gives a CRC file whose CRCs are those of the bytes get_program_files downloads, set file included', async () => {
    const { client, set, devices } = await setup(1);
    const [device] = devices as [(typeof devices)[number]];
    const simulator = simulate([asSimulated(device)]);
    await vi.waitFor(() => expect(commandReady(device.controllerId)).toBe(true), { timeout: 10_000 });
    expect((await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`)).statusCode).toBe(200);
    await settled(client, device.id, 'installed');

    const crcRes = await client.get(`/api/devices/${device.id}/get_crc_file`);
    expect(crcRes.statusCode).toBe(200);
    const crcFile = crcRes.json<{ data: CrcFile }>().data;
    expect(crcFile.set?.id).toBe(set.id);
    expect(crcFile.files).toHaveLength(2);

    const zipRes = await client.post('/api/recipes_sets/get_program_files', {
      bind_ids: crcFile.files.map((file) => file.bind_id),
    });
    expect(zipRes.statusCode).toBe(200);
    expect(zipRes.headers['content-type']).toBe('application/zip');
    expect(zipRes.headers['content-disposition']).toMatch(/^attachment; filename="device-\d+-programs\.zip"/);
    const zipped = readZip(zipRes.rawPayload);
    expect([...zipped.keys()].sort()).toEqual(
      [...crcFile.files.map((file) => file.file), `set-${set.id}.kset`].sort(),
    );
    for (const file of crcFile.files) {
      const bytes = zipped.get(file.file) as Buffer;
      expect(crcHex(crc32(bytes))).toBe(file.crc);
      expect(bytes.length).toBe(file.size);
      // The very bytes the device downloaded over its own route.
      expect(simulator.programFiles(device.controllerId).get(file.file)?.equals(bytes)).toBe(true);
    }
    const setText = (zipped.get(`set-${set.id}.kset`) as Buffer).toString('utf8');
    expect(crcHex(crc32(Buffer.from(setText, 'utf8')))).toBe(crcFile.set?.crc);
    // The set file lists the files in the set's order with the CRCs of the CRC file.
    const lines = setText
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ format: 'kontrol-set/1', set: set.id, recipes: 2 });
    expect(lines.slice(1)).toEqual(
      crcFile.files.map((file) => ({ recipe: file.recipe_id, version: 1, file: file.file, crc: file.crc })),
    );

    // One bind: the file itself.
    const first = crcFile.files[0] as CrcFile['files'][number];
    const one = await client.post('/api/recipes_sets/get_program_files', { bind_ids: [first.bind_id] });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toBe('application/octet-stream');
    expect(one.headers['content-disposition']).toContain(`filename="${first.file}"`);
    expect(crcHex(crc32(one.rawPayload))).toBe(first.crc);
  });

  it('keeps the binds of a device that is not connected queued, and delivers them when it connects', async () => {
    const { client, set, devices } = await setup(1);
    const [device] = devices as [(typeof devices)[number]];
    expect(
      (await client.post('/api/recipes_sets/upload', { device_id: device.id, set_id: set.id })).statusCode,
    ).toBe(200);
    await t.gateway.programs?.kick();
    await t.gateway.programs?.kick();
    const waiting = await status(client, device.id);
    expect(waiting.binds.map((bind) => [bind.state, bind.attempts])).toEqual([
      ['queued', 0],
      ['queued', 0],
    ]);

    const simulator = simulate([asSimulated(device)]);
    await settled(client, device.id, 'installed');
    expect(simulator.programFiles(device.controllerId).size).toBe(2);
  });

  it('tells the device to delete what leaves it, and forgets the bind once the device says it did', async () => {
    const { org, client, recipes, set, devices } = await setup(1);
    const [device] = devices as [(typeof devices)[number]];
    const [roast, bread] = recipes as [(typeof recipes)[number], (typeof recipes)[number]];
    const simulator = simulate([asSimulated(device)]);
    await vi.waitFor(() => expect(commandReady(device.controllerId)).toBe(true), { timeout: 10_000 });
    expect((await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`)).statusCode).toBe(200);
    await settled(client, device.id, 'installed');

    // Another set with the roast alone: the bread goes.
    const smaller = await buildRecipeSet(t.db, org.organisationId, { recipeIds: [roast.id] });
    const res = await client.post(`/api/devices/${device.id}/recipe_set/${smaller.id}`);
    expect(res.statusCode).toBe(200);
    const answer = res.json<{ data: UploadStatus }>().data;
    expect(answer.set_id).toBe(smaller.id);
    expect(answer.binds.map((bind) => [bind.recipe_id, bind.set_id, bind.state])).toEqual([
      [roast.id, smaller.id, 'installed'],
      [bread.id, set.id, 'removing'],
    ]);
    const left = await settled(client, device.id, 'installed', 1);
    expect(left.binds[0]?.recipe_id).toBe(roast.id);
    expect([...simulator.programFiles(device.controllerId).keys()]).toEqual([programFileName(roast.id, 1)]);

    // Deleting the last bind: the device deletes its file, the bind goes.
    const removed = await client.request({
      method: 'DELETE',
      url: '/api/recipes_sets_2/delete_recipes',
      payload: { bind_ids: [left.binds[0]?.id] },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ data: { removing: [left.binds[0]?.id], deleted: [] } });
    await vi.waitFor(async () => expect((await status(client, device.id)).binds).toEqual([]), {
      timeout: 15_000,
      interval: 50,
    });
    expect(simulator.programFiles(device.controllerId).size).toBe(0);
  });

  it('fails a delivery whose device never reports once the report timeout has passed', async () => {
    const { client, recipes, set, devices } = await setup(1);
    const [device] = devices as [(typeof devices)[number]];
    // A controller that takes the command and never downloads nor reports.
    const silent = await mqtt.connectAsync(mqttUrl(), {
      clientId: device.controllerId,
      username: device.controllerId,
      password: device.credential,
      reconnectPeriod: 0,
    });
    clients.push(silent);
    const commands: unknown[] = [];
    silent.on('message', (_topic, payload) => commands.push(JSON.parse(payload.toString())));
    await silent.subscribeAsync(`kontrol/v1/${device.controllerId}/cmd`, { qos: 1 });
    await vi.waitFor(() => expect(commandReady(device.controllerId)).toBe(true));

    expect((await client.post(`/api/devices/${device.id}/recipe_set/${set.id}`)).statusCode).toBe(200);
    const sending = await settled(client, device.id, 'sending');
    await vi.waitFor(() => expect(commands).toHaveLength(1));
    const command = programsCommandSchema.parse(commands[0]);
    const crcFile = (await client.get(`/api/devices/${device.id}/get_crc_file`)).json<{ data: CrcFile }>()
      .data;
    expect(command).toMatchObject({ type: 'programs', set: crcFile.set, remove: [] });
    expect(command.install).toEqual(
      sending.binds.map((bind, index) => ({
        bind_id: bind.id,
        recipe_id: recipes[index]?.id,
        file: programFileName(recipes[index]?.id ?? 0, 1),
        crc: recipes[index]?.crc,
        size: recipes[index]?.size,
        url: `${PROGRAMS_PATH}/${bind.id}`,
      })),
    );

    // Not yet: a pass within the timeout leaves them sending.
    const dispatcher = t.gateway.programs;
    if (!dispatcher) throw new Error('the test app runs no recipe dispatcher');
    await dispatcher.runOnce(Date.now() + PROGRAM_REPORT_TIMEOUT_MS - 5_000);
    expect((await status(client, device.id)).counts.sending).toBe(2);
    const pass = await dispatcher.runOnce(Date.now() + PROGRAM_REPORT_TIMEOUT_MS + 1_000);
    expect(pass.timedOut).toBeGreaterThanOrEqual(2);
    const failed = await status(client, device.id);
    expect(failed.binds.map((bind) => [bind.state, bind.error, bind.attempts])).toEqual([
      ['failed', 'timeout', 1],
      ['failed', 'timeout', 1],
    ]);
    expect(commands).toHaveLength(1); // a failed bind is not sent again by itself
  });
});
