import { translate, type Complaint } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildAddress, buildDevice, buildOrganisation, buildRoom, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

/**
 * An organisation (admin in English) with a Russian and an English holder of `requests`, a user
 * without it, a disabled holder, and a device named "Oven 1" at "Tverskaya 1".
 */
async function setup() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const address = await buildAddress(t.db, org.organisationId, { name: 'Tverskaya 1' });
  const room = await buildRoom(t.db, org.organisationId, { addressId: address.id });
  const device = await buildDevice(t.db, org.organisationId, { room_id: room.id, name: 'Oven 1' });
  const russian = await buildUser(t.db, org.organisationId, { modules: ['requests'], locale: 'ru' });
  const english = await buildUser(t.db, org.organisationId, { modules: ['requests', 'dashboard'] });
  const outsider = await buildUser(t.db, org.organisationId, { modules: ['dashboard', 'devices'] });
  const disabled = await buildUser(t.db, org.organisationId, { modules: ['requests'] });
  await t.db
    .updateTable('users')
    .set({ disabled_at: new Date().toISOString() })
    .where('id', '=', disabled.id)
    .execute();
  const file = async (body: Record<string, unknown>) => {
    const res = await client.post('/api/alerts/', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Complaint }>().data;
  };
  const notifications = (complaintId: number) =>
    t.db
      .selectFrom('notifications')
      .selectAll()
      .where('complaint_id', '=', complaintId)
      .orderBy('id')
      .execute();
  return { ...org, client, address, device, russian, english, outsider, disabled, file, notifications };
}

