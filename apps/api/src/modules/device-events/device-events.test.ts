import type {
  DeviceEvent,
  DeviceEventTemplate,
  DeviceStat,
  Notification,
  TelemetrySampleInput,
} from '@kontrol/contracts';
import { RulesEngine } from '@kontrol/gateway';
import { deviceSamples } from '@kontrol/simulator';
import { describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation, buildSmartDevice, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();
const MINUTE = 60_000;
const EN = { 'accept-language': 'en' };

const NORMS = {
  idle: { min: 0.5, max: 2 },
  heating: { min: 20, max: 45 },
  cooking: null,
  washing: { min: 3, max: 12 },
};

async function signedIn(org: Awaited<ReturnType<typeof buildOrganisation>>) {
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  return client;
}

async function typeId(slug: string) {
  return (
    await t.db.selectFrom('device_types').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
  ).id;
}

/** A recent minute boundary, so every sample is inside the retention and not in the future. */
function recentMinute(minutesAgo = 60) {
  const now = Date.now();
  return now - (now % MINUTE) - minutesAgo * MINUTE;
}

const sample = (ts: number, state: TelemetrySampleInput['state'], current: number): TelemetrySampleInput => ({
  ts,
  current,
  temperature: 180,
  door_open: false,
  state,
});

async function ingest(credential: string, samples: TelemetrySampleInput[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ingest/v1/telemetry',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    payload: JSON.stringify(samples),
  });
  expect(res.statusCode).toBe(202);
  await t.gateway.rules.idle();
}

async function deviceEvents(deviceId: number) {
  return t.db
    .selectFrom('device_events')
    .selectAll()
    .where('device_id', '=', deviceId)
    .orderBy('id')
    .execute();
}

