import { translate, type Complaint, type ComplaintEvent, type MessageKey } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildAddress, buildDevice, buildOrganisation, buildRoom, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

const en = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);
type Errors = { message: string; errors: Record<string, string[]> };
interface Paged {
  data: Complaint[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}
const ALERTS = '/api/alerts/';

/** An organisation with a device in a room at an address, another address, and its admin signed in. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const address = await buildAddress(t.db, org.organisationId, { name: 'Tverskaya 1' });
  const room = await buildRoom(t.db, org.organisationId, { addressId: address.id });
  const device = await buildDevice(t.db, org.organisationId, { room_id: room.id, name: 'Oven 1' });
  const otherAddress = await buildAddress(t.db, org.organisationId, { name: 'Arbat 2' });
  const file = async (body: Record<string, unknown>) => {
    const res = await client.post(ALERTS, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Complaint }>().data;
  };
  const post = async (id: number, body: Record<string, unknown>) => {
    const res = await client.post(`/api/alerts/${id}/events`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: ComplaintEvent[] }>().data;
  };
  const timeline = async (id: number) => {
    const res = await client.get(`/api/alerts/${id}/events`);
    expect(res.statusCode).toBe(200);
    return res.json<{ data: ComplaintEvent[] }>().data;
  };
  return { ...org, client, address, device, otherAddress, file, post, timeline };
}

/** A signed-in user of the organisation holding `modules`. */
async function signedIn(organisationId: number, options: Parameters<typeof buildUser>[2] = {}) {
  const user = await buildUser(t.db, organisationId, options);
  const client = new TestClient(t.app);
  await client.login(user.email, user.password);
  return { user, client };
}

describe('POST /api/alerts/ and GET /api/alerts/{id}', () => {
  it('files a complaint about a device at its address, new, with a `created` entry: 201', async () => {
    const { client, device, address, admin, file, timeline } = await setup();
    const complaint = await file({
      title: '  Door seal leaks ',
      text: 'Steam comes out',
      device_id: device.id,
    });
    expect(complaint).toMatchObject({
      title: 'Door seal leaks',
      text: 'Steam comes out',
      priority: 'normal',
      status: 'new',
      device_id: device.id,
      address_id: address.id,
      author: { id: admin.id, name: 'Admin' },
      assignee: null,
      photos: [],
      comments_count: 0,
      resolved_at: null,
    });
    expect(Date.parse(complaint.created_at)).not.toBeNaN();
    const shown = await client.get(`/api/alerts/${complaint.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ data: complaint });
    expect(await timeline(complaint.id)).toEqual([
      expect.objectContaining({
        alert_id: complaint.id,
        kind: 'created',
        author: { id: admin.id, name: 'Admin' },
        to_status: 'new',
        priority: 'normal',
        assignee: null,
        photos: [],
      }),
    ]);
  });

  it('files one about an address alone, with a priority and an assignee', async () => {
    const { organisationId, otherAddress, file } = await setup();
    const { user } = await signedIn(organisationId, { modules: ['requests'] });
    const complaint = await file({
      title: 'Ventilation noise',
      address_id: otherAddress.id,
      priority: 'urgent',
      assignee_id: user.id,
    });
    expect(complaint).toMatchObject({
      device_id: null,
      address_id: otherAddress.id,
      priority: 'urgent',
      assignee: { id: user.id, name: 'User' },
      text: '',
    });
  });

  it('accepts a device with its own address, and refuses it with another (422 on address_id)', async () => {
    const { client, device, address, otherAddress, file } = await setup();
    expect((await file({ title: 'A', device_id: device.id, address_id: address.id })).address_id).toBe(
      address.id,
    );
    const res = await client.post(ALERTS, { title: 'A', device_id: device.id, address_id: otherAddress.id });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ address_id: [en('complaint.device_address')] });
  });

  it('needs a device or an address, and a title', async () => {
    const { client } = await setup();
    const res = await client.post(ALERTS, { title: ' ' });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toMatchObject({
      title: [en('field.required')],
    });
    const noSubject = await client.post(ALERTS, { title: 'A' });
    expect(noSubject.statusCode).toBe(422);
    expect(noSubject.json<Errors>().errors).toEqual({ device_id: [en('complaint.subject_required')] });
  });

  it("refuses another organisation's device, address and user (422 field.exists) and unknown photos", async () => {
    const { client } = await setup();
    const other = await buildOrganisation(t.db);
    const theirDevice = await buildDevice(t.db, other.organisationId);
    const theirAddress = await buildAddress(t.db, other.organisationId);
    const res = await client.post(ALERTS, {
      title: 'A',
      device_id: theirDevice.id,
      address_id: theirAddress.id,
      assignee_id: other.admin.id,
      photos: ['0123456789abcdef0123456789abcdef.jpg'],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      device_id: [en('field.exists')],
      address_id: [en('field.exists')],
      assignee_id: [en('field.exists')],
      photos: [en('complaint.photo')],
    });
    expect(
      await t.db
        .selectFrom('complaints')
        .select('id')
        .where('organisation_id', '=', other.organisationId)
        .execute(),
    ).toEqual([]);
  });

  it('gives complaints only to active users holding `requests` (422 complaint.assignee)', async () => {
    const { client, organisationId, device } = await setup();
    const noModule = await buildUser(t.db, organisationId, { modules: ['dashboard'] });
    const noRole = await buildUser(t.db, organisationId);
    const disabled = await buildUser(t.db, organisationId, { modules: ['requests'] });
    await t.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', disabled.id)
      .execute();
    for (const user of [noModule, noRole, disabled]) {
      const res = await client.post(ALERTS, { title: 'A', device_id: device.id, assignee_id: user.id });
      expect(res.statusCode).toBe(422);
      expect(res.json<Errors>().errors).toEqual({ assignee_id: [en('complaint.assignee')] });
    }
  });
});

describe('GET /api/alerts/', () => {
  it("lists the organisation's complaints newest first, paged, never another organisation's", async () => {
    const { client, device, file } = await setup();
    const other = await setup();
    await other.file({ title: 'Theirs', device_id: other.device.id });
    const first = await file({ title: 'First', device_id: device.id });
    const second = await file({ title: 'Second', device_id: device.id });
    const third = await file({ title: 'Third', device_id: device.id });
    const res = await client.get(`${ALERTS}?page=1&per_page=2`);
    expect(res.statusCode).toBe(200);
    const page = res.json<Paged>();
    expect(page.data.map((c) => c.id)).toEqual([third.id, second.id]);
    expect(page.meta).toMatchObject({ current_page: 1, last_page: 2, per_page: 2, total: 3 });
    const next = (await client.get(`${ALERTS}?page=2&per_page=2`)).json<Paged>();
    expect(next.data.map((c) => c.id)).toEqual([first.id]);
  });

  it('filters by status, priority, device, address, assignee, title and creation time', async () => {
    const { client, organisationId, device, otherAddress, file, post } = await setup();
    const { user } = await signedIn(organisationId, { modules: ['requests'] });
    const oven = await file({ title: 'Oven too hot', device_id: device.id, priority: 'high' });
    const vent = await file({ title: 'Vent noise', address_id: otherAddress.id, assignee_id: user.id });
    const closed = await file({ title: 'Old one', device_id: device.id });
    await post(closed.id, { status: 'closed' });

    const ids = async (query: string) => {
      const res = await client.get(`${ALERTS}?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json<Paged>()
        .data.map((c) => c.id)
        .sort((a, b) => a - b);
    };
    const f = (field: string, operator: string, value: string | string[]) =>
      typeof value === 'string'
        ? `filters[${field}][operator]=${encodeURIComponent(operator)}&filters[${field}][value]=${encodeURIComponent(value)}`
        : `filters[${field}][operator]=${encodeURIComponent(operator)}&` +
          value.map((v, i) => `filters[${field}][value][${i}]=${encodeURIComponent(v)}`).join('&');
    expect(await ids(f('status', 'in', ['new', 'in_progress']))).toEqual([oven.id, vent.id]);
    expect(await ids(f('status', '=', 'closed'))).toEqual([closed.id]);
    expect(await ids(f('priority', '=', 'high'))).toEqual([oven.id]);
    expect(await ids(f('device_id', '=', String(device.id)))).toEqual([oven.id, closed.id]);
    expect(await ids(f('address_id', 'in', [String(otherAddress.id)]))).toEqual([vent.id]);
    expect(await ids(f('assignee_id', '=', String(user.id)))).toEqual([vent.id]);
    expect(await ids(f('title', 'like', 'OVEN'))).toEqual([oven.id]);
    expect(await ids(f('created_at', '>=', '2000-01-01T00:00:00Z'))).toEqual([oven.id, vent.id, closed.id]);
    expect(await ids(f('created_at', '<=', '2000-01-01T00:00:00Z'))).toEqual([]);
    const json = encodeURIComponent(JSON.stringify({ assignee_id: { operator: '=', value: null } }));
    expect(await ids(`filters=${json}`)).toEqual([oven.id, closed.id]);

    const refused = await client.get(`${ALERTS}?${f('text', 'like', 'x')}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<Errors>().errors).toEqual({ 'filters.text': [en('filter.field')] });
    const operator = await client.get(`${ALERTS}?${f('title', '=', 'x')}`);
    expect(operator.json<Errors>().errors).toEqual({ 'filters.title': [en('filter.operator')] });
  });
});

describe('POST /api/alerts/{id}/events', () => {
  it('writes a comment, then status, assignee and priority entries, in one go', async () => {
    const { organisationId, device, admin, file, post, timeline, client } = await setup();
    const { user } = await signedIn(organisationId, { modules: ['requests'] });
    const complaint = await file({ title: 'A', device_id: device.id });
    const written = await post(complaint.id, {
      text: ' On it ',
      status: 'in_progress',
      assignee_id: user.id,
      priority: 'high',
    });
    expect(written).toEqual([
      expect.objectContaining({ kind: 'comment', text: 'On it', author: { id: admin.id, name: 'Admin' } }),
      expect.objectContaining({ kind: 'status', from_status: 'new', to_status: 'in_progress', text: null }),
      expect.objectContaining({ kind: 'assignee', assignee: { id: user.id, name: 'User' } }),
      expect.objectContaining({ kind: 'priority', priority: 'high' }),
    ]);
    expect((await timeline(complaint.id)).map((e) => e.kind)).toEqual([
      'created',
      'comment',
      'status',
      'assignee',
      'priority',
    ]);
    const now = (await client.get(`/api/alerts/${complaint.id}`)).json<{ data: Complaint }>().data;
    expect(now).toMatchObject({
      status: 'in_progress',
      priority: 'high',
      assignee: { id: user.id },
      comments_count: 1,
      resolved_at: null,
    });
    expect(now.updated_at >= complaint.updated_at).toBe(true);
  });

  it('writes only what changes; nothing at all is a 422', async () => {
    const { device, file, post, client } = await setup();
    const complaint = await file({ title: 'A', device_id: device.id, priority: 'high' });
    const written = await post(complaint.id, {
      text: 'Note',
      status: 'new',
      priority: 'high',
      assignee_id: null,
    });
    expect(written.map((e) => e.kind)).toEqual(['comment']);
    const res = await client.post(`/api/alerts/${complaint.id}/events`, { status: 'new', priority: 'high' });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ text: [en('complaint.event_empty')] });
    const empty = await client.post(`/api/alerts/${complaint.id}/events`, { text: '  ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json<Errors>().errors).toEqual({ text: [en('complaint.event_empty')] });
  });

  it('moves along the transitions, sets resolved_at when resolved or closed, clears it when reopened', async () => {
    const { device, file, post, client } = await setup();
    const complaint = await file({ title: 'A', device_id: device.id });
    const read = async () =>
      (await client.get(`/api/alerts/${complaint.id}`)).json<{ data: Complaint }>().data;
    await post(complaint.id, { status: 'resolved' });
    const resolved = await read();
    expect(resolved.status).toBe('resolved');
    expect(resolved.resolved_at).not.toBeNull();
    await post(complaint.id, { status: 'in_progress' });
    expect(await read()).toMatchObject({ status: 'in_progress', resolved_at: null });
    await post(complaint.id, { status: 'closed' });
    const closed = await read();
    expect(closed.status).toBe('closed');
    expect(closed.resolved_at).not.toBeNull();
  });

  it('refuses a move the transitions do not allow, naming both statuses in the caller’s language', async () => {
    const { device, file, post, client } = await setup();
    const complaint = await file({ title: 'A', device_id: device.id });
    await post(complaint.id, { status: 'in_progress' });
    const back = await client.post(`/api/alerts/${complaint.id}/events`, { status: 'new', text: 'Undo' });
    expect(back.statusCode).toBe(422);
    expect(back.json<Errors>().errors).toEqual({
      status: [en('complaint.transition', { from: 'In progress', to: 'New' })],
    });
    const ru = await client.post(
      `/api/alerts/${complaint.id}/events`,
      { status: 'new' },
      { 'accept-language': 'ru' },
    );
    expect(ru.json<Errors>().errors).toEqual({
      status: [translate('ru', 'complaint.transition', { from: 'В работе', to: 'Новая' })],
    });
    // Nothing of a refused body is written, not even its comment.
    expect(
      (await client.get(`/api/alerts/${complaint.id}/events`)).json<{ data: unknown[] }>().data,
    ).toHaveLength(2);
  });

  it('keeps a closed complaint closed: comments only', async () => {
    const { organisationId, device, file, post, client } = await setup();
    const { user } = await signedIn(organisationId, { modules: ['requests'] });
    const complaint = await file({ title: 'A', device_id: device.id });
    await post(complaint.id, { status: 'closed' });
    for (const [body, field] of [
      [{ status: 'resolved' }, 'status'],
      [{ assignee_id: user.id }, 'assignee_id'],
      [{ priority: 'urgent' }, 'priority'],
    ] as const) {
      const res = await client.post(`/api/alerts/${complaint.id}/events`, body);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json<Errors>().errors)).toEqual([field]);
    }
    expect((await post(complaint.id, { text: 'Replaced under warranty' })).map((e) => e.kind)).toEqual([
      'comment',
    ]);
  });

  it('lets anyone holding `requests` comment and move the status; assignees are checked', async () => {
    const { organisationId, device, file } = await setup();
    const { client: clerk } = await signedIn(organisationId, { modules: ['requests'] });
    const outsider = await buildUser(t.db, organisationId, { modules: ['recipes'] });
    const complaint = await file({ title: 'A', device_id: device.id });
    const res = await clerk.post(`/api/alerts/${complaint.id}/events`, {
      text: 'Seen',
      status: 'in_progress',
    });
    expect(res.statusCode).toBe(201);
    const refused = await clerk.post(`/api/alerts/${complaint.id}/events`, { assignee_id: outsider.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<Errors>().errors).toEqual({ assignee_id: [en('complaint.assignee')] });
  });
});

describe('complaints: organisations, modules and sessions', () => {
  it("answers 404 for another organisation's complaint and changes nothing of it", async () => {
    const { client } = await setup();
    const other = await setup();
    const theirs = await other.file({ title: 'Theirs', device_id: other.device.id });
    expect((await client.get(`/api/alerts/${theirs.id}`)).statusCode).toBe(404);
    expect((await client.get(`/api/alerts/${theirs.id}/events`)).statusCode).toBe(404);
    const res = await client.post(`/api/alerts/${theirs.id}/events`, { text: 'Hi', status: 'closed' });
    expect(res.statusCode).toBe(404);
    expect((await other.timeline(theirs.id)).map((e) => e.kind)).toEqual(['created']);
    expect((await other.client.get(`/api/alerts/${theirs.id}`)).json<{ data: Complaint }>().data.status).toBe(
      'new',
    );
    expect((await client.get('/api/alerts/999999999')).statusCode).toBe(404);
  });

  it('answers 403 without the requests module, 401 without a session, 419 without the CSRF token', async () => {
    const { organisationId, device, client, file } = await setup();
    const complaint = await file({ title: 'A', device_id: device.id });
    const { client: noModule } = await signedIn(organisationId, { modules: ['dashboard'] });
    expect((await noModule.get(ALERTS)).statusCode).toBe(403);
    expect((await noModule.post(ALERTS, { title: 'A', device_id: device.id })).statusCode).toBe(403);
    expect((await noModule.get(`/api/alerts/${complaint.id}/events`)).statusCode).toBe(403);
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get(ALERTS)).statusCode).toBe(401);
    client.sendXsrf = false;
    expect((await client.post(ALERTS, { title: 'A', device_id: device.id })).statusCode).toBe(419);
  });
});
