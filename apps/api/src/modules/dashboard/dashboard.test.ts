import {
  fromStatDevice,
  type DashboardReport,
  type Device,
  type DeviceEvent,
  type DeviceStat,
  type PreferGraph,
  type TelemetrySampleInput,
} from '@kontrol/contracts';
import { describe, expect, it, vi } from 'vitest';
import {
  buildDevice,
  buildOrganisation,
  buildSmartDevice,
  buildTemplate,
  buildUser,
} from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { STAT_FLEET_FRESH_MS, STAT_FRESH_MS } from './dashboard.routes.js';

/** The statements the API ran, to tell which reads an answer took. */
const statements: string[] = [];
const t = useTestApp({
  dbLog: (event) => {
    if (event.level === 'query') statements.push(event.query.sql);
  },
});
const MINUTE = 60_000;
const HOUR = 3_600_000;

async function signedIn(org: Awaited<ReturnType<typeof buildOrganisation>>) {
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  return client;
}

/** A critical device event opened by hand on the device. */
async function openEvent(client: TestClient, deviceId: number) {
  const opened = await client.post('/api/devices/events/add', {
    device_id: deviceId,
    severity: 'critical',
    title: 'Дверь не закрывается',
    description: null,
  });
  expect(opened.statusCode, opened.body).toBe(201);
}

async function typeId(slug: string) {
  return (
    await t.db.selectFrom('device_types').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
  ).id;
}

async function ingest(credential: string, samples: TelemetrySampleInput[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ingest/v1/telemetry',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    payload: JSON.stringify(samples),
  });
  expect(res.statusCode).toBe(202);
}

