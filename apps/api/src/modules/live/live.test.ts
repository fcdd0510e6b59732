import {
  LIVE_EVENTS,
  LIVE_POLL_MS,
  liveDeviceEventsEventSchema,
  liveDevicesEventSchema,
  liveNotificationsEventSchema,
  liveSamplesEventSchema,
  type NotificationKind,
  type TelemetrySampleInput,
} from '@kontrol/contracts';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice, buildUser, type BuiltUser } from '../../test/builders.js';
import { createPersonalAccessToken } from '../auth/auth.service.js';
import { TestClient } from '../../test/http-client.js';
import { connectLive, type LiveEvent, type Stream } from '../../test/live-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();
let origin = '';
const open: AbortController[] = [];

beforeAll(async () => {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const controller of open.splice(0)) controller.abort();
});

async function connect(
  client: TestClient,
  query = '',
  headers: Record<string, string> = {},
): Promise<Stream> {
  const controller = new AbortController();
  open.push(controller);
  return connectLive(origin, controller, client, query, headers);
}

const sample = (ts: number, extra: Partial<TelemetrySampleInput> = {}): TelemetrySampleInput => ({
  ts,
  current: 12.5,
  temperature: 180,
  door_open: false,
  state: 'cooking',
  ...extra,
});

async function ingest(credential: string, samples: TelemetrySampleInput[]) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/ingest/v1/telemetry',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    payload: JSON.stringify(samples),
  });
  expect(response.statusCode).toBe(202);
}

/**
 * One look of the hub at the database, now: its next poll, fired on the app's clock and awaited,
 * so what the look found has been written to the streams.
 */
async function look() {
  await t.clock.fireWithin(LIVE_POLL_MS);
}

/** The hub's next look at the open streams' sessions and modules, now (and awaited). */
async function recheck() {
  await t.clock.fireWithin(t.config.liveSessionCheckSeconds * 1000);
}

/** A notification row as its source writes it. */
const notification = (
  user: BuiltUser,
  title: string,
  values: { kind?: NotificationKind; severity?: 'info' | 'warning' | 'critical' } = {},
) => ({
  organisation_id: user.organisationId,
  user_id: user.id,
  kind: values.kind ?? 'no_data',
  severity: values.severity ?? 'warning',
  title,
  body: 'Oven 1: no data for 15 min',
  device_id: null,
  event_id: null,
  complaint_id: null,
  created_at: new Date().toISOString(),
  read_at: null,
});

async function signedIn(email: string, password: string) {
  const client = new TestClient(t.app);
  await client.login(email, password);
  return client;
}

/** Every sample a stream was sent, in order, flattened over its `samples` events. */
function sentSamples(stream: Stream) {
  const all = {
    devices: [] as number[],
    t: [] as number[],
    current: [] as (number | null)[],
    state: [] as (number | null)[],
  };
  for (const event of stream.events.filter((e) => e.event === 'samples')) {
    for (const series of liveSamplesEventSchema.parse(event.data).data) {
      if (!all.devices.includes(series.device_id)) all.devices.push(series.device_id);
      all.t.push(...series.t);
      all.current.push(...(series.values.current ?? []));
      all.state.push(...(series.values.state ?? []));
    }
  }
  return all;
}

const devicesEvent = (deviceId: number) => (event: LiveEvent) =>
  event.event === 'devices' &&
  liveDevicesEventSchema.parse(event.data).data.some((device) => device.id === deviceId);