describe('current templates', () => {
  it('creates a template with keyed rules and gives it to its devices', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const combi = await typeId('combi_oven');
    const devices = [
      await buildDevice(t.db, org.organisationId),
      await buildDevice(t.db, org.organisationId),
    ];
    const res = await client.post('/api/devices/events/templates/add', {
      name: 'Combi 10 GN',
      device_type_id: combi,
      norms: NORMS,
      rules: [
        { kind: 'current_above', state: 'heating', duration_minutes: 2, severity: 'critical' },
        { kind: 'no_data', key: 'silence', duration_minutes: 30 },
        { kind: 'state_too_long', state: 'washing', duration_minutes: 180 },
      ],
      device_ids: devices.map((d) => d.id),
    });
    expect(res.statusCode).toBe(201);
    const template = res.json<{ data: DeviceEventTemplate }>().data;
    expect(template.rules.map((r) => r.key)).toEqual(['r1', 'silence', 'r2']);
    expect(template.rules[1]).toMatchObject({ severity: 'warning', kind: 'no_data' });
    expect(template.device_ids).toEqual(devices.map((d) => d.id).sort((a, b) => a - b));
    expect(template.norms.cooking).toBeNull();

    const device = await client.get(`/api/devices/${devices[0]?.id}`);
    expect(device.json<{ data: { template_id: number; is_smart: boolean } }>().data).toMatchObject({
      template_id: template.id,
      is_smart: true,
    });
    const all = (await client.get('/api/devices/events/templates/all')).json<{
      data: DeviceEventTemplate[];
    }>();
    expect(all.data.map((x) => x.id)).toEqual([template.id]);
  });

  it('answers 422 with the field for a bad band, a rule without a band, a repeated key and a device of another type', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const combi = await typeId('combi_oven');
    const fryer = await buildDevice(t.db, org.organisationId, { type_id: await typeId('fryer') });
    const res = await client.post(
      '/api/devices/events/templates/add',
      {
        name: 'Bad',
        device_type_id: combi,
        norms: { ...NORMS, heating: { min: 50, max: 20 } },
        rules: [{ kind: 'current_above', state: 'heating', duration_minutes: -1 }],
      },
      EN,
    );
    expect(res.statusCode).toBe(422);
    const errors = res.json<{ errors: Record<string, string[]> }>().errors;
    expect(errors['norms.heating.max']).toEqual(['The upper bound cannot be below the lower one.']);
    expect(Object.keys(errors)).toContain('rules.0.duration_minutes');

    const noBand = await client.post(
      '/api/devices/events/templates/add',
      {
        name: 'No band',
        device_type_id: combi,
        norms: NORMS,
        rules: [
          { kind: 'current_below', state: 'cooking' },
          { kind: 'error_code', key: 'e' },
          { kind: 'no_data', key: 'e' },
        ],
        device_ids: [fryer.id],
      },
      EN,
    );
    expect(noBand.statusCode).toBe(422);
    const noBandErrors = noBand.json<{ errors: Record<string, string[]> }>().errors;
    expect(noBandErrors).toEqual({ 'rules.2.key': ['Rule keys must differ within a template.'] });
    const fixedKeys = await client.post(
      '/api/devices/events/templates/add',
      {
        name: 'No band',
        device_type_id: combi,
        norms: NORMS,
        rules: [{ kind: 'current_below', state: 'cooking' }],
        device_ids: [fryer.id],
      },
      EN,
    );
    expect(fixedKeys.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'rules.0.state': ['The norm has no band of current for this state.'],
      device_ids: [
        'This equipment is of another type: a template describes the current of its own type only.',
      ],
    });
    expect(
      await t.db
        .selectFrom('device_event_templates')
        .selectAll()
        .where('organisation_id', '=', org.organisationId)
        .execute(),
    ).toEqual([]);
  });

  it("never shows or changes another organisation's templates and events", async () => {
    const ours = await buildOrganisation(t.db);
    const theirs = await buildOrganisation(t.db);
    const theirClient = await signedIn(theirs);
    const theirDevice = await buildDevice(t.db, theirs.organisationId);
    const template = (
      await theirClient.post('/api/devices/events/templates/add', {
        name: 'Theirs',
        device_type_id: await typeId('combi_oven'),
        device_ids: [theirDevice.id],
      })
    ).json<{ data: DeviceEventTemplate }>().data;
    const event = (
      await theirClient.post('/api/devices/events/add', { device_id: theirDevice.id, title: 'Theirs' })
    ).json<{ data: DeviceEvent }>().data;

    const client = await signedIn(ours);
    expect((await client.get('/api/devices/events/templates/all')).json<{ data: unknown[] }>().data).toEqual(
      [],
    );
    expect((await client.get('/api/devices/events')).json<{ data: unknown[] }>().data).toEqual([]);
    for (const url of [`/api/devices/events/templates/${template.id}`, `/api/devices/events/${event.id}`]) {
      expect((await client.get(url)).statusCode).toBe(404);
      expect((await client.put(url, { acknowledged: true })).statusCode).toBe(
        url.includes('templates') ? 422 : 404,
      );
      expect((await client.delete(url)).statusCode).toBe(404);
    }
    expect(
      (
        await client.put(`/api/devices/events/templates/${template.id}`, {
          name: 'Mine now',
          device_type_id: await typeId('combi_oven'),
        })
      ).statusCode,
    ).toBe(404);
    // Nor may our events name their device.
    const mine = await client.post('/api/devices/events/add', { device_id: theirDevice.id, title: 'x' }, EN);
    expect(mine.statusCode).toBe(422);
    expect(mine.json<{ errors: Record<string, string[]> }>().errors.device_id).toEqual([
      'The selected value does not exist.',
    ]);
    const still = await theirClient.get(`/api/devices/events/templates/${template.id}`);
    expect(still.json<{ data: DeviceEventTemplate }>().data).toMatchObject({
      name: 'Theirs',
      device_ids: [theirDevice.id],
    });
  });

  it('lets a dashboard user acknowledge an event but not change it', async () => {
    const org = await buildOrganisation(t.db);
    const admin = await signedIn(org);
    const device = await buildDevice(t.db, org.organisationId);
    const event = (
      await admin.post('/api/devices/events/add', { device_id: device.id, title: 'Door seal' })
    ).json<{
      data: DeviceEvent;
    }>().data;
    const viewer = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    const client = new TestClient(t.app);
    await client.login(viewer.email, viewer.password);
    expect((await client.put(`/api/devices/events/${event.id}`, { title: 'Mine' })).statusCode).toBe(403);
    const acked = await client.put(`/api/devices/events/${event.id}`, {
      acknowledged: true,
      comment: 'Seen',
    });
    expect(acked.statusCode).toBe(200);
    expect(acked.json<{ data: DeviceEvent }>().data).toMatchObject({
      title: 'Door seal',
      acknowledged: { comment: 'Seen' },
    });
  });

  it('refuses a user without the module (403)', async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId, { modules: ['telemetry'] });
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    expect((await client.get('/api/devices/events/templates/all')).statusCode).toBe(403);
    expect((await client.get('/api/devices/events')).statusCode).toBe(403);
  });
});

