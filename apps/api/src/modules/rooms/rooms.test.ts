import { DEFAULT_WORK_TIME, translate, type Address, type MessageKey, type Room } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();
const en = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);

type Errors = { message: string; errors: Record<string, string[]> };
type Paged = {
  data: Room[];
  links: Record<string, string | null>;
  meta: { total: number; last_page: number };
};

const unique = () => randomBytes(3).toString('hex');

async function signedIn(email: string, password: string) {
  const client = new TestClient(t.app);
  await client.login(email, password);
  return client;
}

async function organisation() {
  const org = await buildOrganisation(t.db);
  return { ...org, client: await signedIn(org.admin.email, org.admin.password) };
}

async function createAddress(client: TestClient, name = `Cafe ${unique()}`) {
  const res = await client.post('/api/addresses/', {
    name,
    full_address: 'Moscow, Tverskaya 1',
    city: 'Moscow',
    time_zone: 'Europe/Moscow',
    work_time: DEFAULT_WORK_TIME,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: Address }>().data;
}

async function createRoom(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post('/api/rooms/', { name: `Kitchen ${unique()}`, ...body });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: Room }>().data;
}

/** A device straight into its table: the devices API is not what these tests are about. */
async function insertDevice(db: Kysely<Database>, organisationId: number, roomId: number) {
  const type = await db.selectFrom('device_types').select('id').orderBy('id').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  await db
    .insertInto('devices')
    .values({
      organisation_id: organisationId,
      room_id: roomId,
      type_id: type.id,
      name: `Oven ${unique()}`,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

const countsOf = async (client: TestClient, addressId: number) => {
  const { data } = (await client.get(`/api/addresses/${addressId}`)).json<{ data: Address }>();
  return { rooms: data.rooms_count, devices: data.devices_count };
};

describe('rooms: create, read, update, delete', () => {
  it('creates a room (201) in an address of the organisation and answers it whole', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const res = await client.post('/api/rooms/', {
      name: '  Hot kitchen ',
      address_id: address.id,
      floor: '2',
      description: 'Combi ovens and fryers',
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json<{ data: Room }>();
    expect(data).toEqual({
      id: expect.any(Number) as number,
      name: 'Hot kitchen',
      address_id: address.id,
      floor: '2',
      description: 'Combi ovens and fryers',
      devices_count: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
      updated_at: data.created_at,
    });
    expect((await client.get(`/api/rooms/${data.id}`)).json()).toEqual({ data });
    expect(await countsOf(client, address.id)).toEqual({ rooms: 1, devices: 0 });
  });

  it('stores a missing or blank floor and description as null', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const bare = await createRoom(client, { address_id: address.id });
    expect(bare).toMatchObject({ floor: null, description: null });
    const blank = await createRoom(client, { address_id: address.id, floor: '  ', description: '' });
    expect(blank).toMatchObject({ floor: null, description: null });
  });

  it('replaces the fields with PUT; a new address_id moves the room with its devices', async () => {
    const { client, organisationId } = await organisation();
    const from = await createAddress(client);
    const to = await createAddress(client);
    const room = await createRoom(client, { address_id: from.id, floor: '1' });
    await insertDevice(t.db, organisationId, room.id);

    const res = await client.put(`/api/rooms/${room.id}`, { name: 'Bar', address_id: to.id });
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Room }>();
    expect(data).toMatchObject({
      id: room.id,
      name: 'Bar',
      address_id: to.id,
      floor: null,
      description: null,
      devices_count: 1,
      created_at: room.created_at,
    });
    expect((await client.get(`/api/rooms/${room.id}`)).json()).toEqual({ data });
    expect(await countsOf(client, from.id)).toEqual({ rooms: 0, devices: 0 });
    expect(await countsOf(client, to.id)).toEqual({ rooms: 1, devices: 1 });
  });

  it('deletes a room without devices (204)', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const room = await createRoom(client, { address_id: address.id });
    const res = await client.delete(`/api/rooms/${room.id}`);
    expect([res.statusCode, res.body]).toEqual([204, '']);
    expect((await client.get(`/api/rooms/${room.id}`)).statusCode).toBe(404);
    expect(await countsOf(client, address.id)).toEqual({ rooms: 0, devices: 0 });
  });

  it('refuses to delete a room that still has devices (422 on `room`)', async () => {
    const { client, organisationId } = await organisation();
    const address = await createAddress(client);
    const room = await createRoom(client, { address_id: address.id });
    await insertDevice(t.db, organisationId, room.id);
    await insertDevice(t.db, organisationId, room.id);
    expect((await client.get(`/api/rooms/${room.id}`)).json<{ data: Room }>().data.devices_count).toBe(2);

    const res = await client.delete(`/api/rooms/${room.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: en('validation.failed'),
      errors: { room: [en('room.has_devices')] },
    });
    expect((await client.get(`/api/rooms/${room.id}`)).statusCode).toBe(200);
  });
});

describe('rooms: the address must be one of the organisation', () => {
  it("refuses another organisation's address, or one that does not exist, with 422 on address_id", async () => {
    const mine = await organisation();
    const theirs = await organisation();
    const myAddress = await createAddress(mine.client);
    const theirAddress = await createAddress(theirs.client);
    const room = await createRoom(mine.client, { address_id: myAddress.id });
    const exists = { address_id: [en('field.exists')] };

    for (const addressId of [theirAddress.id, 2_147_483_647]) {
      const created = await mine.client.post('/api/rooms/', { name: 'Sneaky', address_id: addressId });
      expect(created.statusCode).toBe(422);
      expect(created.json<Errors>()).toEqual({ message: en('validation.failed'), errors: exists });
      const moved = await mine.client.put(`/api/rooms/${room.id}`, { name: 'Sneaky', address_id: addressId });
      expect([moved.statusCode, moved.json<Errors>().errors]).toEqual([422, exists]);
    }
    expect((await mine.client.get(`/api/rooms/${room.id}`)).json<{ data: Room }>().data.address_id).toBe(
      myAddress.id,
    );
    expect(await countsOf(theirs.client, theirAddress.id)).toEqual({ rooms: 0, devices: 0 });
  });
});

describe('rooms: validation (422 per field)', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['an empty name', { name: '' }, 'name', en('field.required')],
    ['a missing address_id', { address_id: undefined }, 'address_id', en('field.required')],
    ['an address_id that is not a number', { address_id: 'one' }, 'address_id', en('field.type')],
    ['a floor too long', { floor: 'x'.repeat(51) }, 'floor', en('field.string_max', { max: 50 })],
    ['an unknown field', { organisation_id: 1 }, 'organisation_id', en('field.unknown_key')],
  ];

  it.each(cases)('refuses %s on create and on update', async (_label, change, field, message) => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const body = { name: 'Kitchen', address_id: address.id, ...change };
    const created = await client.post('/api/rooms/', body);
    expect(created.statusCode).toBe(422);
    expect(created.json<Errors>()).toEqual({
      message: en('validation.failed'),
      errors: { [field]: [message] },
    });

    const room = await createRoom(client, { address_id: address.id });
    const updated = await client.put(`/api/rooms/${room.id}`, body);
    expect([updated.statusCode, updated.json<Errors>().errors]).toEqual([422, { [field]: [message] }]);
    expect((await client.get(`/api/rooms/${room.id}`)).json()).toEqual({ data: room });
  });
});

describe('rooms: lists', () => {
  it('answers the whole list as {data} ordered by name without `page`, never with another organisation’s rooms', async () => {
    const mine = await organisation();
    const theirs = await organisation();
    const address = await createAddress(mine.client);
    for (const name of ['Storage', 'Bar', 'Kitchen'])
      await createRoom(mine.client, { name, address_id: address.id });
    const theirAddress = await createAddress(theirs.client);
    await createRoom(theirs.client, { name: 'Attic (theirs)', address_id: theirAddress.id });

    const res = await mine.client.get('/api/rooms/');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: Room[] }>();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((r) => r.name)).toEqual(['Bar', 'Kitchen', 'Storage']);
    expect((await theirs.client.get('/api/rooms/')).json<{ data: Room[] }>().data.map((r) => r.name)).toEqual(
      ['Attic (theirs)'],
    );
  });

  it('pages when `page` is given, and filters by address_id (=, in) and name (like)', async () => {
    const { client } = await organisation();
    const first = await createAddress(client);
    const second = await createAddress(client);
    const third = await createAddress(client);
    for (const name of ['Bar', 'Kitchen', 'Storage'])
      await createRoom(client, { name, address_id: first.id });
    await createRoom(client, { name: 'Cold kitchen', address_id: second.id });
    await createRoom(client, { name: 'Office', address_id: third.id });

    const paged = (await client.get('/api/rooms/?page=2&per_page=2')).json<Paged>();
    expect(paged.data.map((r) => r.name)).toEqual(['Kitchen', 'Office']);
    expect(paged.meta).toMatchObject({ total: 5, last_page: 3 });
    expect(paged.links.next).toBe('http://localhost:80/api/rooms/?page=3&per_page=2');

    const names = async (query: string) =>
      (await client.get(`/api/rooms/?${query}`)).json<{ data: Room[] }>().data.map((r) => r.name);
    expect(await names(`filters[address_id][operator]==&filters[address_id][value]=${first.id}`)).toEqual([
      'Bar',
      'Kitchen',
      'Storage',
    ]);
    expect(
      await names(
        `filters[address_id][operator]=in&filters[address_id][value][]=${second.id}&filters[address_id][value][]=${third.id}`,
      ),
    ).toEqual(['Cold kitchen', 'Office']);
    expect(await names('filters[name][operator]=like&filters[name][value]=KITCHEN')).toEqual([
      'Cold kitchen',
      'Kitchen',
    ]);
    const bad = await client.get('/api/rooms/?filters[floor][operator]==&filters[floor][value]=1');
    expect([bad.statusCode, bad.json<Errors>().errors]).toEqual([
      422,
      { 'filters.floor': [en('filter.field')] },
    ]);
  });
});

describe('rooms: organisations, modules and sessions', () => {
  it("answers 404 for another organisation's room on GET, PUT and DELETE, and leaves it alone", async () => {
    const mine = await organisation();
    const theirs = await organisation();
    const myAddress = await createAddress(mine.client);
    const theirAddress = await createAddress(theirs.client);
    const their = await createRoom(theirs.client, { name: 'Theirs', address_id: theirAddress.id });
    const notFound = { message: en('http.not_found') };

    const get = await mine.client.get(`/api/rooms/${their.id}`);
    expect([get.statusCode, get.json()]).toEqual([404, notFound]);
    const put = await mine.client.put(`/api/rooms/${their.id}`, {
      name: 'Mine now',
      address_id: myAddress.id,
    });
    expect([put.statusCode, put.json()]).toEqual([404, notFound]);
    const del = await mine.client.delete(`/api/rooms/${their.id}`);
    expect([del.statusCode, del.json()]).toEqual([404, notFound]);
    const missing = await mine.client.get('/api/rooms/2147483647');
    expect([missing.statusCode, missing.json()]).toEqual([404, notFound]);

    expect((await theirs.client.get(`/api/rooms/${their.id}`)).json()).toEqual({ data: their });
  });

  it('answers 403 without the addresses module on every route, 401 without a session', async () => {
    const { client, organisationId } = await organisation();
    const address = await createAddress(client);
    const room = await createRoom(client, { address_id: address.id });
    const user = await buildUser(t.db, organisationId, { modules: ['devices'] });
    const denied = await signedIn(user.email, user.password);
    const body = { name: 'X', address_id: address.id };
    const forbidden = { message: en('http.forbidden') };
    for (const res of [
      await denied.get('/api/rooms/'),
      await denied.post('/api/rooms/', body),
      await denied.get(`/api/rooms/${room.id}`),
      await denied.put(`/api/rooms/${room.id}`, body),
      await denied.delete(`/api/rooms/${room.id}`),
    ]) {
      expect([res.statusCode, res.json()]).toEqual([403, forbidden]);
    }

    const visitor = await TestClient.visitor(t.app);
    for (const res of [
      await visitor.get('/api/rooms/'),
      await visitor.post('/api/rooms/', body),
      await visitor.get(`/api/rooms/${room.id}`),
      await visitor.put(`/api/rooms/${room.id}`, body),
      await visitor.delete(`/api/rooms/${room.id}`),
    ]) {
      expect([res.statusCode, res.json()]).toEqual([401, { message: en('http.unauthenticated') }]);
    }
  });
});
