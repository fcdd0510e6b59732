import type { Device, ServiceEntry } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { addDays } from './device-service-log.service.js';

const t = useTestApp();

type Errors = Record<string, string[]>;

/** An organisation, its admin signed in, and one device with the given fields. */
async function setup(device: Parameters<typeof buildDevice>[2] = {}) {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const { id } = await buildDevice(t.db, org.organisationId, device);
  const log = `/api/devices/${id}/service_log`;
  const add = (body: Record<string, unknown>) => client.post(log, { performed_by: 'Service Co', ...body });
  const nextServiceDate = async () =>
    (await client.get(`/api/devices/${id}`)).json<{ data: Device }>().data.next_service_date;
  return { org, client, deviceId: id, log, add, nextServiceDate };
}

describe('addDays', () => {
  it('counts calendar days across months, leap days and years', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-01', 90)).toBe('2027-03-01');
  });
});

describe('POST and GET /api/devices/{id}/service_log', () => {
  it('writes entries and lists them newest date first, with their author', async () => {
    const { client, org, log, add, deviceId } = await setup();
    const first = await add({ date: '2026-01-10', kind: 'inspection', note: '  All good ' });
    expect(first.statusCode).toBe(201);
    expect(first.json<{ data: ServiceEntry }>().data).toMatchObject({
      device_id: deviceId,
      date: '2026-01-10',
      kind: 'inspection',
      performed_by: 'Service Co',
      part: null,
      note: 'All good',
      created_by: { id: org.admin.id, name: 'Admin' },
    });
    await add({ date: '2026-03-01', kind: 'part_replaced', part: 'Door seal' });
    await add({ date: '2026-02-01', kind: 'repair' });
    await add({ date: '2026-03-01', kind: 'maintenance' });

    const res = await client.get(log);
    expect(res.statusCode).toBe(200);
    const entries = res.json<{ data: ServiceEntry[] }>().data;
    expect(entries.map((e) => [e.date, e.kind])).toEqual([
      ['2026-03-01', 'maintenance'],
      ['2026-03-01', 'part_replaced'],
      ['2026-02-01', 'repair'],
      ['2026-01-10', 'inspection'],
    ]);
    expect(entries[1]?.part).toBe('Door seal');
  });

  it('answers an empty list for a device without entries', async () => {
    const { client, log } = await setup();
    expect((await client.get(log)).json()).toEqual({ data: [] });
  });

  it('shows created_by null once the author is gone', async () => {
    const { org, add, client, log } = await setup();
    const author = await buildUser(t.db, org.organisationId, { modules: ['devices'] });
    const other = new TestClient(t.app);
    await other.login(author.email, author.password);
    await other.post(log, { date: '2026-01-01', kind: 'repair', performed_by: 'X' });
    await add({ date: '2026-01-02', kind: 'repair' });
    await t.db.deleteFrom('users').where('id', '=', author.id).execute();
    const entries = (await client.get(log)).json<{ data: ServiceEntry[] }>().data;
    expect(entries.map((e) => e.created_by?.id ?? null)).toEqual([org.admin.id, null]);
  });
});

describe('maintenance moves the next service date', () => {
  it('to the entry date plus the interval, never backwards', async () => {
    const { add, nextServiceDate } = await setup({
      service_interval_days: 90,
      next_service_date: '2026-01-15',
    });
    await add({ date: '2026-01-10', kind: 'maintenance' });
    expect(await nextServiceDate()).toBe('2026-04-10');
    // An older visit written late does not pull the date back.
    await add({ date: '2025-12-01', kind: 'maintenance' });
    expect(await nextServiceDate()).toBe('2026-04-10');
    // Other kinds leave it alone.
    await add({ date: '2026-06-01', kind: 'repair' });
    await add({ date: '2026-06-01', kind: 'inspection' });
    expect(await nextServiceDate()).toBe('2026-04-10');
    await add({ date: '2026-06-01', kind: 'maintenance' });
    expect(await nextServiceDate()).toBe('2026-08-30');
  });

  it('sets it when none was set', async () => {
    const { add, nextServiceDate } = await setup({ service_interval_days: 30 });
    await add({ date: '2026-01-31', kind: 'maintenance' });
    expect(await nextServiceDate()).toBe('2026-03-02');
  });

  it('leaves a device without an interval as it is', async () => {
    const { add, nextServiceDate } = await setup({ next_service_date: '2026-01-15' });
    await add({ date: '2026-05-01', kind: 'maintenance' });
    expect(await nextServiceDate()).toBe('2026-01-15');
  });
});