describe('rules on arriving samples', () => {
  async function watchedOven(rules: object[]) {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const template = (
      await client.post('/api/devices/events/templates/add', {
        name: 'Oven',
        device_type_id: await typeId('combi_oven'),
        norms: NORMS,
        rules,
        device_ids: [device.id],
      })
    ).json<{ data: DeviceEventTemplate }>().data;
    return { org, client, device, template };
  }

  it('raises exactly one event for a fault, notifies, counts it on the dashboard and closes it when it clears', async () => {
    const { client, device, template } = await watchedOven([
      { kind: 'current_above', state: 'heating', duration_minutes: 2, severity: 'critical' },
    ]);
    const t0 = recentMinute(30);
    const before = (await client.get('/api/devices/stat')).json<{ data: DeviceStat }>().data;
    expect(before.counters.issueReports).toBe(0);

    // Normal heating, then 60 A (one phase's element shorted) for three minutes.
    await ingest(device.credential, [sample(t0, 'heating', 30), sample(t0 + MINUTE, 'heating', 60)]);
    await ingest(device.credential, [
      sample(t0 + 2 * MINUTE, 'heating', 61),
      sample(t0 + 3 * MINUTE, 'heating', 62),
    ]);
    // The same message again (a redelivery) and more of the fault: still one event.
    await ingest(device.credential, [
      sample(t0 + 3 * MINUTE, 'heating', 62),
      sample(t0 + 4 * MINUTE, 'heating', 63),
    ]);
    let events = await deviceEvents(device.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'current_above',
      severity: 'critical',
      template_id: template.id,
      rule_key: 'r1',
      started_ts: t0 + MINUTE,
      ended_ts: null,
      value: 62,
    });

    const listed = (await client.get('/api/devices/events', EN)).json<{ data: DeviceEvent[] }>().data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      title: 'Current above the norm',
      description: 'heating: 62.0 A against a norm of 20–45 A',
      ended_at: null,
      acknowledged: null,
    });
    const notifications = (await client.get('/api/notifications?page=1')).json<{ data: Notification[] }>()
      .data;
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      kind: 'current_above',
      severity: 'critical',
      device_id: device.id,
      event_id: listed[0]?.id,
      title: 'Current above the norm',
      // When the event started, not when the notification was written.
      occurred_at: new Date(t0 + MINUTE).toISOString(),
    });
    expect(notifications[0]?.created_at).not.toBe(notifications[0]?.occurred_at);
    const during = (await client.get('/api/devices/stat')).json<{ data: DeviceStat }>().data;
    expect(during.counters.issueReports).toBe(1);
    expect(during.issues_count).toBe(1);
    expect(during.devices.find((d) => d.id === device.id)).toMatchObject({
      open_events: 1,
      open_severity: 'critical',
      problem_since: new Date(t0 + MINUTE).toISOString(),
    });

    await ingest(device.credential, [sample(t0 + 5 * MINUTE, 'heating', 30)]);
    events = await deviceEvents(device.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.ended_ts).toBe(t0 + 5 * MINUTE);
    const after = (await client.get('/api/devices/stat')).json<{ data: DeviceStat }>().data;
    expect(after.counters.issueReports).toBe(0);
    expect((await client.get('/api/notifications?page=1')).json<{ data: unknown[] }>().data).toHaveLength(1);
  });

  it('opens one event when two gateways share the device (state in the database)', async () => {
    const { device } = await watchedOven([{ kind: 'current_below', state: 'heating', duration_minutes: 2 }]);
    const t0 = recentMinute(30);
    const other = new RulesEngine({ db: t.db, log: t.app.log, noDataEveryMs: 0 });
    // This gateway stores and evaluates the first minutes ...
    await ingest(device.credential, [sample(t0, 'heating', 10), sample(t0 + MINUTE, 'heating', 10)]);
    // ... another one gets the next samples (through the same database) and goes on from its state.
    const stored = (ts: number) => ({
      deviceId: device.id,
      ts,
      current: 10,
      temperature: 180,
      doorOpen: 0,
      state: 2,
      program: null,
      errorCode: null,
      coreTemperature: null,
      humidity: null,
    });
    other.enqueue([stored(t0 + 2 * MINUTE)]);
    t.gateway.rules.enqueue([stored(t0 + 2 * MINUTE), stored(t0 + 3 * MINUTE)]);
    await Promise.all([other.idle(), t.gateway.rules.idle()]);
    await other.close();
    const events = await deviceEvents(device.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ started_ts: t0, ended_ts: null });
  });

  it('opens a no-data event on the timer once, and closes it with the next sample', async () => {
    const { device, client } = await watchedOven([
      { kind: 'no_data', duration_minutes: 30, severity: 'warning' },
    ]);
    const t0 = recentMinute(45);
    await ingest(device.credential, [sample(t0, 'idle', 1)]);
    expect(await t.gateway.rules.checkNoData()).toBeGreaterThanOrEqual(1);
    expect(await t.gateway.rules.checkNoData()).toBe(0);
    let events = await deviceEvents(device.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'no_data', started_ts: t0, ended_ts: null });
    const listed = (await client.get('/api/devices/events', EN)).json<{ data: DeviceEvent[] }>().data;
    expect(listed[0]?.description).toBe('No data for 30 min');

    await ingest(device.credential, [sample(t0 + 44 * MINUTE, 'idle', 1)]);
    events = await deviceEvents(device.id);
    expect(events[0]?.ended_ts).toBe(t0 + 44 * MINUTE);
  });

  it('closes the events of a rule taken out of the template, and of a deleted template', async () => {
    const { device, client, template } = await watchedOven([
      { kind: 'error_code', severity: 'critical' },
      { kind: 'door_open_while_heating', duration_minutes: 0 },
    ]);
    const t0 = recentMinute(30);
    await ingest(device.credential, [{ ...sample(t0, 'heating', 30), door_open: true, error_code: 'E34' }]);
    expect((await deviceEvents(device.id)).filter((e) => e.ended_ts === null)).toHaveLength(2);

    const edited = await client.put(`/api/devices/events/templates/${template.id}`, {
      name: template.name,
      device_type_id: template.device_type_id,
      norms: template.norms,
      rules: [template.rules[0]],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<{ data: DeviceEventTemplate }>().data.device_ids).toEqual([device.id]);
    let open = (await deviceEvents(device.id)).filter((e) => e.ended_ts === null);
    expect(open.map((e) => e.kind)).toEqual(['error_code']);

    expect((await client.delete(`/api/devices/events/templates/${template.id}`)).statusCode).toBe(204);
    open = (await deviceEvents(device.id)).filter((e) => e.ended_ts === null);
    expect(open).toEqual([]);
    const after = await t.db
      .selectFrom('devices')
      .select('template_id')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(after.template_id).toBeNull();
    // Its closed events stay in the history, no longer naming the template.
    expect((await deviceEvents(device.id)).map((e) => e.template_id)).toEqual([null, null]);
  });
});

