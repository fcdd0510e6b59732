import type { Device, DeviceWithCredential } from '@kontrol/contracts';
import { describe, expect, it, vi } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { buildDevice, buildOrganisation, buildRoom, buildTemplate, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { insertDevice } from './devices.repository.js';
import { LIVE_FIELDS_FRESH_MS, LIVE_FIELDS_STALE_MS, WHOLE_LIST_ROWS_FRESH_MS } from './devices.routes.js';
import { verifyDeviceCredential } from './devices.service.js';

/** The statements the API ran, to tell which reads an answer took. */
const statements: string[] = [];
const t = useTestApp({
  dbLog: (event) => {
    if (event.level === 'query') statements.push(event.query.sql);
  },
});

type Errors = Record<string, string[]>;
interface Paged {
  data: Device[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { current_page: number; from: number | null; last_page: number; per_page: number; total: number };
}

async function typeId(slug: string) {
  const row = await t.db
    .selectFrom('device_types')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An organisation with one room, and its admin signed in. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const room = await buildRoom(t.db, org.organisationId);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const combi = await typeId('combi_oven');
  const body = (extra: Record<string, unknown> = {}) => ({
    name: 'Combi 1',
    type_id: combi,
    room_id: room.id,
    ...extra,
  });
  return { org, room, client, combi, body };
}

let controllerCounter = 0;
const newControllerId = () => `ctl-${Date.now().toString(36)}-${controllerCounter++}`;

async function storedHash(deviceId: number) {
  const row = await t.db
    .selectFrom('devices')
    .select('credential_hash')
    .where('id', '=', deviceId)
    .executeTakeFirstOrThrow();
  return row.credential_hash;
}

describe('POST /api/devices/ and GET /api/devices/{id}', () => {
  it('creates a plain device: 201 with every field, no credential', async () => {
    const { client, room, combi, body } = await setup();
    const res = await client.post(
      '/api/devices/',
      body({
        name: '  Combi 1 ',
        serial_number: 'SN-001',
        shift_start: '07:30',
        wash_interval_hours: 24,
        service_interval_days: 90,
        next_service_date: '2026-03-01',
        notes: 'Near the window',
      }),
    );
    expect(res.statusCode).toBe(201);
    const created = res.json<{ data: DeviceWithCredential }>().data;
    expect(created).toMatchObject({
      name: 'Combi 1',
      type_id: combi,
      room_id: room.id,
      address_id: room.addressId,
      serial_number: 'SN-001',
      controller_id: null,
      template_id: null,
      is_smart: false,
      shift_start: '07:30',
      wash_interval_hours: 24,
      service_interval_days: 90,
      next_service_date: '2026-03-01',
      notes: 'Near the window',
      last_online: { last_utc: null },
      work_start: { date: null, start: null },
      has_credential: false,
      credential_issued_at: null,
      credential: null,
    });
    expect(await storedHash(created.id)).toBeNull();

    const shown = await client.get(`/api/devices/${created.id}`);
    expect(shown.statusCode).toBe(200);
    const { credential, ...withoutCredential } = created;
    expect(credential).toBeNull();
    expect(shown.json()).toEqual({ data: withoutCredential });
  });

  it('reads last_online and work_start from what the gateway stores', async () => {
    const { client, org, room } = await setup();
    const device = await buildDevice(t.db, org.organisationId, {
      room_id: room.id,
      controller_id: newControllerId(),
      last_online_at: '2026-01-10T08:00:00.000Z',
      work_start_date: '2026-01-10',
      work_start_time: '07:12',
    });
    const shown = (await client.get(`/api/devices/${device.id}`)).json<{ data: Device }>().data;
    expect(shown).toMatchObject({
      is_smart: true,
      last_online: { last_utc: '2026-01-10T08:00:00.000Z' },
      work_start: { date: '2026-01-10', start: '07:12' },
    });
  });
});

describe('GET /api/devices/ kept with its live fields', () => {
  it('shows what the gateway wrote within a window and a build; past a minute it waits for a new list', async () => {
    const { org, client } = await setup();
    const device = await buildDevice(t.db, org.organisationId, {
      last_online_at: '2026-11-27T08:00:00.000Z',
    });
    const lastOnline = async () => {
      const res = await client.get('/api/devices/');
      expect(res.statusCode).toBe(200);
      return res.json<{ data: Device[] }>().data.find((d) => d.id === device.id)?.last_online.last_utc;
    };
    const write = (at: string) =>
      t.db
        .updateTable('device_live')
        .set({ last_online_at: at })
        .where('device_id', '=', device.id)
        .execute();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Math.ceil(Date.now() / LIVE_FIELDS_FRESH_MS) * LIVE_FIELDS_FRESH_MS;
      vi.setSystemTime(start);
      expect(await lastOnline()).toBe('2026-11-27T08:00:00.000Z');
      await write('2026-11-27T08:01:00.000Z');
      // The same window: the kept list.
      expect(await lastOnline()).toBe('2026-11-27T08:00:00.000Z');
      // Three windows on, within a minute: the kept list goes out while the next is built.
      vi.setSystemTime(start + 3 * LIVE_FIELDS_FRESH_MS);
      expect(await lastOnline()).toBe('2026-11-27T08:00:00.000Z');
      await vi.waitFor(async () => expect(await lastOnline()).toBe('2026-11-27T08:01:00.000Z'));
      // More than a minute past the kept list's window: the request waits for a new one.
      await write('2026-11-27T08:02:00.000Z');
      vi.setSystemTime(start + 4 * LIVE_FIELDS_FRESH_MS + LIVE_FIELDS_STALE_MS + 1);
      expect(await lastOnline()).toBe('2026-11-27T08:02:00.000Z');
    } finally {
      vi.useRealTimers();
    }
  });
  it('reads the whole list once a minute and what the gateway wrote every window (the stat too), and a fleet change at once', async () => {
    const { org, client } = await setup();
    const device = await buildDevice(t.db, org.organisationId, {
      last_online_at: '2026-11-27T08:00:00.000Z',
    });
    // The list's own statement reads the devices' columns; what the gateway wrote is read alone.
    const rowReads = () => statements.filter((q) => q.includes('"devices"."serial_number"')).length;
    const liveReads = () => statements.filter((q) => /^select "device_live"."device_id"/.test(q)).length;
    const whole = async () => {
      const res = await client.get('/api/devices/');
      expect(res.statusCode).toBe(200);
      return res.json<{ data: Device[] }>().data.find((d) => d.id === device.id);
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Math.ceil(Date.now() / WHOLE_LIST_ROWS_FRESH_MS) * WHOLE_LIST_ROWS_FRESH_MS;
      vi.setSystemTime(start);
      statements.length = 0;
      expect((await whole())?.last_online.last_utc).toBe('2026-11-27T08:00:00.000Z');
      expect([rowReads(), liveReads()]).toEqual([1, 1]);
      // The dashboard's stat in the same window builds on the same read of what the gateway wrote.
      expect((await client.get('/api/devices/stat')).statusCode).toBe(200);
      expect(liveReads()).toBe(1);
      // A new window lays what the gateway wrote over the rows already read.
      await t.db
        .updateTable('device_live')
        .set({ last_online_at: '2026-11-27T08:01:00.000Z' })
        .where('device_id', '=', device.id)
        .execute();
      vi.setSystemTime(start + LIVE_FIELDS_FRESH_MS);
      await whole();
      await vi.waitFor(async () =>
        expect((await whole())?.last_online.last_utc).toBe('2026-11-27T08:01:00.000Z'),
      );
      expect([rowReads(), liveReads()]).toEqual([1, 2]);
      // A rename, written past the API, moves the fleet's counter: shown at once.
      await t.db
        .updateTable('devices')
        .set({ name: 'Пароконвектомат 2' })
        .where('id', '=', device.id)
        .execute();
      expect((await whole())?.name).toBe('Пароконвектомат 2');
      expect(rowReads()).toBe(2);
      // A page reads as before, whatever the parts kept.
      const paged = await client.get('/api/devices/?page=1');
      expect(paged.json<Paged>().data.find((d) => d.id === device.id)?.last_online.last_utc).toBe(
        '2026-11-27T08:01:00.000Z',
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('gateway credential', () => {
  it('issues one to a smart device, shown once and stored only as its SHA-256', async () => {
    const { client, body } = await setup();
    const controllerId = newControllerId();
    const res = await client.post('/api/devices/', body({ controller_id: controllerId }));
    expect(res.statusCode).toBe(201);
    const created = res.json<{ data: DeviceWithCredential }>().data;
    expect(created.is_smart).toBe(true);
    expect(created.has_credential).toBe(true);
    expect(created.credential_issued_at).not.toBeNull();
    expect(created.credential).toMatch(/^kdc_[A-Za-z0-9_-]{43}$/);
    const secret = created.credential ?? '';

    expect(await storedHash(created.id)).toBe(sha256(secret));
    const shown = await client.get(`/api/devices/${created.id}`);
    expect(shown.body).not.toContain(secret);
    expect(shown.json<{ data: Record<string, unknown> }>().data).not.toHaveProperty('credential');
    const listed = await client.get('/api/devices/');
    expect(listed.body).not.toContain(secret);
    expect(listed.body).not.toContain(sha256(secret));

    expect(await verifyDeviceCredential(t.db, created.id, secret)).toMatchObject({ deviceId: created.id });
    expect(await verifyDeviceCredential(t.db, controllerId, secret)).toMatchObject({ deviceId: created.id });
    expect(await verifyDeviceCredential(t.db, created.id, `${secret}x`)).toBeNull();
    expect(await verifyDeviceCredential(t.db, created.id, '')).toBeNull();
    expect(await verifyDeviceCredential(t.db, 'no-such-controller', secret)).toBeNull();
    expect(await verifyDeviceCredential(t.db, created.id + 100_000, secret)).toBeNull();
  });

  it('counts a current template alone as smart', async () => {
    const { client, body, org } = await setup();
    const template = await buildTemplate(t.db, org.organisationId);
    const created = (await client.post('/api/devices/', body({ template_id: template.id }))).json<{
      data: DeviceWithCredential;
    }>().data;
    expect(created).toMatchObject({ is_smart: true, template_id: template.id, has_credential: true });
    expect(created.credential).toMatch(/^kdc_/);
  });

  it('refuses a template of another organisation, of another type, or tuned for another device', async () => {
    const { client, body, org } = await setup();
    const theirs = await buildOrganisation(t.db);
    const foreign = await buildTemplate(t.db, theirs.organisationId);
    const fryerTemplate = await buildTemplate(t.db, org.organisationId, { typeId: await typeId('fryer') });
    const other = await buildDevice(t.db, org.organisationId);
    const tuned = await buildTemplate(t.db, org.organisationId, { deviceId: other.id });
    for (const [templateId, message] of [
      [foreign.id, 'The selected value does not exist.'],
      [
        fryerTemplate.id,
        'This equipment is of another type: a template describes the current of its own type only.',
      ],
      [tuned.id, 'This template is tuned for one device and cannot be given to others.'],
    ] as const) {
      const res = await client.post('/api/devices/', body({ template_id: templateId }), {
        'accept-language': 'en',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors.template_id).toEqual([message]);
    }
    const own = await client.put(`/api/devices/${other.id}`, body({ template_id: tuned.id }));
    expect(own.statusCode).toBe(200);
  });

  it('rotates: the new secret is answered once and the old one stops working', async () => {
    const { client, body } = await setup();
    const created = (await client.post('/api/devices/', body({ controller_id: newControllerId() }))).json<{
      data: DeviceWithCredential;
    }>().data;
    const old = created.credential ?? '';

    const res = await client.post(`/api/devices/${created.id}/credential`);
    expect(res.statusCode).toBe(200);
    const rotated = res.json<{ data: DeviceWithCredential }>().data;
    expect(rotated.credential).toMatch(/^kdc_/);
    expect(rotated.credential).not.toBe(old);
    expect(rotated.has_credential).toBe(true);
    expect(await verifyDeviceCredential(t.db, created.id, old)).toBeNull();
    expect(await verifyDeviceCredential(t.db, created.id, rotated.credential ?? '')).not.toBeNull();
    expect(await storedHash(created.id)).toBe(sha256(rotated.credential ?? ''));
  });

  it('refuses to rotate for a device that is not smart', async () => {
    const { client, body } = await setup();
    const created = (await client.post('/api/devices/', body())).json<{ data: Device }>().data;
    const res = await client.post(`/api/devices/${created.id}/credential`);
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Errors }>().errors).toEqual({
      controller_id: [
        'Only a smart device gets a gateway credential: set a controller id or a current template.',
      ],
    });
  });

  it('issues one when an update makes a device smart, keeps it while smart, drops it when not', async () => {
    const { client, body } = await setup();
    const created = (await client.post('/api/devices/', body())).json<{ data: Device }>().data;
    const controllerId = newControllerId();

    const madeSmart = await client.put(`/api/devices/${created.id}`, body({ controller_id: controllerId }));
    expect(madeSmart.statusCode).toBe(200);
    const smart = madeSmart.json<{ data: DeviceWithCredential }>().data;
    expect(smart).toMatchObject({ is_smart: true, has_credential: true });
    expect(smart.credential).toMatch(/^kdc_/);
    const secret = smart.credential ?? '';

    const renamed = (
      await client.put(`/api/devices/${created.id}`, body({ name: 'Renamed', controller_id: controllerId }))
    ).json<{ data: DeviceWithCredential }>().data;
    expect(renamed).toMatchObject({ name: 'Renamed', has_credential: true, credential: null });
    expect(await verifyDeviceCredential(t.db, controllerId, secret)).not.toBeNull();

    const plain = (await client.put(`/api/devices/${created.id}`, body())).json<{
      data: DeviceWithCredential;
    }>().data;
    expect(plain).toMatchObject({
      is_smart: false,
      has_credential: false,
      credential_issued_at: null,
      credential: null,
    });
    expect(await verifyDeviceCredential(t.db, created.id, secret)).toBeNull();
  });
});

describe('PUT and DELETE /api/devices/{id}', () => {
  it('replaces the whole device: fields left out become empty', async () => {
    const { client, body, org } = await setup();
    const created = (
      await client.post('/api/devices/', body({ serial_number: 'SN-9', notes: 'x', shift_start: '08:00' }))
    ).json<{ data: Device }>().data;
    const otherRoom = await buildRoom(t.db, org.organisationId);
    const fryer = await typeId('fryer');
    const res = await client.put(
      `/api/devices/${created.id}`,
      body({ name: 'Fryer', type_id: fryer, room_id: otherRoom.id }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: Device }>().data).toMatchObject({
      id: created.id,
      name: 'Fryer',
      type_id: fryer,
      room_id: otherRoom.id,
      address_id: otherRoom.addressId,
      serial_number: null,
      notes: null,
      shift_start: null,
      created_at: created.created_at,
    });
  });

  it('lets a device keep its own controller id', async () => {
    const { client, body } = await setup();
    const controllerId = newControllerId();
    const created = (await client.post('/api/devices/', body({ controller_id: controllerId }))).json<{
      data: Device;
    }>().data;
    const res = await client.put(
      `/api/devices/${created.id}`,
      body({ controller_id: controllerId, name: 'B' }),
    );
    expect(res.statusCode).toBe(200);
  });

  it('deletes a device: 204, then 404', async () => {
    const { client, body } = await setup();
    const created = (await client.post('/api/devices/', body())).json<{ data: Device }>().data;
    const res = await client.delete(`/api/devices/${created.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await client.get(`/api/devices/${created.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/devices/${created.id}`)).statusCode).toBe(404);
  });
});

describe('validation (422)', () => {
  it.each([
    ['name', { name: '   ' }, 'This field is required.'],
    ['type_id', { type_id: 999_999 }, 'The selected value does not exist.'],
    [
      'controller_id',
      { controller_id: 'bad id!' },
      'Only Latin letters, digits and _ - . : (up to 64 characters).',
    ],
    ['shift_start', { shift_start: '7:00' }, 'Use HH:MM, for example 09:30.'],
    ['next_service_date', { next_service_date: '2026-02-30' }, 'Use a date as YYYY-MM-DD.'],
    ['wash_interval_hours', { wash_interval_hours: 0 }, 'Must be at least 1.'],
    ['service_interval_days', { service_interval_days: 1.5 }, 'Must be a whole number.'],
    ['template_id', { template_id: -1 }, 'Must be at least 0.'],
    ['is_smart', { is_smart: true }, 'Unknown field.'],
  ])('%s', async (field, extra, message) => {
    const { client, body } = await setup();
    const res = await client.post('/api/devices/', body(extra));
    expect(res.statusCode).toBe(422);
    const json = res.json<{ message: string; errors: Errors }>();
    expect(json.message).toBe('The given data was invalid.');
    expect(Object.keys(json.errors)).toEqual([field]);
    if (field !== 'template_id') expect(json.errors[field]).toEqual([message]);
  });

  it("refuses another organisation's room as if it did not exist", async () => {
    const { client, body } = await setup();
    const theirs = await buildOrganisation(t.db);
    const theirRoom = await buildRoom(t.db, theirs.organisationId);
    const res = await client.post('/api/devices/', body({ room_id: theirRoom.id }));
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Errors }>().errors).toEqual({
      room_id: ['The selected value does not exist.'],
    });
  });

  it("refuses a controller id held by another organisation's device, on create and update", async () => {
    const { client, body } = await setup();
    const theirs = await buildOrganisation(t.db);
    const taken = newControllerId();
    await buildDevice(t.db, theirs.organisationId, { controller_id: taken });
    const expected = { controller_id: ['This controller id is already used by another device.'] };

    const created = await client.post('/api/devices/', body({ controller_id: taken }));
    expect(created.statusCode).toBe(422);
    expect(created.json<{ errors: Errors }>().errors).toEqual(expected);

    const mine = (await client.post('/api/devices/', body())).json<{ data: Device }>().data;
    const updated = await client.put(`/api/devices/${mine.id}`, body({ controller_id: taken }));
    expect(updated.statusCode).toBe(422);
    expect(updated.json<{ errors: Errors }>().errors).toEqual(expected);
  });

  it('answers the same 422 when saves race for one controller id (the unique index decides)', async () => {
    const { client, body } = await setup();
    const controllerId = newControllerId();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        client.post('/api/devices/', body({ name: `Racer ${i}`, controller_id: controllerId })),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422]);
    for (const refused of results.filter((r) => r.statusCode === 422)) {
      expect(refused.json<{ errors: Errors }>().errors).toEqual({
        controller_id: ['This controller id is already used by another device.'],
      });
    }
  });

  it('relies on a unique index whose violation is recognised on this dialect', async () => {
    const { org, room, combi } = await setup();
    const controllerId = newControllerId();
    const now = new Date().toISOString();
    const values = {
      organisation_id: org.organisationId,
      room_id: room.id,
      type_id: combi,
      name: 'Twin',
      controller_id: controllerId,
      created_at: now,
      updated_at: now,
    };
    await insertDevice(t.db, values);
    const error: unknown = await insertDevice(t.db, values).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('reports every failing rule at once, in Russian when asked', async () => {
    const { client, body } = await setup();
    const res = await client.post('/api/devices/', body({ type_id: 999_999, room_id: 999_999 }), {
      'accept-language': 'ru',
    });
    expect(res.json<{ errors: Errors }>().errors).toEqual({
      type_id: ['Выбранное значение не найдено.'],
      room_id: ['Выбранное значение не найдено.'],
    });
  });
});

describe('organisation scoping and access', () => {
  it("answers 404 for another organisation's device on every {id} route", async () => {
    const { client, body } = await setup();
    const theirs = await buildOrganisation(t.db);
    const device = await buildDevice(t.db, theirs.organisationId, { controller_id: newControllerId() });
    const url = `/api/devices/${device.id}`;
    const responses = [
      await client.get(url),
      await client.put(url, body()),
      await client.delete(url),
      await client.post(`${url}/credential`),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
    expect(await storedHash(device.id)).toBeNull();
    expect((await t.db.selectFrom('devices').select('id').where('id', '=', device.id).execute()).length).toBe(
      1,
    );
  });

  it('answers 404 for an id that is not a number (no route matches)', async () => {
    const { client } = await setup();
    expect((await client.get('/api/devices/abc')).statusCode).toBe(404);
    expect((await client.get('/api/devices/1x')).statusCode).toBe(404);
  });

  it('answers 403 without the devices module, 401 without a session', async () => {
    const { org, body } = await setup();
    const device = await buildDevice(t.db, org.organisationId);
    const user = await buildUser(t.db, org.organisationId, { modules: ['billing', 'addresses'] });
    const denied = new TestClient(t.app);
    await denied.login(user.email, user.password);
    const guest = await TestClient.visitor(t.app);
    const calls = (c: TestClient) => [
      c.get('/api/devices/'),
      c.get('/api/devices/types/'),
      c.post('/api/devices/', body()),
      c.get(`/api/devices/${device.id}`),
      c.put(`/api/devices/${device.id}`, body()),
      c.delete(`/api/devices/${device.id}`),
      c.post(`/api/devices/${device.id}/credential`),
    ];
    for (const res of await Promise.all(calls(denied))) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'This action is unauthorized.' });
    }
    for (const res of await Promise.all(calls(guest))) expect(res.statusCode).toBe(401);
  });
});

describe('the devices lists for the screens that show devices', () => {
  it('are open to holders of the dashboard, telemetry or requests module, who still may not change devices', async () => {
    const { org, body } = await setup();
    const device = await buildDevice(t.db, org.organisationId, { name: 'Shown' });
    for (const module of ['dashboard', 'telemetry', 'requests'] as const) {
      const user = await buildUser(t.db, org.organisationId, { modules: [module] });
      const client = new TestClient(t.app);
      await client.login(user.email, user.password);
      const list = await client.get('/api/devices/');
      expect(list.statusCode).toBe(200);
      expect(list.json<{ data: { id: number }[] }>().data.map((d) => d.id)).toContain(device.id);
      expect((await client.get('/api/devices/types/')).statusCode).toBe(200);
      expect((await client.get(`/api/devices/${device.id}`)).statusCode).toBe(403);
      expect((await client.post('/api/devices/', body())).statusCode).toBe(403);
    }
  });
});

describe('GET /api/devices/ without page: every device of the organisation', () => {
  it('lists all of them, by name, with the address of each room, and nobody else’s', async () => {
    const { client, org } = await setup();
    const roomA = await buildRoom(t.db, org.organisationId);
    const roomB = await buildRoom(t.db, org.organisationId);
    const b = await buildDevice(t.db, org.organisationId, { room_id: roomB.id, name: 'Beta' });
    const a = await buildDevice(t.db, org.organisationId, { room_id: roomA.id, name: 'Alpha' });
    const theirs = await buildOrganisation(t.db);
    await buildDevice(t.db, theirs.organisationId, { name: 'Alpha' });

    const res = await client.get('/api/devices/');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: Device[]; meta?: unknown; links?: unknown }>();
    expect(body.meta).toBeUndefined();
    expect(body.links).toBeUndefined();
    expect(body.data.map((d) => [d.id, d.address_id])).toEqual([
      [a.id, roomA.addressId],
      [b.id, roomB.addressId],
    ]);
  });

  it('answers 10 000 devices in one list', async () => {
    const { client, org, combi } = await setup();
    const rooms = await Promise.all(Array.from({ length: 20 }, () => buildRoom(t.db, org.organisationId)));
    const now = new Date().toISOString();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      organisation_id: org.organisationId,
      room_id: rooms[i % rooms.length]?.id ?? 0,
      type_id: combi,
      name: `Device ${String(i).padStart(5, '0')}`,
      controller_id: i % 2 === 0 ? `bulk-${org.organisationId}-${i}` : null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await t.db
        .insertInto('devices')
        .values(rows.slice(i, i + 1000))
        .execute();

    const res = await client.get('/api/devices/');
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: Device[] }>().data;
    expect(data).toHaveLength(10_000);
    expect(data[0]).toMatchObject({ name: 'Device 00000', is_smart: true, address_id: rooms[0]?.addressId });
    expect(data[9_999]).toMatchObject({ name: 'Device 09999', is_smart: false });
  });
});

describe('GET /api/devices/?page: search, sort and filters', () => {
  async function fleet() {
    const ctx = await setup();
    const { org } = ctx;
    const fryer = await typeId('fryer');
    const roomA = await buildRoom(t.db, org.organisationId);
    const roomB = await buildRoom(t.db, org.organisationId);
    const make = (name: string, extra: Parameters<typeof buildDevice>[2] = {}) =>
      buildDevice(t.db, org.organisationId, { room_id: roomA.id, name, ...extra });
    const devices = {
      oven: await make('Combi Oven North', {
        serial_number: 'RAT-2231',
        controller_id: `ctl-north-${org.organisationId}`,
        next_service_date: '2026-05-01',
        last_online_at: '2026-01-01T10:00:00.000Z',
        created_at: '2025-01-03T00:00:00.000Z',
      }),
      oven2: await make('Combi Oven South', {
        next_service_date: '2026-02-01',
        template_id: 4,
        last_online_at: '2026-01-02T10:00:00.000Z',
        created_at: '2025-01-01T00:00:00.000Z',
      }),
      fryer: await make('Fryer 100%', {
        type_id: fryer,
        room_id: roomB.id,
        serial_number: 'FRY_1',
        created_at: '2025-01-02T00:00:00.000Z',
      }),
      dish: await make('Dishwasher', { room_id: roomB.id, created_at: '2025-01-04T00:00:00.000Z' }),
    };
    const theirs = await buildOrganisation(t.db);
    await buildDevice(t.db, theirs.organisationId, { name: 'Combi Oven Theirs' });
    const names = async (query: string) => {
      const res = await ctx.client.get(`/api/devices/?page=1${query}`);
      expect(res.statusCode).toBe(200);
      return res.json<Paged>().data.map((d) => d.name);
    };
    return { ...ctx, fryer, roomA, roomB, devices, names };
  }

  it("answers Laravel's paged shape", async () => {
    const { client } = await fleet();
    const res = await client.get('/api/devices/?page=2&per_page=3');
    const body = res.json<Paged>();
    expect(body.data.map((d) => d.name)).toEqual(['Fryer 100%']);
    expect(body.meta).toMatchObject({ current_page: 2, from: 4, last_page: 2, per_page: 3, total: 4 });
    expect(body.links.prev).toBe('http://localhost:80/api/devices/?page=1&per_page=3');
    expect(body.links.next).toBeNull();
  });

  it('counts again after a change, whichever process or path made it', async () => {
    const { client, org, body } = await setup();
    await buildDevice(t.db, org.organisationId, { name: 'A' });
    const total = async () => (await client.get('/api/devices/?page=1')).json<Paged>().meta.total;
    expect(await total()).toBe(1);
    expect((await client.post('/api/devices/', body({ name: 'B' }))).statusCode).toBe(201);
    expect(await total()).toBe(2);
    // A row written outside this API process (the operator CLI, another instance).
    await buildDevice(t.db, org.organisationId, { name: 'C' });
    expect(await total()).toBe(3);
  });

  it('ignores case in Cyrillic names on both databases', async () => {
    const { client, org } = await setup();
    await buildDevice(t.db, org.organisationId, { name: 'Пароконвектомат Север' });
    await buildDevice(t.db, org.organisationId, { name: 'Фритюрница' });
    const res = await client.get(`/api/devices/?page=1&search=${encodeURIComponent('ПАРОКОНВЕКТОМАТ с')}`);
    expect(res.json<Paged>().data.map((d) => d.name)).toEqual(['Пароконвектомат Север']);
  });

  it('searches name, serial number and controller id, ignoring case and LIKE wildcards', async () => {
    const { names, org } = await fleet();
    expect(await names('&search=COMBI')).toEqual(['Combi Oven North', 'Combi Oven South']);
    expect(await names('&search=rat-22')).toEqual(['Combi Oven North']);
    expect(await names(`&search=${encodeURIComponent(`north-${org.organisationId}`)}`)).toEqual([
      'Combi Oven North',
    ]);
    expect(await names('&search=100%25')).toEqual(['Fryer 100%']);
    expect(await names('&search=%25')).toEqual(['Fryer 100%']);
    expect(await names('&search=fry_')).toEqual(['Fryer 100%']);
    expect(await names('&search=_')).toEqual(['Fryer 100%']);
    expect(await names('&search=nothing')).toEqual([]);
  });

  it('sorts by a field, descending with -, empty values last, ties by id', async () => {
    const { names } = await fleet();
    const all = ['Combi Oven North', 'Combi Oven South', 'Dishwasher', 'Fryer 100%'];
    expect(await names('')).toEqual(all);
    expect(await names('&sort=name')).toEqual(all);
    expect(await names('&sort=-name')).toEqual([...all].reverse());
    expect(await names('&sort=created_at')).toEqual([
      'Combi Oven South',
      'Fryer 100%',
      'Combi Oven North',
      'Dishwasher',
    ]);
    expect(await names('&sort=next_service_date')).toEqual([
      'Combi Oven South',
      'Combi Oven North',
      'Fryer 100%',
      'Dishwasher',
    ]);
    expect(await names('&sort=-next_service_date')).toEqual([
      'Combi Oven North',
      'Combi Oven South',
      'Dishwasher',
      'Fryer 100%',
    ]);
    expect(await names('&sort=-last_online')).toEqual([
      'Combi Oven South',
      'Combi Oven North',
      'Dishwasher',
      'Fryer 100%',
    ]);
  });

  it('refuses a sort field that is not offered', async () => {
    const { client } = await fleet();
    const res = await client.get('/api/devices/?page=1&sort=credential_hash');
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Errors }>().errors).toEqual({ sort: ['This field cannot be sorted on.'] });
  });

  it('filters by type, room, address, id, name and smartness', async () => {
    const { names, fryer, combi, roomA, roomB, devices } = await fleet();
    const f = (field: string, operator: string, value: unknown) =>
      `&filters=${encodeURIComponent(JSON.stringify({ [field]: { operator, value } }))}`;
    expect(await names(f('type_id', '=', fryer))).toEqual(['Fryer 100%']);
    expect(await names(f('type_id', 'in', [fryer, combi]))).toHaveLength(4);
    expect(await names(f('room_id', '=', roomB.id))).toEqual(['Dishwasher', 'Fryer 100%']);
    expect(await names(f('room_id', 'in', [roomA.id]))).toEqual(['Combi Oven North', 'Combi Oven South']);
    expect(await names(f('address_id', '=', roomB.addressId))).toEqual(['Dishwasher', 'Fryer 100%']);
    expect(await names(f('address_id', 'in', [roomA.addressId, roomB.addressId]))).toHaveLength(4);
    expect(await names(f('id', 'in', [devices.dish.id, devices.oven.id]))).toEqual([
      'Combi Oven North',
      'Dishwasher',
    ]);
    expect(await names(f('name', 'like', 'oven s'))).toEqual(['Combi Oven South']);
    expect(await names(f('is_smart', '=', true))).toEqual(['Combi Oven North', 'Combi Oven South']);
    expect(await names(f('is_smart', '=', 'false'))).toEqual(['Dishwasher', 'Fryer 100%']);
    // Bracket form, as axios with qs sends it, together with search and sort.
    expect(
      await names(
        `&filters[room_id][operator]=in&filters[room_id][value][]=${roomB.id}&search=er&sort=-name`,
      ),
    ).toEqual(['Fryer 100%', 'Dishwasher']);
  });

  it('applies search, sort and filters to the whole list too', async () => {
    const { client, roomB } = await fleet();
    const res = await client.get(
      `/api/devices/?sort=-name&filters[room_id][operator]=%3D&filters[room_id][value]=${roomB.id}`,
    );
    expect(res.json<{ data: Device[] }>().data.map((d) => d.name)).toEqual(['Fryer 100%', 'Dishwasher']);
  });

  it('refuses filters outside the whitelist with 422 per field', async () => {
    const { client } = await fleet();
    const filters = encodeURIComponent(
      JSON.stringify({
        organisation_id: { operator: '=', value: 1 },
        is_smart: { operator: 'like', value: 'x' },
        type_id: { operator: 'like', value: 'x' },
        room_id: { operator: '=', value: 'abc' },
      }),
    );
    const res = await client.get(`/api/devices/?page=1&filters=${filters}`);
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Errors }>().errors).toEqual({
      'filters.organisation_id': ['Filtering by this field is not allowed.'],
      'filters.is_smart': ['This operator is not allowed for this field.'],
      'filters.type_id': ['This operator is not allowed for this field.'],
      'filters.room_id': ['The filter value is invalid.'],
    });
    const badSmart = await client.get(
      `/api/devices/?filters=${encodeURIComponent(JSON.stringify({ is_smart: { operator: '=', value: 'maybe' } }))}`,
    );
    expect(badSmart.json<{ errors: Errors }>().errors).toEqual({
      'filters.is_smart': ['The filter value is invalid.'],
    });
  });
});
