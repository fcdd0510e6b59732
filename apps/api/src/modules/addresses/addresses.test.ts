import {
  DEFAULT_WORK_TIME,
  translate,
  type Address,
  type AddressBody,
  type MessageKey,
} from '@kontrol/contracts';
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
  data: Address[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { current_page: number; from: number | null; last_page: number; per_page: number; total: number };
};

const unique = () => randomBytes(3).toString('hex');

function addressBody(overrides: Partial<AddressBody> = {}): AddressBody {
  return {
    name: `Cafe ${unique()}`,
    full_address: 'Moscow, Tverskaya 1',
    city: 'Moscow',
    time_zone: 'Europe/Moscow',
    work_time: DEFAULT_WORK_TIME,
    ...overrides,
  };
}

async function signedIn(email: string, password: string) {
  const client = new TestClient(t.app);
  await client.login(email, password);
  return client;
}

/** An organisation and its admin's browser. */
async function organisation() {
  const org = await buildOrganisation(t.db);
  return { ...org, client: await signedIn(org.admin.email, org.admin.password) };
}

async function createAddress(client: TestClient, overrides: Partial<AddressBody> = {}) {
  const res = await client.post('/api/addresses/', addressBody(overrides));
  expect(res.statusCode).toBe(201);
  return res.json<{ data: Address }>().data;
}

async function createRoom(client: TestClient, addressId: number, name = `Kitchen ${unique()}`) {
  const res = await client.post('/api/rooms/', { name, address_id: addressId });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: { id: number } }>().data;
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