describe('a simulated device', () => {
  it('raises one event per fault the simulator plays, each closed when the fault clears', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const fridge = await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'refrigerator' });
    await client.post('/api/devices/events/templates/add', {
      name: 'Fridge',
      device_type_id: await typeId('refrigerator'),
      norms: { idle: { min: 0, max: 8 } },
      rules: [{ kind: 'error_code', severity: 'critical' }],
      device_ids: [fridge.id],
    });
    // A fault every day, no offline spells; two days of samples, a minute apart, sent as the device would.
    const now = Date.now();
    const samples = [
      ...deviceSamples(
        { type: 'refrigerator', controllerId: fridge.controllerId, failureRate: 1, offlineRate: 0, seed: 7 },
        now - 2 * 24 * 60 * MINUTE,
        now - MINUTE,
      ),
    ];
    for (let start = 0; start < samples.length; start += 500)
      await ingest(fridge.credential, samples.slice(start, start + 500));

    // The fault episodes as the samples show them: runs of samples with an error code.
    const episodes: { start: number; end: number | null }[] = [];
    samples.forEach((s, index) => {
      const faulty = s.error_code !== undefined && s.error_code !== null;
      const before = samples[index - 1];
      const wasFaulty = before !== undefined && before.error_code !== undefined && before.error_code !== null;
      if (faulty && !wasFaulty) episodes.push({ start: s.ts, end: null });
      if (!faulty && wasFaulty) (episodes.at(-1) as { end: number | null }).end = s.ts;
    });
    expect(episodes.length).toBeGreaterThanOrEqual(1);
    const events = await deviceEvents(fridge.id);
    expect(
      events.map((e) => ({
        start: Number(e.started_ts),
        end: e.ended_ts === null ? null : Number(e.ended_ts),
      })),
    ).toEqual(episodes);
    expect(events.every((e) => e.kind === 'error_code' && e.severity === 'critical')).toBe(true);
    const notifications = (await client.get('/api/notifications?page=1&per_page=100')).json<{
      data: Notification[];
    }>().data;
    expect(notifications.filter((n) => n.device_id === fridge.id)).toHaveLength(episodes.length);
  });
});