describe('validation (422)', () => {
  it.each([
    [
      'kind',
      { date: '2026-01-01', kind: 'cleaning' },
      'Must be one of: maintenance, repair, part_replaced, inspection.',
    ],
    ['date', { date: '2026-02-30', kind: 'repair' }, 'Use a date as YYYY-MM-DD.'],
    ['date', { date: '01.02.2026', kind: 'repair' }, 'Use a date as YYYY-MM-DD.'],
    ['part', { date: '2026-01-01', kind: 'part_replaced' }, 'This field is required.'],
    ['part', { date: '2026-01-01', kind: 'part_replaced', part: '  ' }, 'This field is required.'],
    ['performed_by', { date: '2026-01-01', kind: 'repair', performed_by: '' }, 'This field is required.'],
    ['device_id', { date: '2026-01-01', kind: 'repair', device_id: 5 }, 'Unknown field.'],
  ])('%s %j', async (field, body, message) => {
    const { add, log, client } = await setup();
    const res = await add(body);
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Errors }>().errors).toEqual({ [field]: [message] });
    expect((await client.get(log)).json()).toEqual({ data: [] });
  });
});

describe('DELETE /api/devices/{id}/service_log/{entryId}', () => {
  it('deletes an entry: 204, and it is gone; the next service date stays', async () => {
    const { client, add, log, nextServiceDate } = await setup({ service_interval_days: 10 });
    const entry = (await add({ date: '2026-01-01', kind: 'maintenance' })).json<{ data: ServiceEntry }>()
      .data;
    const res = await client.delete(`${log}/${entry.id}`);
    expect(res.statusCode).toBe(204);
    expect((await client.get(log)).json()).toEqual({ data: [] });
    expect(await nextServiceDate()).toBe('2026-01-11');
    expect((await client.delete(`${log}/${entry.id}`)).statusCode).toBe(404);
  });

  it('answers 404 for an entry of another device, even of the same organisation', async () => {
    const { client, org, add } = await setup();
    const entry = (await add({ date: '2026-01-01', kind: 'repair' })).json<{ data: ServiceEntry }>().data;
    const other = await buildDevice(t.db, org.organisationId);
    const res = await client.delete(`/api/devices/${other.id}/service_log/${entry.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
  });

  it('goes with its device', async () => {
    const { client, add, deviceId } = await setup();
    await add({ date: '2026-01-01', kind: 'repair' });
    expect((await client.delete(`/api/devices/${deviceId}`)).statusCode).toBe(204);
    const left = await t.db
      .selectFrom('device_service_entries')
      .select('id')
      .where('device_id', '=', deviceId)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('organisation scoping and access', () => {
  it("answers 404 for another organisation's device and entries, and changes nothing", async () => {
    const mine = await setup();
    const theirs = await setup({ service_interval_days: 10 });
    const entry = (await theirs.add({ date: '2026-01-01', kind: 'repair' })).json<{ data: ServiceEntry }>()
      .data;
    const responses = [
      await mine.client.get(theirs.log),
      await mine.client.post(theirs.log, { date: '2026-02-01', kind: 'maintenance', performed_by: 'X' }),
      await mine.client.delete(`${theirs.log}/${entry.id}`),
      // Their entry through my own device.
      await mine.client.delete(`${mine.log}/${entry.id}`),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
    expect((await theirs.client.get(theirs.log)).json<{ data: ServiceEntry[] }>().data).toHaveLength(1);
    expect(await theirs.nextServiceDate()).toBeNull();
  });

  it('answers 403 without the devices module, 401 without a session', async () => {
    const { org, log } = await setup();
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    const denied = new TestClient(t.app);
    await denied.login(user.email, user.password);
    const guest = await TestClient.visitor(t.app);
    const entry = { date: '2026-01-01', kind: 'repair', performed_by: 'X' };
    for (const [client, status] of [
      [denied, 403],
      [guest, 401],
    ] as const) {
      expect((await client.get(log)).statusCode).toBe(status);
      expect((await client.post(log, entry)).statusCode).toBe(status);
      expect((await client.delete(`${log}/1`)).statusCode).toBe(status);
    }
  });
});
