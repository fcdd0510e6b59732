import type { Notification } from '@kontrol/contracts';
import { migrateTo, migrateToLatest, type Database, type NotificationSeverity } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation, buildUser, type BuiltUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { createTestDatabase } from '@kontrol/db/testing';

const t = useTestApp();

type Errors = Record<string, string[]>;

/** A notification row as a source (the gateway, complaints) writes it. */
async function insertNotification(
  db: Kysely<Database>,
  user: BuiltUser,
  values: {
    title?: string;
    severity?: NotificationSeverity;
    complaintId?: number;
    readAt?: string;
    occurredAt?: string;
  } = {},
) {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('notifications')
    .values({
      organisation_id: user.organisationId,
      user_id: user.id,
      kind: values.complaintId ? 'request' : 'manual',
      severity: values.severity ?? 'warning',
      title: values.title ?? 'Oven too hot',
      body: 'Oven 1: 320 °C',
      device_id: null,
      event_id: null,
      complaint_id: values.complaintId ?? null,
      created_at: now,
      occurred_at: values.occurredAt ?? now,
      read_at: values.readAt ?? null,
      dispatched_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function signedIn(user: BuiltUser) {
  const client = new TestClient(t.app);
  await client.login(user.email, user.password);
  return client;
}

const readAt = async (id: number) =>
  (await t.db.selectFrom('notifications').select('read_at').where('id', '=', id).executeTakeFirstOrThrow())
    .read_at;

/** Two users of one organisation and one of another, each with notifications of their own. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const other = await buildOrganisation(t.db);
  const colleague = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
  const mine = [
    await insertNotification(t.db, org.admin, { title: 'First' }),
    await insertNotification(t.db, org.admin, { title: 'Complaint answered', complaintId: 7 }),
    await insertNotification(t.db, org.admin, { title: 'Seen', readAt: '2025-01-01T00:00:00.000Z' }),
  ];
  const colleagues = await insertNotification(t.db, colleague, { title: 'Colleague’s' });
  const foreign = await insertNotification(t.db, other.admin, { title: 'Foreign' });
  return { org, client: await signedIn(org.admin), mine, colleagues, foreign, colleague, other };
}

describe('GET /api/notifications', () => {
  it('says when what each tells of happened and sorts by it, newest first; filters by it', async () => {
    const org = await buildOrganisation(t.db);
    // Written in this order, about things that happened in another (a device sent its history late).
    const late = await insertNotification(t.db, org.admin, {
      title: 'Last week',
      occurredAt: '2026-01-01T10:00:00.000Z',
    });
    const fresh = await insertNotification(t.db, org.admin, {
      title: 'Latest',
      occurredAt: '2026-01-08T09:15:00.000Z',
    });
    const earlier = await insertNotification(t.db, org.admin, {
      title: 'Earlier',
      occurredAt: '2026-01-08T07:30:00.000Z',
    });
    const client = await signedIn(org.admin);

    const list = (await client.get('/api/notifications?page=1')).json<{ data: Notification[] }>().data;
    expect(list.map((n) => n.id)).toEqual([fresh, earlier, late]);
    expect(list.map((n) => n.occurred_at)).toEqual([
      '2026-01-08T09:15:00.000Z',
      '2026-01-08T07:30:00.000Z',
      '2026-01-01T10:00:00.000Z',
    ]);
    // Each still says when it was written.
    expect(list.every((n) => Date.parse(n.created_at) > Date.parse('2026-01-09T00:00:00.000Z'))).toBe(true);

    const filters = JSON.stringify({ occurred_at: { operator: '<=', value: '2026-01-08T08:00:00.000Z' } });
    const older = (
      await client.get(`/api/notifications?page=1&filters=${encodeURIComponent(filters)}`)
    ).json<{
      data: Notification[];
    }>().data;
    expect(older.map((n) => n.id)).toEqual([earlier, late]);
  });

  it("lists the caller's own notifications only, with the complaint they are about", async () => {
    const { client, mine, colleague, colleagues, foreign } = await setup();
    const res = await client.get('/api/notifications');
    expect(res.statusCode).toBe(200);
    const list = res.json<{ data: Notification[] }>().data;
    expect(list.map((n) => n.id)).toEqual([...mine].reverse());
    expect(list.find((n) => n.id === mine[1])).toMatchObject({ kind: 'request', alert_id: 7 });
    expect(list.find((n) => n.id === mine[0])).toMatchObject({ alert_id: null });
    expect(list.some((n) => n.id === colleagues || n.id === foreign)).toBe(false);

    const theirs = await (await signedIn(colleague)).get('/api/notifications');
    expect(theirs.json<{ data: Notification[] }>().data.map((n) => n.id)).toEqual([colleagues]);
  });

  it('needs a signed-in user', async () => {
    expect((await new TestClient(t.app).get('/api/notifications')).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/notifications/unread')).statusCode).toBe(401);
  });
});

describe('GET /api/notifications/unread', () => {
  it("counts the caller's unread notifications, no one else's", async () => {
    const { client, colleague } = await setup();
    const res = await client.get('/api/notifications/unread');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { unread: 2 } });
    expect((await (await signedIn(colleague)).get('/api/notifications/unread')).json()).toEqual({
      data: { unread: 1 },
    });
  });
});

describe('POST /api/notifications/read', () => {
  it('marks the named notifications read and answers what is left', async () => {
    const { client, mine } = await setup();
    const res = await client.post('/api/notifications/read', { ids: [mine[0], mine[0]] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { marked: 1, unread: 1 } });
    expect(await readAt(mine[0] ?? 0)).not.toBeNull();
    expect(await readAt(mine[1] ?? 0)).toBeNull();
  });

  it('keeps the time a notification was first read', async () => {
    const { client, mine } = await setup();
    const res = await client.post('/api/notifications/read', { ids: [mine[2]] });
    expect(res.json()).toEqual({ data: { marked: 0, unread: 2 } });
    expect(await readAt(mine[2] ?? 0)).toBe('2025-01-01T00:00:00.000Z');
  });

  it("marks all of the caller's notifications without ids, and nobody else's", async () => {
    const { client, mine, colleagues, foreign } = await setup();
    const res = await client.post('/api/notifications/read', {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { marked: 2, unread: 0 } });
    for (const id of mine) expect(await readAt(id)).not.toBeNull();
    expect(await readAt(colleagues)).toBeNull();
    expect(await readAt(foreign)).toBeNull();
  });

  it('marks all without a body too', async () => {
    const { client, mine } = await setup();
    const res = await client.post('/api/notifications/read');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { marked: 2, unread: 0 } });
    expect(await readAt(mine[1] ?? 0)).not.toBeNull();
  });

  it("refuses a colleague's or another organisation's notification: 422 on ids, nothing marked", async () => {
    const { client, mine, colleagues, foreign } = await setup();
    for (const id of [colleagues, foreign]) {
      const res = await client.post('/api/notifications/read', { ids: [mine[0], id] });
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: Errors }>().errors.ids).toEqual(['The selected value does not exist.']);
    }
    expect(await readAt(mine[0] ?? 0)).toBeNull();
    expect(await readAt(colleagues)).toBeNull();
    expect(await readAt(foreign)).toBeNull();
  });

  it('refuses an empty or malformed list: 422', async () => {
    const { client } = await setup();
    for (const ids of [[], [0], ['x'], Array.from({ length: 1001 }, (_, i) => i + 1)]) {
      const res = await client.post('/api/notifications/read', { ids });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json<{ errors: Errors }>().errors)[0]).toMatch(/^ids/);
    }
  });

  it('needs the CSRF token like every change', async () => {
    const { client, mine } = await setup();
    client.sendXsrf = false;
    expect((await client.post('/api/notifications/read', {})).statusCode).toBe(419);
    expect(await readAt(mine[0] ?? 0)).toBeNull();
  });
});

describe('the API documentation', () => {
  it('describes the read and unread routes', async () => {
    const spec = (await t.app.inject('/api/docs/json')).json<{ paths: Record<string, unknown> }>();
    expect(spec.paths).toHaveProperty(['/api/notifications/read', 'post']);
    expect(spec.paths).toHaveProperty(['/api/notifications/unread', 'get']);
    expect(JSON.stringify(spec.paths['/api/notifications/read'])).toContain('ids');
  });
});

describe('migration 0014-notification-occurred-at', () => {
  it("gives an event's notifications the event's start, and any other its own time", async () => {
    const database = await createTestDatabase();
    const { db } = database.handle;
    try {
      await migrateTo(db, '0013-device-limits');
      const org = await buildOrganisation(db);
      const device = await buildDevice(db, org.organisationId);
      const written = '2026-03-02T12:00:00.000Z';
      const started = Date.parse('2026-03-01T08:15:30.250Z');
      const event = await db
        .insertInto('device_events')
        .values({
          organisation_id: org.organisationId,
          device_id: device.id,
          template_id: null,
          rule_key: null,
          condition_key: null,
          kind: 'manual',
          severity: 'warning',
          title: 'Door',
          description: null,
          details: null,
          value: null,
          started_ts: started,
          ended_ts: null,
          created_by: null,
          created_at: written,
          updated_at: written,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Written as the code before the migration wrote them: without the column.
      const row = (eventId: number | null) => ({
        organisation_id: org.organisationId,
        user_id: org.admin.id,
        kind: 'manual',
        severity: 'warning' as const,
        title: 'Door',
        body: '',
        device_id: device.id,
        event_id: eventId,
        created_at: written,
        read_at: null,
        dispatched_at: written,
      });
      await db
        .insertInto('notifications')
        .values([row(event.id), row(null)])
        .execute();

      await migrateToLatest(db);
      const rows = await db
        .selectFrom('notifications')
        .select(['event_id', 'occurred_at'])
        .orderBy('id')
        .execute();
      expect(
        rows.map((one) => [one.event_id, one.occurred_at && new Date(one.occurred_at).toISOString()]),
      ).toEqual([
        [event.id, '2026-03-01T08:15:30.250Z'],
        [null, written],
      ]);
    } finally {
      await database.drop();
    }
  });
});