describe('GET /api/devices/stat', () => {
  it('lists the devices with the six counters by the rules of docs/contract.md, "States and transitions"', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const minutesAgo = (m: number) => new Date(Date.now() - m * MINUTE).toISOString();
    const template = await buildTemplate(t.db, org.organisationId);
    const a = await buildDevice(t.db, org.organisationId, {
      name: 'A online',
      controller_id: `a-${org.organisationId}`,
      template_id: template.id,
      last_online_at: minutesAgo(1439),
    });
    const b = await buildDevice(t.db, org.organisationId, {
      name: 'B offline',
      controller_id: `b-${org.organisationId}`,
      last_online_at: minutesAgo(1442),
    });
    const c = await buildDevice(t.db, org.organisationId, { name: 'C never', template_id: template.id });
    // A fryer is smart, has no template, and does not wash.
    const d = await buildDevice(t.db, org.organisationId, {
      name: 'D fryer',
      type_id: await typeId('fryer'),
      controller_id: `d-${org.organisationId}`,
      last_online_at: minutesAgo(1),
      shift_start: '00:00',
    });
    const theirs = await buildOrganisation(t.db);
    await buildDevice(t.db, theirs.organisationId, { name: 'Theirs', last_online_at: minutesAgo(1) });

    const res = await client.get('/api/devices/stat');
    expect(res.statusCode).toBe(200);
    const stat = res.json<{ data: DeviceStat }>().data;
    // In the order of their names, which the devices list gives with their places.
    expect(stat.devices.map((device) => device.id)).toEqual([a.id, b.id, c.id, d.id]);
    // The combi ovens wash every 24 h and never did; the fryer's shift began at midnight UTC, with no work since
    // (unless this runs in the first minute of the UTC day).
    const slow = new Date().getUTCHours() === 0 && new Date().getUTCMinutes() === 0 ? 0 : 1;
    expect(stat.counters).toEqual({
      online: 2,
      offline: 2,
      washOutdated: 3,
      workStartedSlow: slow,
      issueReports: 0,
      devicesWithoutTmplNorma: 2,
    });
    expect(stat.bad_devices_for_templates).toBe(2);
    expect(stat.issues_count).toBe(0);
    expect(stat.devices[0]).toMatchObject({
      is_smart: true,
      template_id: template.id,
      wash_interval_hours: 24,
      time_zone: 'Europe/Moscow',
    });
  });

  it('sends a device without its name and place and without its empty fields, the devices list gives them', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const template = await buildTemplate(t.db, org.organisationId);
    const bare = await buildDevice(t.db, org.organisationId, {
      name: 'Bare',
      type_id: await typeId('fryer'),
    });
    const busy = await buildDevice(t.db, org.organisationId, {
      name: 'Busy',
      controller_id: `busy-${org.organisationId}`,
      template_id: template.id,
      shift_start: '08:00',
      last_online_at: new Date(Date.now() - MINUTE).toISOString(),
      work_start_date: '2026-11-27',
      work_start_time: '07:55',
    });
    await t.db
      .updateTable('device_live')
      .set({ state: 3, current: 12.5, temperature: 160 })
      .where('device_id', '=', busy.id)
      .execute();
    await openEvent(client, busy.id);

    const stat = (await client.get('/api/devices/stat')).json<{ data: DeviceStat }>().data;
    const sent = new Map(stat.devices.map((device) => [device.id, device]));
    expect(sent.get(bare.id)).toEqual({ id: bare.id, time_zone: 'Europe/Moscow' });
    expect(sent.get(busy.id)).toEqual({
      id: busy.id,
      time_zone: 'Europe/Moscow',
      is_smart: true,
      template_id: template.id,
      shift_start: '08:00',
      last_online: { last_utc: expect.any(String) as string },
      work_start: { date: '2026-11-27', start: '07:55' },
      wash_interval_hours: 24,
      state: 'cooking',
      current: 12.5,
      temperature: 160,
      open_events: 1,
      open_severity: 'critical',
      problem_since: expect.any(String) as string,
    });
    // The console joins each with the devices list, as here.
    const listed = new Map(
      (await client.get('/api/devices/'))
        .json<{ data: Device[] }>()
        .data.map((device) => [device.id, device]),
    );
    expect(fromStatDevice(sent.get(bare.id)!, listed.get(bare.id))).toEqual({
      id: bare.id,
      name: 'Bare',
      type_id: await typeId('fryer'),
      address_id: listed.get(bare.id)?.address_id,
      room_id: bare.roomId,
      is_smart: false,
      template_id: null,
      shift_start: null,
      time_zone: 'Europe/Moscow',
      last_online: { last_utc: null },
      work_start: { date: null, start: null },
      wash_interval_hours: null,
      last_wash_at: null,
      state: null,
      current: null,
      temperature: null,
      open_events: 0,
      open_complaints: 0,
      open_severity: null,
      problem_since: null,
    });
    expect(fromStatDevice(sent.get(busy.id)!, listed.get(busy.id))).toMatchObject({
      name: 'Busy',
      is_smart: true,
      open_events: 1,
      state: 'cooking',
    });
  });

  it('shows a new event at once, and what the gateway writes within one freshness window and a build', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const device = await buildDevice(t.db, org.organisationId, {
      last_online_at: new Date().toISOString(),
    });
    const stat = async () => {
      const res = await client.get('/api/devices/stat');
      expect(res.statusCode).toBe(200);
      const found = res.json<{ data: DeviceStat }>().data.devices.find((d) => d.id === device.id);
      return {
        current: found?.current ?? null,
        open: found?.open_events ?? 0,
        issues: res.json<{ data: DeviceStat }>().data.issues_count,
      };
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // The start of a window of STAT_FRESH_MS, so the steps below fall in the same one.
      const start = Math.ceil(Date.now() / STAT_FRESH_MS) * STAT_FRESH_MS;
      vi.setSystemTime(start);
      expect(await stat()).toEqual({ current: null, open: 0, issues: 0 });
      // The gateway writes a sample's value (no fleet change), and a person opens an event.
      await t.db
        .updateTable('device_live')
        .set({ current: 7.5 })
        .where('device_id', '=', device.id)
        .execute();
      await openEvent(client, device.id);
      // The event shows at once; the device as read in this window is kept.
      vi.setSystemTime(start + STAT_FRESH_MS - 1);
      expect(await stat()).toEqual({ current: null, open: 1, issues: 1 });
      // The next window reads the devices again; until that answer is built, the last one goes out.
      vi.setSystemTime(start + STAT_FRESH_MS);
      expect(await stat()).toEqual({ current: null, open: 1, issues: 1 });
      await vi.waitFor(async () => expect(await stat()).toEqual({ current: 7.5, open: 1, issues: 1 }));
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the fleet again when it changes, what the gateway writes every window, and neither for an event', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const template = await buildTemplate(t.db, org.organisationId);
    const device = await buildDevice(t.db, org.organisationId, { last_online_at: new Date().toISOString() });
    const fleetReads = () => statements.filter((q) => /join "device_types"/.test(q)).length;
    const liveReads = () =>
      statements.filter((q) => /from "devices" inner join "device_live"/.test(q)).length;
    const ask = async () => {
      const res = await client.get('/api/devices/stat');
      expect(res.statusCode).toBe(200);
      return res.json<{ data: DeviceStat }>().data.devices.find((d) => d.id === device.id);
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Math.ceil(Date.now() / STAT_FLEET_FRESH_MS) * STAT_FLEET_FRESH_MS;
      vi.setSystemTime(start);
      statements.length = 0;
      expect((await ask())?.template_id).toBeUndefined();
      expect([fleetReads(), liveReads()]).toEqual([1, 1]);
      // A device event builds the answer again from what was read.
      await openEvent(client, device.id);
      expect((await ask())?.open_events).toBe(1);
      expect([fleetReads(), liveReads()]).toEqual([1, 1]);
      // A new window reads what the gateway wrote, not the fleet; its first request may get the last
      // window's answer while the new one is built.
      vi.setSystemTime(start + STAT_FRESH_MS);
      await ask();
      await vi.waitFor(() => expect(liveReads()).toBe(2));
      expect(fleetReads()).toBe(1);
      // A change of the fleet, written past the API, shows at once.
      await t.db
        .updateTable('devices')
        .set({ template_id: template.id })
        .where('id', '=', device.id)
        .execute();
      expect((await ask())?.template_id).toBe(template.id);
      expect(fleetReads()).toBe(2);
      // And the fleet is read again after STAT_FLEET_FRESH_MS whatever: device types move no counter.
      vi.setSystemTime(start + STAT_FLEET_FRESH_MS);
      await ask();
      await vi.waitFor(() => expect(fleetReads()).toBe(3));
    } finally {
      vi.useRealTimers();
    }
  });

  it('narrows to a device type by id or slug, and answers 404 for an unknown type', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const oven = await buildDevice(t.db, org.organisationId, { name: 'Oven' });
    const fryer = await buildDevice(t.db, org.organisationId, {
      name: 'Fryer',
      type_id: await typeId('fryer'),
    });
    const bySlug = (await client.get('/api/devices/stat/fryer')).json<{ data: DeviceStat }>().data;
    expect(bySlug.devices.map((d) => d.id)).toEqual([fryer.id]);
    const byId = (await client.get(`/api/devices/stat/${await typeId('combi_oven')}`)).json<{
      data: DeviceStat;
    }>().data;
    expect(byId.devices.map((d) => d.id)).toEqual([oven.id]);
    expect((await client.get('/api/devices/stat/toaster')).statusCode).toBe(404);
  });

  it('is refused without a module that shows devices', async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId, { modules: ['billing'] });
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    expect((await client.get('/api/devices/stat')).statusCode).toBe(403);
    expect((await client.get('/api/devices/info/prefer_graph?date=2026-11-23')).statusCode).toBe(403);
  });
});