describe('GET /api/live', () => {
  it('tells the organisation of device events that open and close, and no one else', async () => {
    const a = await buildOrganisation(t.db);
    const b = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, a.organisationId);
    const clientA = await signedIn(a.admin.email, a.admin.password);
    const streamA = await connect(clientA);
    const streamB = await connect(await signedIn(b.admin.email, b.admin.password));
    // The hub's first look sets where it starts reading events from.
    await look();

    const created = await clientA.post('/api/devices/events/add', {
      device_id: device.id,
      severity: 'critical',
      title: 'Smoke from the oven',
    });
    const id = created.json<{ data: { id: number } }>().data.id;
    await look();
    const isOurs = (ended: boolean) => (event: LiveEvent) =>
      event.event === LIVE_EVENTS.deviceEvents &&
      liveDeviceEventsEventSchema
        .parse(event.data)
        .data.some((e) => e.id === id && (e.ended_at !== null) === ended);
    const opened = liveDeviceEventsEventSchema.parse((await streamA.waitFor(isOurs(false))).data);
    expect(opened.data.find((e) => e.id === id)).toMatchObject({
      device_id: device.id,
      kind: 'manual',
      severity: 'critical',
    });
    await clientA.put(`/api/devices/events/${id}`, { ended_at: new Date().toISOString() });
    await look();
    await streamA.waitFor(isOurs(true));
    expect(streamA.events.filter(isOurs(false))).toHaveLength(1);
    expect(streamB.events.some((event) => event.event === LIVE_EVENTS.deviceEvents)).toBe(false);
  });

  it('streams the devices that report to their own organisation only', async () => {
    const a = await buildOrganisation(t.db);
    const b = await buildOrganisation(t.db);
    const deviceA = await buildSmartDevice(t.db, a.organisationId);
    const deviceB = await buildSmartDevice(t.db, b.organisationId);
    const streamA = await connect(await signedIn(a.admin.email, a.admin.password));
    const streamB = await connect(await signedIn(b.admin.email, b.admin.password));
    expect(streamA.status).toBe(200);

    const ts = Date.now() - 1_000;
    await ingest(deviceA.credential, [sample(ts)]);
    await ingest(deviceB.credential, [sample(ts, { state: 'idle', current: 1 })]);
    await look();

    const seenByA = liveDevicesEventSchema.parse((await streamA.waitFor(devicesEvent(deviceA.id))).data);
    expect(seenByA.data.find((device) => device.id === deviceA.id)).toMatchObject({
      last_online: { last_utc: new Date(ts).toISOString() },
      state: 'cooking',
      current: 12.5,
      temperature: 180,
    });
    await streamB.waitFor(devicesEvent(deviceB.id));
    // Neither hears of the other organisation's device.
    expect(streamA.events.some(devicesEvent(deviceB.id))).toBe(false);
    expect(streamB.events.some(devicesEvent(deviceA.id))).toBe(false);
  });

  it("sends an open chart its devices' new samples, and none of the others'", async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const other = await buildSmartDevice(t.db, org.organisationId);
    const stream = await connect(
      await signedIn(org.admin.email, org.admin.password),
      `?devices=${device.id}`,
    );
    const first = Date.now() - 10_000;
    await ingest(device.credential, [sample(first)]);
    await ingest(other.credential, [sample(first)]);
    await look();
    await stream.waitFor(devicesEvent(device.id));
    await ingest(device.credential, [
      sample(first + 2_000, { current: 20 }),
      sample(first + 4_000, { current: 21 }),
    ]);
    await ingest(other.credential, [sample(first + 2_000)]);
    await look();

    await stream.waitFor((e) => e.event === 'samples' && sentSamples(stream).t.includes(first + 4_000));
    expect(sentSamples(stream)).toEqual({
      devices: [device.id],
      t: [first, first + 2_000, first + 4_000],
      current: [12.5, 20, 21],
      state: [3, 3, 3],
    });
    const last = stream.events.filter((e) => e.event === 'samples').at(-1);
    expect(Number(last?.id)).toBeGreaterThan(0);
  });

  it('starts a new chart with the last minute of samples, so none falls between its read and the stream', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const now = Date.now();
    // Sent before the stream opens: two minutes ago (the chart has it), and just now (it may not).
    await ingest(device.credential, [
      sample(now - 120_000, { current: 1 }),
      sample(now - 1_000, { current: 2 }),
    ]);
    const stream = await connect(
      await signedIn(org.admin.email, org.admin.password),
      `?devices=${device.id}`,
    );
    await look();
    await stream.waitFor((e) => e.event === 'samples');
    expect(sentSamples(stream)).toMatchObject({ t: [now - 1_000], current: [2] });
  });

  it('refuses strangers, foreign devices, and samples to users without a device module', async () => {
    const org = await buildOrganisation(t.db);
    const foreign = await buildOrganisation(t.db);
    const foreignDevice = await buildSmartDevice(t.db, foreign.organisationId);
    const own = await buildSmartDevice(t.db, org.organisationId);
    const admin = await signedIn(org.admin.email, org.admin.password);

    expect((await connect(new TestClient(t.app))).status).toBe(401);
    expect((await connect(admin, `?devices=${foreignDevice.id}`)).status).toBe(422);
    expect((await connect(admin, `?devices=${own.id},${foreignDevice.id}`)).status).toBe(422);
    expect((await connect(admin, '?devices=abc')).status).toBe(422);

    const clerk = await buildUser(t.db, org.organisationId, { modules: ['requests'] });
    const clerkClient = await signedIn(clerk.email, clerk.password);
    expect((await connect(clerkClient, `?devices=${own.id}`)).status).toBe(403);
    // Without a module that shows devices the stream opens, but no device states come through it.
    const clerkStream = await connect(clerkClient);
    const adminStream = await connect(admin);
    await ingest(own.credential, [sample(Date.now() - 500)]);
    await look();
    await adminStream.waitFor(devicesEvent(own.id));
    // A notification of the clerk's, sent by a later look: had the device come to the clerk, it
    // would have come first.
    await t.db.insertInto('notifications').values(notification(clerk, 'After the device')).execute();
    await look();
    await clerkStream.waitFor((event) => event.event === LIVE_EVENTS.notifications);
    expect(clerkStream.events.map((event) => event.event)).toEqual([LIVE_EVENTS.notifications]);
  });

  it('catches a reconnecting browser up with the devices that reported since its last event', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const admin = await signedIn(org.admin.email, org.admin.password);
    // Another tab is open already, so the device's report is old news to this process.
    const other = await connect(admin);
    const before = Date.now() - 60_000;
    await ingest(device.credential, [sample(Date.now() - 5_000)]);
    await look();
    await other.waitFor(devicesEvent(device.id));

    const reconnected = await connect(admin, '', { 'last-event-id': String(before) });
    const fresh = await connect(admin);
    await reconnected.waitFor(devicesEvent(device.id), 3_000);
    // Another device reports: a look sends it to the fresh stream, which had the first one not.
    const later = await buildSmartDevice(t.db, org.organisationId);
    await ingest(later.credential, [sample(Date.now() - 1_000)]);
    await look();
    await fresh.waitFor(devicesEvent(later.id));
    expect(fresh.events.some(devicesEvent(device.id))).toBe(false);
  });
});

