import { DEFAULT_USER_SETTINGS, NOTIFICATION_KINDS, type UserSettings } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { nextTestIp, TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

type Errors = { message: string; errors: Record<string, string[]> };

async function signedIn(user: { email: string; password: string }) {
  const client = new TestClient(t.app, { ip: nextTestIp() });
  await client.login(user.email, user.password);
  return client;
}

const saved: UserSettings = {
  channels: { web: true, email: false, telegram: true },
  kinds: ['no_data', 'request'],
  severities: ['critical'],
  quiet_hours: { start: '22:00', end: '07:30' },
  quiet_hours_critical: false,
  locale: 'ru',
  time_zone: 'Asia/Yekaterinburg',
};

describe('GET/POST /api/users/{id}/settings', () => {
  it('gives the defaults with the user’s own language until they save, then what they saved', async () => {
    const org = await buildOrganisation(t.db);
    // No module at all: one's own settings need none.
    const user = await buildUser(t.db, org.organisationId, { locale: 'en' });
    const client = await signedIn(user);

    const before = await client.get(`/api/users/${user.id}/settings`);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ data: { ...DEFAULT_USER_SETTINGS, locale: 'en' } });
    expect(before.json<{ data: UserSettings }>().data.kinds).toEqual([...NOTIFICATION_KINDS]);

    const res = await client.post(`/api/users/${user.id}/settings`, saved);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: saved });
    expect((await client.get(`/api/users/${user.id}/settings`)).json()).toEqual({ data: saved });
    // The language is the user's own (e-mails, the console).
    expect((await client.get('/api/users/auth')).json<{ data: { locale: string } }>().data.locale).toBe('ru');

    const cleared = {
      ...saved,
      quiet_hours: null,
      kinds: [],
      channels: { web: false, email: false, telegram: false },
    };
    expect((await client.post(`/api/users/${user.id}/settings`, cleared)).json()).toEqual({ data: cleared });
    const rows = await t.db.selectFrom('user_settings').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ organisation_id: org.organisationId, quiet_start: null, web: 0 });
  });

  it('refuses settings a person could not have meant, with 422 on the field', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org.admin);
    const url = `/api/users/${org.admin.id}/settings`;

    const equal = await client.post(url, { ...saved, quiet_hours: { start: '22:00', end: '22:00' } });
    expect(equal.statusCode).toBe(422);
    expect(equal.json<Errors>().errors).toEqual({
      'quiet_hours.end': ['Quiet hours must start and end at different times.'],
    });
    const zone = await client.post(url, { ...saved, time_zone: 'Mars/Olympus' });
    expect(Object.keys(zone.json<Errors>().errors)).toEqual(['time_zone']);
    const kind = await client.post(url, { ...saved, kinds: ['gossip'] });
    expect(Object.keys(kind.json<Errors>().errors)).toEqual(['kinds.0']);
    const partial = await client.post(url, { channels: saved.channels });
    expect(partial.statusCode).toBe(422);
    expect((await client.get(url)).json<{ data: UserSettings }>().data.severities).toEqual([
      'warning',
      'critical',
    ]);
  });

  it("lets an admin with the users module manage anyone's in the organisation, and nobody else", async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId, { modules: ['users'] });
    const url = `/api/users/${user.id}/settings`;

    const admin = await signedIn(org.admin);
    expect((await admin.post(url, saved)).statusCode).toBe(200);
    expect((await admin.get(url)).json()).toEqual({ data: saved });

    // A regular user, even with the users module, has only their own.
    const regular = await signedIn(user);
    const others = await regular.get(`/api/users/${org.admin.id}/settings`);
    expect(others.statusCode).toBe(403);
    expect(others.json()).toEqual({ message: 'This action is unauthorized.' });
    expect((await regular.post(`/api/users/${org.admin.id}/settings`, saved)).statusCode).toBe(403);

    // An admin without the users module: their own only.
    const plainAdmin = await buildUser(t.db, org.organisationId, { role: 'admin', modules: ['dashboard'] });
    const withoutModule = await signedIn(plainAdmin);
    expect((await withoutModule.get(url)).statusCode).toBe(403);
    expect((await withoutModule.get(`/api/users/${plainAdmin.id}/settings`)).statusCode).toBe(200);
  });

  it("answers 404 for another organisation's user and changes nothing there", async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildOrganisation(t.db);
    const admin = await signedIn(org.admin);
    const url = `/api/users/${other.admin.id}/settings`;
    expect((await admin.get(url)).statusCode).toBe(404);
    const res = await admin.post(url, saved);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
    expect(
      await t.db
        .selectFrom('user_settings')
        .select('user_id')
        .where('user_id', '=', other.admin.id)
        .execute(),
    ).toEqual([]);
    const row = await t.db
      .selectFrom('users')
      .select('locale')
      .where('id', '=', other.admin.id)
      .executeTakeFirst();
    expect(row?.locale).toBe('en');
  });
});