describe('manual events', () => {
  it('writes, notifies, acknowledges, closes and deletes a manual event', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const device = await buildDevice(t.db, org.organisationId, { name: 'Fryer 2' });
    const created = await client.post('/api/devices/events/add', {
      device_id: device.id,
      severity: 'warning',
      title: 'Oil smells burnt',
      description: 'Changed the oil',
    });
    expect(created.statusCode).toBe(201);
    const event = created.json<{ data: DeviceEvent }>().data;
    expect(event).toMatchObject({
      kind: 'manual',
      title: 'Oil smells burnt',
      ended_at: null,
      created_by: { id: org.admin.id },
    });
    const notes = (await client.get('/api/notifications?page=1')).json<{ data: Notification[] }>().data;
    expect(notes[0]).toMatchObject({
      title: 'Oil smells burnt',
      body: 'Fryer 2: Changed the oil',
      event_id: event.id,
    });

    const acked = await client.put(`/api/devices/events/${event.id}`, {
      acknowledged: true,
      comment: 'On it',
    });
    expect(acked.json<{ data: DeviceEvent }>().data.acknowledged).toMatchObject({
      by: { id: org.admin.id, name: 'Admin' },
      comment: 'On it',
    });
    const ended = new Date(Date.parse(event.started_at) + MINUTE).toISOString();
    const closed = await client.put(`/api/devices/events/${event.id}`, { ended_at: ended });
    expect(closed.json<{ data: DeviceEvent }>().data.ended_at).toBe(ended);
    const early = await client.put(
      `/api/devices/events/${event.id}`,
      { ended_at: '2000-01-01T00:00:00Z' },
      EN,
    );
    expect(early.statusCode).toBe(422);
    expect(early.json<{ errors: Record<string, string[]> }>().errors.ended_at).toEqual([
      'The end cannot be before the start.',
    ]);

    const open = await client.get(
      '/api/devices/events?page=1&filters=' +
        encodeURIComponent(JSON.stringify({ ended_at: { operator: '=', value: null } })),
    );
    expect(open.json<{ data: unknown[]; meta: { total: number } }>().meta.total).toBe(0);
    expect((await client.delete(`/api/devices/events/${event.id}`)).statusCode).toBe(204);
    expect((await client.get(`/api/devices/events/${event.id}`)).statusCode).toBe(404);
  });

  it('keeps a rule’s event closed by its rule only', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org);
    const device = await buildDevice(t.db, org.organisationId);
    const now = new Date().toISOString();
    const row = await t.db
      .insertInto('device_events')
      .values({
        organisation_id: org.organisationId,
        device_id: device.id,
        template_id: null,
        rule_key: 'r1',
        condition_key: '0:r1',
        kind: 'error_code',
        severity: 'critical',
        details: JSON.stringify({ code: 'E1' }),
        started_ts: Date.now(),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await client.put(`/api/devices/events/${row.id}`, { ended_at: now }, EN);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<{ errors: object }>().errors)).toEqual(['ended_at']);
    expect((await client.delete(`/api/devices/events/${row.id}`)).statusCode).toBe(409);
    const acked = await client.put(`/api/devices/events/${row.id}`, { acknowledged: true });
    expect(acked.statusCode).toBe(200);
  });
});