describe('complaint notifications', () => {
  it('tells every active holder of `requests` but the author of a new complaint, in their language', async () => {
    const { organisationId, device, russian, english, file, notifications } = await setup();
    const other = await buildOrganisation(t.db);
    const complaint = await file({
      title: 'Door seal leaks',
      text: 'Steam comes out',
      device_id: device.id,
      priority: 'high',
    });
    const rows = await notifications(complaint.id);
    expect(rows.map((row) => row.user_id).sort((a, b) => a - b)).toEqual([russian.id, english.id]);
    for (const row of rows) {
      expect(row).toMatchObject({
        organisation_id: organisationId,
        kind: 'request',
        severity: 'warning',
        device_id: device.id,
        event_id: null,
        complaint_id: complaint.id,
        read_at: null,
        dispatched_at: null,
      });
    }
    const byUser = new Map(rows.map((row) => [row.user_id, row]));
    expect(byUser.get(english.id)).toMatchObject({
      title: 'New complaint: Door seal leaks',
      body: 'Oven 1 · priority: high · filed by Admin\nSteam comes out',
    });
    expect(byUser.get(russian.id)).toMatchObject({
      title: 'Новая жалоба: Door seal leaks',
      body: 'Oven 1 · приоритет: высокий · автор: Admin\nSteam comes out',
    });
    const theirs = await t.db
      .selectFrom('notifications')
      .select('id')
      .where('organisation_id', '=', other.organisationId)
      .execute();
    expect(theirs).toEqual([]);
  });

  it.each([
    ['low', 'info'],
    ['normal', 'info'],
    ['high', 'warning'],
    ['urgent', 'critical'],
  ] as const)('gives a %s complaint %s notifications', async (priority, severity) => {
    const { address, file, notifications } = await setup();
    const complaint = await file({ title: 'A', address_id: address.id, priority });
    const rows = await notifications(complaint.id);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.severity))).toEqual(new Set([severity]));
    // About an address: no device.
    expect(rows[0]?.device_id).toBeNull();
    expect(rows[0]?.body).toMatch(/^Tverskaya 1 · /);
  });

  it('tells of comments and status changes, not of priority changes, never the person who made them', async () => {
    const { admin, device, russian, english, file, notifications } = await setup();
    const complaint = await file({ title: 'A', device_id: device.id });
    const before = (await notifications(complaint.id)).length;
    const clerk = new TestClient(t.app);
    await clerk.login(english.email, english.password);
    const res = await clerk.post(`/api/alerts/${complaint.id}/events`, {
      text: 'Looking',
      status: 'in_progress',
      priority: 'urgent',
    });
    expect(res.statusCode).toBe(201);
    const rows = (await notifications(complaint.id)).slice(before);
    // The comment and the status, to the admin and the Russian holder; the urgent priority is their severity.
    expect(rows.map((row) => [row.user_id, row.title])).toEqual([
      [admin.id, 'New comment on a complaint: A'],
      [russian.id, 'Комментарий к жалобе: A'],
      [admin.id, 'Complaint “A”: In progress'],
      [russian.id, 'Жалоба «A»: В работе'],
    ]);
    expect(rows.map((row) => row.body)).toEqual([
      'User: Looking',
      'User: Looking',
      'User: “New” → “In progress”',
      'User: «Новая» → «В работе»',
    ]);
    expect(new Set(rows.map((row) => row.severity))).toEqual(new Set(['critical']));

    const after = (await notifications(complaint.id)).length;
    await clerk.post(`/api/alerts/${complaint.id}/events`, { priority: 'low' });
    expect(await notifications(complaint.id)).toHaveLength(after);
  });

  it('tells a comment of photos by their number', async () => {
    const { device, file, notifications, client, organisationId } = await setup();
    const complaint = await file({ title: 'A', device_id: device.id });
    const before = (await notifications(complaint.id)).length;
    const photo = '0123456789abcdef0123456789abcdef.png';
    await t.db
      .insertInto('complaint_photos')
      .values({
        file: photo,
        organisation_id: organisationId,
        type: 'image/png',
        created_at: new Date().toISOString(),
      })
      .execute();
    const res = await client.post(`/api/alerts/${complaint.id}/events`, { text: 'See', photos: [photo] });
    expect(res.statusCode).toBe(201);
    const rows = (await notifications(complaint.id)).slice(before);
    expect(rows.map((row) => row.body)).toContain('Admin: See · photos: 1');
  });

  it('tells a new assignee in words of their own, even when they assigned themselves', async () => {
    const { admin, device, russian, english, file, notifications } = await setup();
    const complaint = await file({ title: 'A', device_id: device.id, assignee_id: russian.id });
    const created = await notifications(complaint.id);
    expect(created.find((row) => row.user_id === russian.id)?.title).toBe('Вам назначена жалоба: A');
    expect(created.find((row) => row.user_id === english.id)?.title).toBe('New complaint: A');
    expect(created).toHaveLength(2);

    const self = new TestClient(t.app);
    await self.login(english.email, english.password);
    const before = created.length;
    const res = await self.post(`/api/alerts/${complaint.id}/events`, { assignee_id: english.id });
    expect(res.statusCode).toBe(201);
    const rows = (await notifications(complaint.id)).slice(before);
    expect(new Map(rows.map((row) => [row.user_id, row.title]))).toEqual(
      new Map([
        [admin.id, 'Complaint “A” assigned to User'],
        [russian.id, 'Жалоба «A» назначена: User'],
        [english.id, 'A complaint was assigned to you: A'],
      ]),
    );
    expect(rows).toHaveLength(3);
    expect(rows.find((row) => row.user_id === english.id)?.body).toBe(
      `Oven 1 · ${translate('en', 'complaint.notify.changed_by', { author: 'User' })}`,
    );

    const unassign = await self.post(`/api/alerts/${complaint.id}/events`, { assignee_id: null });
    expect(unassign.statusCode).toBe(201);
    const last = (await notifications(complaint.id)).slice(before + rows.length);
    expect(last.map((row) => row.title).sort()).toEqual([
      'Complaint “A” has no assignee now',
      'У жалобы «A» больше нет исполнителя',
    ]);
  });

  it('writes nothing when a change is refused', async () => {
    const { device, file, notifications, client } = await setup();
    const complaint = await file({ title: 'A', device_id: device.id });
    const before = (await notifications(complaint.id)).length;
    await client.post(`/api/alerts/${complaint.id}/events`, { status: 'closed' });
    const closedCount = (await notifications(complaint.id)).length;
    expect(closedCount).toBeGreaterThan(before);
    const refused = await client.post(`/api/alerts/${complaint.id}/events`, { text: 'x', status: 'new' });
    expect(refused.statusCode).toBe(422);
    expect(await notifications(complaint.id)).toHaveLength(closedCount);
  });
});