describe('addresses: create, read, update, delete', () => {
  it('creates an address (201) and answers it whole, counts and image included', async () => {
    const { client } = await organisation();
    const body = addressBody({ name: 'Bistro on Arbat', latitude: 55.75, longitude: 37.59 });
    const res = await client.post('/api/addresses/', body);
    expect(res.statusCode).toBe(201);
    const { data } = res.json<{ data: Address }>();
    expect(data).toEqual({
      id: expect.any(Number) as number,
      name: 'Bistro on Arbat',
      full_address: 'Moscow, Tverskaya 1',
      city: 'Moscow',
      time_zone: 'Europe/Moscow',
      work_time: DEFAULT_WORK_TIME,
      latitude: 55.75,
      longitude: 37.59,
      image_url: null,
      rooms_count: 0,
      devices_count: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
      updated_at: data.created_at,
    });
    const read = await client.get(`/api/addresses/${data.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data });
  });

  it('trims text, stores coordinates as null when left out, and keeps closed days and overnight hours', async () => {
    const { client } = await organisation();
    const workTime = { ...DEFAULT_WORK_TIME, sat: null, sun: { open: '22:00', close: '02:00' } };
    const data = await createAddress(client, { name: '  Night bar  ', work_time: workTime });
    expect(data).toMatchObject({ name: 'Night bar', latitude: null, longitude: null, work_time: workTime });
  });

  it('replaces the fields with PUT and answers the updated address', async () => {
    const { client } = await organisation();
    const created = await createAddress(client);
    const changed = addressBody({
      name: 'Renamed',
      city: 'Kazan',
      time_zone: 'Europe/Samara',
      work_time: { ...DEFAULT_WORK_TIME, mon: { open: '07:30', close: '23:00' } },
      latitude: 55.79,
      longitude: 49.12,
    });
    const res = await client.put(`/api/addresses/${created.id}`, changed);
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Address }>();
    expect(data).toMatchObject({ ...changed, id: created.id, created_at: created.created_at });
    expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect((await client.get(`/api/addresses/${created.id}`)).json()).toEqual({ data });
  });

  it('deletes an address without rooms (204); it is gone afterwards', async () => {
    const { client } = await organisation();
    const created = await createAddress(client);
    const res = await client.delete(`/api/addresses/${created.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await client.get(`/api/addresses/${created.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/addresses/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses to delete an address that still has rooms (422 on `address`), and deletes it once they are gone', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const room = await createRoom(client, address.id);
    const refused = await client.delete(`/api/addresses/${address.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: en('validation.failed'),
      errors: { address: [en('address.has_rooms')] },
    });
    expect((await client.get(`/api/addresses/${address.id}`)).statusCode).toBe(200);

    expect((await client.delete(`/api/rooms/${room.id}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/addresses/${address.id}`)).statusCode).toBe(204);
  });

  it('answers the refusal in Russian to a Russian request', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    await createRoom(client, address.id);
    const refused = await client.delete(`/api/addresses/${address.id}`, { 'accept-language': 'ru' });
    expect(refused.json<Errors>().errors.address).toEqual([translate('ru', 'address.has_rooms')]);
  });
});

describe('addresses: rooms_count and devices_count', () => {
  it('counts rooms and the devices in them, per address', async () => {
    const { client, organisationId } = await organisation();
    const busy = await createAddress(client, { name: 'A busy' });
    const quiet = await createAddress(client, { name: 'B quiet' });
    const kitchen = await createRoom(client, busy.id);
    const bar = await createRoom(client, busy.id);
    await createRoom(client, quiet.id);
    await insertDevice(t.db, organisationId, kitchen.id);
    await insertDevice(t.db, organisationId, kitchen.id);
    await insertDevice(t.db, organisationId, bar.id);

    const one = (await client.get(`/api/addresses/${busy.id}`)).json<{ data: Address }>().data;
    expect(one).toMatchObject({ rooms_count: 2, devices_count: 3 });
    const list = (await client.get('/api/addresses/')).json<{ data: Address[] }>().data;
    expect(list.map((a) => [a.name, a.rooms_count, a.devices_count])).toEqual([
      ['A busy', 2, 3],
      ['B quiet', 1, 0],
    ]);
    const paged = (await client.get('/api/addresses/?page=1')).json<Paged>().data;
    expect(paged.map((a) => [a.rooms_count, a.devices_count])).toEqual([
      [2, 3],
      [1, 0],
    ]);
  });

  it('refuses to delete an address whose rooms hold devices', async () => {
    const { client, organisationId } = await organisation();
    const address = await createAddress(client);
    const room = await createRoom(client, address.id);
    await insertDevice(t.db, organisationId, room.id);
    const refused = await client.delete(`/api/addresses/${address.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<Errors>().errors).toEqual({ address: [en('address.has_rooms')] });
  });
});

describe('addresses: lists', () => {
  it('answers the whole list as {data} ordered by name without `page`, and never another organisation’s', async () => {
    const mine = await organisation();
    const theirs = await organisation();
    for (const name of ['Cafe C', 'Cafe A', 'Cafe B']) await createAddress(mine.client, { name });
    await createAddress(theirs.client, { name: 'Cafe AA (theirs)' });

    const res = await mine.client.get('/api/addresses/');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: Address[] }>();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((a) => a.name)).toEqual(['Cafe A', 'Cafe B', 'Cafe C']);

    const theirList = (await theirs.client.get('/api/addresses/')).json<{ data: Address[] }>();
    expect(theirList.data.map((a) => a.name)).toEqual(['Cafe AA (theirs)']);
  });

  it("pages with Laravel's data, links and meta when `page` is given", async () => {
    const { client } = await organisation();
    for (let i = 1; i <= 5; i += 1) await createAddress(client, { name: `Site ${i}` });
    const res = await client.get('/api/addresses/?page=2&per_page=2');
    expect(res.statusCode).toBe(200);
    const body = res.json<Paged>();
    expect(body.data.map((a) => a.name)).toEqual(['Site 3', 'Site 4']);
    expect(body.meta).toMatchObject({ current_page: 2, from: 3, last_page: 3, per_page: 2, total: 5 });
    expect(body.links).toEqual({
      first: 'http://localhost:80/api/addresses/?page=1&per_page=2',
      last: 'http://localhost:80/api/addresses/?page=3&per_page=2',
      prev: 'http://localhost:80/api/addresses/?page=1&per_page=2',
      next: 'http://localhost:80/api/addresses/?page=3&per_page=2',
    });
  });

  it('filters by name and city (like), id (in) and time zone, in both modes', async () => {
    const { client } = await organisation();
    const kazan = await createAddress(client, {
      name: 'Kazan Central',
      city: 'Kazan',
      time_zone: 'Europe/Moscow',
    });
    const samara = await createAddress(client, {
      name: 'Samara Park',
      city: 'Samara',
      time_zone: 'Europe/Samara',
    });
    await createAddress(client, { name: 'Moscow Arbat', city: 'Moscow' });

    const names = async (query: string) =>
      (await client.get(`/api/addresses/?${query}`)).json<{ data: Address[] }>().data.map((a) => a.name);
    expect(await names('filters[name][operator]=like&filters[name][value]=central')).toEqual([
      'Kazan Central',
    ]);
    expect(await names('filters[city][operator]=like&filters[city][value]=SAM')).toEqual(['Samara Park']);
    expect(
      await names(
        `filters[id][operator]=in&filters[id][value][]=${kazan.id}&filters[id][value][]=${samara.id}`,
      ),
    ).toEqual(['Kazan Central', 'Samara Park']);
    expect(await names('filters[time_zone][operator]==&filters[time_zone][value]=Europe/Samara')).toEqual([
      'Samara Park',
    ]);
    expect(await names('page=1&filters[city][operator]==&filters[city][value]=Moscow')).toEqual([
      'Moscow Arbat',
    ]);
  });

  it('refuses filters off the whitelist with 422', async () => {
    const { client } = await organisation();
    const res = await client.get(
      '/api/addresses/?filters[organisation_id][operator]==&filters[organisation_id][value]=1',
    );
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ 'filters.organisation_id': [en('filter.field')] });
    const operator = await client.get('/api/addresses/?filters[name][operator]=>&filters[name][value]=a');
    expect(operator.json<Errors>().errors).toEqual({ 'filters.name': [en('filter.operator')] });
  });
});

describe('addresses: validation (422 per field)', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['an empty name', { name: '   ' }, 'name', en('field.required')],
    ['a missing city', { city: undefined }, 'city', en('field.required')],
    ['an unknown time zone', { time_zone: 'Mars/Base' }, 'time_zone', en('field.time_zone')],
    [
      'an hour past 23',
      { work_time: { ...DEFAULT_WORK_TIME, mon: { open: '25:00', close: '21:00' } } },
      'work_time.mon.open',
      en('field.time_of_day'),
    ],
    [
      'equal opening and closing times',
      { work_time: { ...DEFAULT_WORK_TIME, tue: { open: '10:00', close: '10:00' } } },
      'work_time.tue.close',
      en('field.work_time_equal'),
    ],
    [
      'a missing weekday',
      { work_time: { ...DEFAULT_WORK_TIME, sun: undefined } },
      'work_time.sun',
      en('field.required'),
    ],
    ['a latitude without a longitude', { latitude: 55.7 }, 'longitude', en('field.coordinates_pair')],
    [
      'a latitude out of range',
      { latitude: 91, longitude: 10 },
      'latitude',
      en('field.number_max', { max: 90 }),
    ],
    ['an unknown field', { organisation_id: 1 }, 'organisation_id', en('field.unknown_key')],
    ['a name too long', { name: 'x'.repeat(256) }, 'name', en('field.string_max', { max: 255 })],
  ];

  it.each(cases)(
    'refuses %s on create and on update, naming the field',
    async (_label, change, field, message) => {
      const { client } = await organisation();
      const body = { ...addressBody(), ...change };
      const created = await client.post('/api/addresses/', body);
      expect(created.statusCode).toBe(422);
      expect(created.json<Errors>()).toEqual({
        message: en('validation.failed'),
        errors: { [field]: [message] },
      });

      const address = await createAddress(client);
      const updated = await client.put(`/api/addresses/${address.id}`, body);
      expect(updated.statusCode).toBe(422);
      expect(updated.json<Errors>().errors).toEqual({ [field]: [message] });
      expect((await client.get(`/api/addresses/${address.id}`)).json()).toEqual({ data: address });
    },
  );

  it('answers 422 for an id that is not a number', async () => {
    const { client } = await organisation();
    const res = await client.get('/api/addresses/abc');
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<Errors>().errors)).toEqual(['id']);
  });
});

describe('addresses: organisations, modules and sessions', () => {
  it("answers 404 for another organisation's address on GET, PUT and DELETE, and leaves it alone", async () => {
    const mine = await organisation();
    const theirs = await organisation();
    const their = await createAddress(theirs.client, { name: 'Theirs' });
    const notFound = { message: en('http.not_found') };

    const get = await mine.client.get(`/api/addresses/${their.id}`);
    expect([get.statusCode, get.json()]).toEqual([404, notFound]);
    const put = await mine.client.put(`/api/addresses/${their.id}`, addressBody({ name: 'Hijacked' }));
    expect([put.statusCode, put.json()]).toEqual([404, notFound]);
    const del = await mine.client.delete(`/api/addresses/${their.id}`);
    expect([del.statusCode, del.json()]).toEqual([404, notFound]);
    // Exactly as for an id that does not exist at all.
    const missing = await mine.client.get('/api/addresses/2147483647');
    expect([missing.statusCode, missing.json()]).toEqual([404, notFound]);

    expect((await theirs.client.get(`/api/addresses/${their.id}`)).json()).toEqual({ data: their });
  });

  it('answers 403 to a user without the addresses module on every route, and lets one with it in', async () => {
    const { client: admin, organisationId } = await organisation();
    const address = await createAddress(admin);
    const without = await buildUser(t.db, organisationId, { modules: ['dashboard', 'devices'] });
    const withIt = await buildUser(t.db, organisationId, { modules: ['addresses'] });
    const denied = await signedIn(without.email, without.password);
    const forbidden = { message: en('http.forbidden') };

    const answers = [
      await denied.get('/api/addresses/'),
      await denied.post('/api/addresses/', addressBody()),
      await denied.get(`/api/addresses/${address.id}`),
      await denied.put(`/api/addresses/${address.id}`, addressBody()),
      await denied.delete(`/api/addresses/${address.id}`),
    ];
    for (const res of answers) expect([res.statusCode, res.json()]).toEqual([403, forbidden]);

    const allowed = await signedIn(withIt.email, withIt.password);
    expect((await allowed.get('/api/addresses/')).statusCode).toBe(200);
    expect((await allowed.get(`/api/addresses/${address.id}`)).statusCode).toBe(200);
  });

  it('lets a holder of requests read the list (a complaint names an address) and nothing more', async () => {
    const { client: admin, organisationId } = await organisation();
    const address = await createAddress(admin);
    const clerk = await buildUser(t.db, organisationId, { modules: ['requests'] });
    const client = await signedIn(clerk.email, clerk.password);
    const list = await client.get('/api/addresses/');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: { id: number }[] }>().data.map((a) => a.id)).toEqual([address.id]);
    for (const res of [
      await client.post('/api/addresses/', addressBody()),
      await client.get(`/api/addresses/${address.id}`),
      await client.put(`/api/addresses/${address.id}`, addressBody()),
      await client.delete(`/api/addresses/${address.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
    }
  });

  it('answers 401 without a session, 419 without the CSRF token', async () => {
    const { client } = await organisation();
    const address = await createAddress(client);
    const visitor = await TestClient.visitor(t.app);
    for (const res of [
      await visitor.get('/api/addresses/'),
      await visitor.get(`/api/addresses/${address.id}`),
      await visitor.post('/api/addresses/', addressBody()),
      await visitor.put(`/api/addresses/${address.id}`, addressBody()),
      await visitor.delete(`/api/addresses/${address.id}`),
    ]) {
      expect([res.statusCode, res.json()]).toEqual([401, { message: en('http.unauthenticated') }]);
    }
    client.sendXsrf = false;
    expect((await client.post('/api/addresses/', addressBody())).statusCode).toBe(419);
  });
});