describe('GET /api/devices/info/prefer_graph and /api/devices/reports/dashboard', () => {
  it("counts the organisation's devices online, working and washing per hour of the day", async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const oven = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'UTC' });
    const washer = await buildSmartDevice(t.db, org.organisationId, {
      typeSlug: 'dishwasher',
      timeZone: 'UTC',
    });
    const theirs = await buildOrganisation(t.db);
    const foreign = await buildSmartDevice(t.db, theirs.organisationId);
    const hour = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    const date = new Date(hour).toISOString().slice(0, 10);
    const base = { temperature: 100, door_open: false };
    await ingest(oven.credential, [
      { ts: hour + MINUTE, current: 30, state: 'heating', ...base },
      { ts: hour + HOUR + MINUTE, current: 1, state: 'idle', ...base },
    ]);
    await ingest(washer.credential, [
      { ts: hour + 5 * MINUTE, current: 8, state: 'washing', temperature: 60, door_open: false },
    ]);
    await ingest(foreign.credential, [{ ts: hour + MINUTE, current: 30, state: 'heating', ...base }]);

    const res = await client.get(`/api/devices/info/prefer_graph?date=${date}&tz=UTC`);
    expect(res.statusCode).toBe(200);
    const graph = res.json<{ data: PreferGraph }>().data;
    expect(graph.hours).toHaveLength(24);
    const at = (ms: number) => graph.hours.find((h) => h.start === new Date(ms).toISOString());
    // A wash draws more than the idle current: the dishwasher worked too (docs/telemetry.md).
    expect(at(hour)).toMatchObject({
      online: 2,
      working: 2,
      washing: 1,
      label: new Date(hour).toISOString().slice(11, 16),
    });
    if (new Date(hour + HOUR).toISOString().slice(0, 10) === date)
      expect(at(hour + HOUR)).toMatchObject({ online: 1, working: 0, washing: 0 });

    expect((await client.get(`/api/devices/info/prefer_graph?date=2026-02-30`)).statusCode).toBe(422);
    expect((await client.get(`/api/devices/info/prefer_graph?date=${date}&tz=Mars/Base`)).statusCode).toBe(
      422,
    );
  });

  it('narrows the graph and the device events to a device type, each event naming its device', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const oven = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'UTC' });
    const washer = await buildSmartDevice(t.db, org.organisationId, {
      typeSlug: 'dishwasher',
      timeZone: 'UTC',
    });
    await t.db.updateTable('devices').set({ name: 'Мойка 1' }).where('id', '=', washer.id).execute();
    const hour = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    const date = new Date(hour).toISOString().slice(0, 10);
    await ingest(oven.credential, [
      { ts: hour + MINUTE, current: 30, state: 'heating', temperature: 100, door_open: false },
    ]);
    await ingest(washer.credential, [
      { ts: hour + 5 * MINUTE, current: 8, state: 'washing', temperature: 60, door_open: false },
    ]);
    const graphOf = async (type: string) => {
      const res = await client.get(`/api/devices/info/prefer_graph?date=${date}&tz=UTC&type=${type}`);
      expect(res.statusCode).toBe(200);
      const graph = res.json<{ data: PreferGraph }>().data;
      return graph.hours.find((h) => h.start === new Date(hour).toISOString());
    };
    // By slug or by id, as /devices/stat/{type}.
    expect(await graphOf('dishwasher')).toMatchObject({ online: 1, working: 1, washing: 1 });
    expect(await graphOf(String(await typeId('combi_oven')))).toMatchObject({
      online: 1,
      working: 1,
      washing: 0,
    });
    expect(await graphOf('fryer')).toMatchObject({ online: 0, working: 0, washing: 0 });
    expect((await client.get(`/api/devices/info/prefer_graph?date=${date}&type=toaster`)).statusCode).toBe(
      422,
    );

    for (const device of [oven, washer]) {
      const created = await client.post('/api/devices/events/add', { device_id: device.id, title: 'Осмотр' });
      expect(created.statusCode).toBe(201);
    }
    const events = async (filters?: object) => {
      const query = filters ? `&filters=${encodeURIComponent(JSON.stringify(filters))}` : '';
      const res = await client.get(`/api/devices/events?page=1${query}`);
      expect(res.statusCode).toBe(200);
      return res.json<{ data: DeviceEvent[] }>().data.map((event) => [event.device_id, event.device_name]);
    };
    const ovenName = (
      await t.db.selectFrom('devices').select('name').where('id', '=', oven.id).executeTakeFirstOrThrow()
    ).name;
    expect(await events()).toEqual([
      [washer.id, 'Мойка 1'],
      [oven.id, ovenName],
    ]);
    expect(await events({ device_type_id: { operator: '=', value: await typeId('dishwasher') } })).toEqual([
      [washer.id, 'Мойка 1'],
    ]);
    expect(await events({ device_type_id: { operator: '=', value: await typeId('fryer') } })).toEqual([]);
  });

  it("draws one device's local day with its norm and its events, and hides other organisations' devices", async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const oven = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'UTC' });
    const template = await buildTemplate(t.db, org.organisationId, {
      rules: [
        { kind: 'current_above', key: 'r1', state: 'heating', severity: 'critical', duration_minutes: 0 },
      ],
    });
    await t.db.updateTable('devices').set({ template_id: template.id }).where('id', '=', oven.id).execute();
    const start = Math.floor(Date.now() / MINUTE) * MINUTE - 30 * MINUTE;
    const date = new Date(start).toISOString().slice(0, 10);
    const base = { temperature: 150, door_open: false };
    await ingest(oven.credential, [
      { ts: start, current: 30, state: 'heating', ...base },
      { ts: start + 10_000, current: 32, state: 'heating', ...base },
      { ts: start + MINUTE, current: 50, state: 'heating', ...base },
    ]);
    await t.gateway.rules.idle();

    const res = await client.get(
      `/api/devices/reports/dashboard?date=${date}&device=${oven.id}&report=current`,
    );
    expect(res.statusCode).toBe(200);
    const report = res.json<{ data: DashboardReport }>().data;
    expect(report).toMatchObject({ device_id: oven.id, date, time_zone: 'UTC', report: 'current' });
    expect(report.t).toEqual([start, start + MINUTE]);
    expect(report.mean).toEqual([31, 50]);
    expect(report.min).toEqual([30, 50]);
    expect(report.max).toEqual([32, 50]);
    expect(report.norms?.heating).toEqual({ min: 20, max: 45 });
    expect(report.events.map((e) => [e.kind, e.started_at])).toEqual([
      ['current_above', new Date(start + MINUTE).toISOString()],
    ]);

    const temperature = (
      await client.get(`/api/devices/reports/dashboard?date=${date}&device=${oven.id}&report=temperature`)
    ).json<{
      data: DashboardReport;
    }>().data;
    expect(temperature.mean).toEqual([150, 150]);
    expect(temperature.norms).toBeNull();

    const theirs = await buildOrganisation(t.db);
    const other = await signedIn(theirs);
    expect(
      (await other.get(`/api/devices/reports/dashboard?date=${date}&device=${oven.id}`)).statusCode,
    ).toBe(404);
  });
});