describe('GET /api/live: notifications (the web channel)', () => {
  const titles = (stream: Stream) =>
    stream.events
      .filter((event) => event.event === LIVE_EVENTS.notifications)
      .flatMap((event) => liveNotificationsEventSchema.parse(event.data).data.map((n) => n.title));
  /** The hub's first look over the new streams (what is new is what comes after a stream opened). */
  const settle = look;

  it('sends each user their own new notifications only, newest first, at most 20 an event', async () => {
    const org = await buildOrganisation(t.db);
    const colleague = await buildUser(t.db, org.organisationId, { modules: ['telemetry'] });
    const foreign = await buildOrganisation(t.db);
    await t.db
      .insertInto('notifications')
      .values(notification(org.admin, 'Old, before the stream'))
      .execute();
    const mine = await connect(await signedIn(org.admin.email, org.admin.password));
    const theirs = await connect(await signedIn(colleague.email, colleague.password));
    const foreigners = await connect(await signedIn(foreign.admin.email, foreign.admin.password));
    await settle();

    await t.db
      .insertInto('notifications')
      .values([
        ...Array.from({ length: 25 }, (_, i) => notification(org.admin, `Mine ${i + 1}`)),
        notification(colleague, 'Colleague’s'),
        notification(foreign.admin, 'Foreign'),
      ])
      .execute();
    await look();
    const event = await mine.waitFor((e) => e.event === LIVE_EVENTS.notifications);
    const sent = liveNotificationsEventSchema.parse(event.data).data;
    expect(sent.map((n) => n.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Mine ${25 - i}`));
    expect(sent[0]).toMatchObject({ kind: 'no_data', severity: 'warning', alert_id: null, read_at: null });
    await theirs.waitFor((e) => e.event === LIVE_EVENTS.notifications);
    await foreigners.waitFor((e) => e.event === LIVE_EVENTS.notifications);
    // Two more looks, then one that brings each a last notification: nothing was sent twice,
    // and nobody heard of anyone else's.
    await look();
    await look();
    await t.db
      .insertInto('notifications')
      .values([org.admin, colleague, foreign.admin].map((user) => notification(user, 'Last')))
      .execute();
    await look();
    for (const stream of [mine, theirs, foreigners])
      await stream.waitFor(() => titles(stream).includes('Last'));
    expect(titles(mine)).toHaveLength(21);
    expect(titles(mine)).not.toContain('Old, before the stream');
    expect(titles(theirs)).toEqual(['Colleague’s', 'Last']);
    expect(titles(foreigners)).toEqual(['Foreign', 'Last']);
  });

  it('follows the web flag, the kinds and the severities, but not quiet hours', async () => {
    const org = await buildOrganisation(t.db);
    const muted = await buildUser(t.db, org.organisationId, { modules: ['telemetry'] });
    const picky = await buildUser(t.db, org.organisationId, { modules: ['telemetry'] });
    const settings = (user: BuiltUser, web: boolean, kinds: NotificationKind[]) => ({
      user_id: user.id,
      organisation_id: user.organisationId,
      web: web ? 1 : 0,
      email: 1,
      telegram: 1,
      kinds: JSON.stringify(kinds),
      severities: JSON.stringify(['warning', 'critical']),
      // Always quiet (00:00 to 23:59 in UTC, but the last minute): the web does not care.
      quiet_start: '00:00',
      quiet_end: '23:59',
      quiet_hours_critical: 0,
      time_zone: 'UTC',
      updated_at: new Date().toISOString(),
    });
    await t.db
      .insertInto('user_settings')
      .values([settings(muted, false, ['no_data']), settings(picky, true, ['no_data', 'request'])])
      .execute();
    const mutedStream = await connect(await signedIn(muted.email, muted.password));
    const pickyStream = await connect(await signedIn(picky.email, picky.password));
    await settle();

    await t.db
      .insertInto('notifications')
      .values([
        notification(muted, 'Muted'),
        notification(picky, 'Wrong kind', { kind: 'error_code' }),
        notification(picky, 'Too minor', { severity: 'info' }),
        notification(picky, 'Wanted'),
      ])
      .execute();
    await look();
    await pickyStream.waitFor((e) => e.event === LIVE_EVENTS.notifications);
    // A device reports: a later look sends it to both, after anything the first look sent them.
    const device = await buildSmartDevice(t.db, org.organisationId);
    await ingest(device.credential, [sample(Date.now() - 1_000)]);
    await look();
    await pickyStream.waitFor(devicesEvent(device.id));
    await mutedStream.waitFor(devicesEvent(device.id));
    expect(titles(pickyStream)).toEqual(['Wanted']);
    expect(titles(mutedStream)).toEqual([]);
  });
});

describe('GET /api/live: a stream ends soon after its access does', () => {
  /** Another user of the organisation, whose stream must go on through everything below. */
  async function bystander(organisationId: number) {
    const user = await buildUser(t.db, organisationId, { modules: ['devices'] });
    const stream = await connect(await signedIn(user.email, user.password));
    expect(stream.status).toBe(200);
    return stream;
  }

  async function expectStillStreaming(stream: Stream, organisationId: number) {
    const device = await buildSmartDevice(t.db, organisationId);
    await ingest(device.credential, [sample(Date.now() - 1_000)]);
    await look();
    await stream.waitFor(devicesEvent(device.id));
    expect(stream.endedAt).toBeUndefined();
  }

  it('logout', async () => {
    const org = await buildOrganisation(t.db);
    const others = await bystander(org.organisationId);
    const client = await signedIn(org.admin.email, org.admin.password);
    const stream = await connect(client);
    expect((await client.post('/api/logout', {})).statusCode).toBeLessThan(300);
    await recheck();
    await stream.waitForEnd();
    // Reconnecting with the ended session is refused.
    expect((await connect(client)).status).toBe(401);
    await expectStillStreaming(others, org.organisationId);
  });

  it('a personal access token revoked (logout with the token)', async () => {
    const org = await buildOrganisation(t.db);
    const token = await createPersonalAccessToken(
      { db: t.db, mail: t.app.mail, rateLimiter: t.app.rateLimiter, appUrl: t.config.appUrl },
      org.admin.id,
      'kitchen display',
    );
    const bearer = { authorization: `Bearer ${token}` };
    const stream = await connect(new TestClient(t.app), '', bearer);
    expect(stream.status).toBe(200);
    const revoked = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    await recheck();
    await stream.waitForEnd();
    expect((await connect(new TestClient(t.app), '', bearer)).status).toBe(401);
  });

  it("a password change elsewhere ends the other sessions' streams, not the changing one's", async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId, { modules: ['devices'] });
    const phone = await signedIn(user.email, user.password);
    const laptop = await signedIn(user.email, user.password);
    const onPhone = await connect(phone);
    const onLaptop = await connect(laptop);
    const changed = await laptop.put('/api/user/password', {
      current_password: user.password,
      password: 'harbour-ladle-kettle-9',
      password_confirmation: 'harbour-ladle-kettle-9',
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    await recheck();
    await onPhone.waitForEnd();
    await expectStillStreaming(onLaptop, org.organisationId);
  });

  it('the user disabled by an admin', async () => {
    const org = await buildOrganisation(t.db);
    const admin = await signedIn(org.admin.email, org.admin.password);
    const adminStream = await connect(admin);
    const user = await buildUser(t.db, org.organisationId, { modules: ['devices'] });
    const stream = await connect(await signedIn(user.email, user.password));
    expect(stream.status).toBe(200);
    const disabled = await admin.put(`/api/users/${user.id}`, { disabled: true });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await recheck();
    await stream.waitForEnd();
    await expectStillStreaming(adminStream, org.organisationId);
  });

  it("the user's access role losing the module the stream needed; the reconnected stream carries what is left", async () => {
    const org = await buildOrganisation(t.db);
    const admin = await signedIn(org.admin.email, org.admin.password);
    const adminStream = await connect(admin);
    const user = await buildUser(t.db, org.organisationId, { modules: ['devices', 'requests'] });
    const client = await signedIn(user.email, user.password);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const stream = await connect(client, `?devices=${device.id}`);
    expect(stream.status).toBe(200);

    const requests = await t.db
      .selectFrom('acl_modules')
      .select('id')
      .where('slug', '=', 'requests')
      .executeTakeFirstOrThrow();
    const updated = await admin.post(`/api/acl/role/${user.roleId}`, { module_ids: [requests.id] });
    expect(updated.statusCode, updated.body).toBe(200);
    await recheck();
    await stream.waitForEnd();

    expect((await connect(client, `?devices=${device.id}`)).status).toBe(403);
    const reconnected = await connect(client);
    expect(reconnected.status).toBe(200);
    await ingest(device.credential, [sample(Date.now() - 1_000)]);
    await look();
    await adminStream.waitFor(devicesEvent(device.id));
    expect(reconnected.events.some(devicesEvent(device.id))).toBe(false);
  });
});
