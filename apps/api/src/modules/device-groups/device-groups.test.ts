import type { DeviceGroup } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

type Errors = Record<string, string[]>;
interface Paged {
  data: DeviceGroup[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { current_page: number; from: number | null; last_page: number; per_page: number; total: number };
}
const GROUPS = '/api/devices/client/groups';

/** An organisation with three devices, and its admin signed in. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const devices = [
    await buildDevice(t.db, org.organisationId),
    await buildDevice(t.db, org.organisationId),
    await buildDevice(t.db, org.organisationId),
  ].map((d) => d.id);
  const create = async (body: Record<string, unknown>) => {
    const res = await client.post(`${GROUPS}/add`, body);
    expect(res.statusCode).toBe(201);
    return res.json<{ data: DeviceGroup }>().data;
  };
  return { org, client, devices, create };
}

describe('POST /api/devices/client/groups/add and GET /api/devices/client/groups/{id}', () => {
  it('creates a group with its members, duplicates dropped: 201', async () => {
    const { client, devices } = await setup();
    const [a = 0, b = 0] = devices;
    const res = await client.post(`${GROUPS}/add`, {
      name: '  Hot line ',
      description: 'Ovens and fryers',
      device_ids: [b, a, b],
    });
    expect(res.statusCode).toBe(201);
    const group = res.json<{ data: DeviceGroup }>().data;
    expect(group).toMatchObject({
      name: 'Hot line',
      description: 'Ovens and fryers',
      device_ids: [a, b],
      devices_count: 2,
    });
    const shown = await client.get(`${GROUPS}/${group.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ data: group });
  });

  it('creates an empty group when device_ids is left out', async () => {
    const { create } = await setup();
    expect(await create({ name: 'Empty' })).toMatchObject({
      description: null,
      device_ids: [],
      devices_count: 0,
    });
  });
});

describe('PUT and DELETE /api/devices/client/groups/{id}', () => {
  it('replaces name, description and the whole member list', async () => {
    const { client, devices, create } = await setup();
    const [a = 0, b = 0, c = 0] = devices;
    const group = await create({ name: 'G', description: 'd', device_ids: [a, b] });
    const res = await client.put(`${GROUPS}/${group.id}`, { name: 'G2', device_ids: [c, b] });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: DeviceGroup }>().data).toMatchObject({
      id: group.id,
      name: 'G2',
      description: null,
      device_ids: [b, c],
      devices_count: 2,
    });
    const cleared = await client.put(`${GROUPS}/${group.id}`, { name: 'G3', device_ids: [] });
    expect(cleared.json<{ data: DeviceGroup }>().data).toMatchObject({ device_ids: [], devices_count: 0 });
  });

  it('changes nothing when the new member list is refused', async () => {
    const { client, devices, create } = await setup();
    const [a = 0, b = 0] = devices;
    const group = await create({ name: 'G', device_ids: [a] });
    const res = await client.put(`${GROUPS}/${group.id}`, { name: 'Changed', device_ids: [b, 999_999] });
    expect(res.statusCode).toBe(422);
    expect((await client.get(`${GROUPS}/${group.id}`)).json<{ data: DeviceGroup }>().data).toMatchObject({
      name: 'G',
      device_ids: [a],
    });
  });

  it('deletes a group but not its devices: 204, then 404', async () => {
    const { client, devices, create } = await setup();
    const group = await create({ name: 'G', device_ids: devices });
    const res = await client.delete(`${GROUPS}/${group.id}`);
    expect(res.statusCode).toBe(204);
    expect((await client.get(`${GROUPS}/${group.id}`)).statusCode).toBe(404);
    expect((await client.delete(`${GROUPS}/${group.id}`)).statusCode).toBe(404);
    expect((await client.get(`/api/devices/${devices[0]}`)).statusCode).toBe(200);
  });

  it('loses a member when the device is deleted', async () => {
    const { client, devices, create } = await setup();
    const [a = 0, b = 0] = devices;
    const group = await create({ name: 'G', device_ids: [a, b] });
    expect((await client.delete(`/api/devices/${a}`)).statusCode).toBe(204);
    expect((await client.get(`${GROUPS}/${group.id}`)).json<{ data: DeviceGroup }>().data).toMatchObject({
      device_ids: [b],
      devices_count: 1,
    });
  });
});

describe('GET /api/devices/client/groups', () => {
  it('is not taken for a device id: a paged list of groups with members, by name', async () => {
    const { client, devices, create } = await setup();
    const [a = 0, b = 0, c = 0] = devices;
    await create({ name: 'Beta', device_ids: [c] });
    await create({ name: 'Alpha', device_ids: [a, b] });
    const theirs = await buildOrganisation(t.db);
    await t.db
      .insertInto('device_groups')
      .values({
        organisation_id: theirs.organisationId,
        name: 'Aardvark',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();

    const res = await client.get(GROUPS);
    expect(res.statusCode).toBe(200);
    const body = res.json<Paged>();
    expect(body.data.map((g) => [g.name, g.device_ids, g.devices_count])).toEqual([
      ['Alpha', [a, b], 2],
      ['Beta', [c], 1],
    ]);
    expect(body.meta).toMatchObject({ current_page: 1, total: 2, per_page: 25, last_page: 1 });
    expect(body.links.first).toBe('http://localhost:80/api/devices/client/groups?page=1');
  });

  it('pages and filters by name', async () => {
    const { client, create } = await setup();
    for (const name of ['Hot 1', 'Hot 2', 'Cold 1', 'Hot 3']) await create({ name });
    const page = (await client.get(`${GROUPS}?page=2&per_page=2`)).json<Paged>();
    expect(page.data.map((g) => g.name)).toEqual(['Hot 2', 'Hot 3']);
    expect(page.meta).toMatchObject({ current_page: 2, from: 3, to: 4, total: 4 });
    const hot = (
      await client.get(`${GROUPS}?page=1&filters[name][operator]=like&filters[name][value]=HOT`)
    ).json<Paged>();
    expect(hot.data.map((g) => g.name)).toEqual(['Hot 1', 'Hot 2', 'Hot 3']);
    const bad = await client.get(
      `${GROUPS}?filters[organisation_id][operator]=%3D&filters[organisation_id][value]=1`,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ errors: Errors }>().errors).toEqual({
      'filters.organisation_id': ['Filtering by this field is not allowed.'],
    });
  });
});

describe('validation (422)', () => {
  it("refuses another organisation's devices and missing ones as not existing", async () => {
    const { client, devices, org } = await setup();
    const theirs = await buildOrganisation(t.db);
    const theirDevice = await buildDevice(t.db, theirs.organisationId);
    for (const ids of [[devices[0], theirDevice.id], [999_999]]) {
      const res = await client.post(`${GROUPS}/add`, { name: 'G', device_ids: ids });
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: Errors }>().errors).toEqual({
        device_ids: ['The selected value does not exist.'],
      });
    }
    const groups = await t.db
      .selectFrom('device_groups')
      .select('id')
      .where('organisation_id', '=', org.organisationId)
      .execute();
    expect(groups).toEqual([]);
  });

  it.each([
    ['name', { name: ' ' }, 'This field is required.'],
    ['device_ids.0', { name: 'G', device_ids: ['x'] }, 'The value has the wrong type.'],
    ['device_ids', { name: 'G', device_ids: 5 }, 'The value has the wrong type.'],
    ['organisation_id', { name: 'G', organisation_id: 1 }, 'Unknown field.'],
  ])('%s', async (field, body, message) => {
    const { client } = await setup();
    const res = await client.post(`${GROUPS}/add`, body);
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Errors }>().errors).toEqual({ [field]: [message] });
  });
});

describe('organisation scoping and access', () => {
  it("answers 404 for another organisation's group on every {id} route, and changes nothing", async () => {
    const mine = await setup();
    const theirs = await setup();
    const group = await theirs.create({ name: 'Theirs', device_ids: theirs.devices });
    const url = `${GROUPS}/${group.id}`;
    for (const res of [
      await mine.client.get(url),
      await mine.client.put(url, { name: 'Mine now', device_ids: mine.devices }),
      await mine.client.delete(url),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
    expect((await theirs.client.get(url)).json()).toEqual({ data: group });
  });

  it('answers 404 for a group id that is not a number', async () => {
    const { client } = await setup();
    expect((await client.get(`${GROUPS}/abc`)).statusCode).toBe(404);
  });

  it('answers 403 without the devices module, 401 without a session', async () => {
    const { org, create } = await setup();
    const group = await create({ name: 'G' });
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    const denied = new TestClient(t.app);
    await denied.login(user.email, user.password);
    const guest = await TestClient.visitor(t.app);
    for (const [client, status] of [
      [denied, 403],
      [guest, 401],
    ] as const) {
      expect((await client.get(GROUPS)).statusCode).toBe(status);
      expect((await client.post(`${GROUPS}/add`, { name: 'X' })).statusCode).toBe(status);
      expect((await client.get(`${GROUPS}/${group.id}`)).statusCode).toBe(status);
      expect((await client.put(`${GROUPS}/${group.id}`, { name: 'X' })).statusCode).toBe(status);
      expect((await client.delete(`${GROUPS}/${group.id}`)).statusCode).toBe(status);
    }
  });
});
