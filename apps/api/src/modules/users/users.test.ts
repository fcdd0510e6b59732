import { INVITATION_TTL_HOURS, type User } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { insertRole } from '../acl/acl.repository.js';
import { createPersonalAccessToken } from '../auth/auth.service.js';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { nextTestIp, TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ smtp: true });

type Paged = { data: User[]; meta: { total: number; per_page: number; current_page: number }; links: object };
type Errors = { message: string; errors: Record<string, string[]> };

async function signedIn(user: { email: string; password: string }) {
  const client = new TestClient(t.app, { ip: nextTestIp() });
  await client.login(user.email, user.password);
  return client;
}

const visitor = () => TestClient.visitor(t.app, { ip: nextTestIp() });

async function canLogin(email: string, password: string) {
  return (await (await visitor()).post('/api/login', { email, password })).statusCode === 200;
}

/** Delivers the outbox and reads the newest invitation e-mailed to `email`. */
async function invitationFor(email: string) {
  await t.app.mail.drain();
  const mail = t.smtp.mailsTo(email).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  const match = /http:\/\/kontrol\.test\/auth\/reset-password\?\S+/.exec(mail.text);
  if (!match) throw new Error(`no invitation link in: ${mail.text}`);
  const url = new URL(match[0]);
  return {
    mail,
    url,
    token: url.searchParams.get('token') ?? '',
    email: url.searchParams.get('email') ?? '',
  };
}

async function accept(link: { token: string; email: string }, password: string) {
  return (await visitor()).post('/api/reset-password', {
    token: link.token,
    email: link.email,
    password,
    password_confirmation: password,
  });
}

async function userRow(id: number) {
  return t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An organisation with its admin signed in. */
async function adminOf(options: { name?: string; locale?: 'ru' | 'en' } = {}) {
  const org = await buildOrganisation(t.db, options);
  return { org, admin: await signedIn(org.admin) };
}

describe('GET /api/users', () => {
  it("lists every user of the organisation as {data} without page, never another organisation's", async () => {
    const { org, admin } = await adminOf();
    const other = await buildOrganisation(t.db);
    await buildUser(t.db, other.organisationId);
    const viewer = await buildUser(t.db, org.organisationId, { modules: ['dashboard', 'recipes'] });
    const unverified = await buildUser(t.db, org.organisationId, { verified: false });

    const res = await admin.get('/api/users');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: User[]; meta?: unknown }>();
    expect(body.meta).toBeUndefined();
    expect(body.data.map((u) => u.id).sort((a, b) => a - b)).toEqual(
      [org.admin.id, viewer.id, unverified.id].sort((a, b) => a - b),
    );
    const adminUser = body.data.find((u) => u.id === org.admin.id);
    expect(adminUser).toMatchObject({
      email: org.admin.email,
      role: 'admin',
      status: 'verified',
      acl_role_id: org.adminRoleId,
      disabled: false,
      invitation_pending: false,
    });
    expect(adminUser?.acl_role?.modules).toHaveLength(10);
    expect(body.data.find((u) => u.id === viewer.id)?.acl_role?.modules.map((m) => m.slug)).toEqual([
      'dashboard',
      'recipes',
    ]);
    expect(body.data.find((u) => u.id === unverified.id)).toMatchObject({
      status: 'not_verified',
      acl_role: null,
    });
    // The trailing-slash form of docs/contract.md, "HTTP calls" answers the same.
    expect((await admin.get('/api/users/')).json()).toEqual(body);
  });

  it('pages with page and filters through a whitelist', async () => {
    const { org, admin } = await adminOf();
    const role = await insertRole(t.db, {
      organisationId: org.organisationId,
      name: 'Cooks',
      isAdminRole: false,
      moduleIds: [],
    });
    for (let i = 0; i < 3; i += 1) {
      await t.db
        .insertInto('users')
        .values({
          organisation_id: org.organisationId,
          name: `Cook ${i}`,
          email: `cook-${i}-${org.organisationId}@example.test`,
          password_hash: null,
          role: 'regular',
          acl_role_id: role,
          email_verified_at: null,
          locale: 'en',
          disabled_at: i === 2 ? new Date().toISOString() : null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
    }

    const first = (await admin.get('/api/users/?page=1&per_page=2')).json<Paged>();
    expect(first.data).toHaveLength(2);
    expect(first.meta).toMatchObject({ total: 4, per_page: 2, current_page: 1 });
    expect(first.data.map((u) => u.name)).toEqual(['Admin', 'Cook 0']);

    const q = (filters: object) => `/api/users?page=1&filters=${encodeURIComponent(JSON.stringify(filters))}`;
    const cooks = (await admin.get(q({ name: { operator: 'like', value: 'cook' } }))).json<Paged>();
    expect(cooks.meta.total).toBe(3);
    const byRole = (await admin.get(q({ acl_role_id: { operator: '=', value: role } }))).json<Paged>();
    expect(byRole.data.map((u) => u.name)).toEqual(['Cook 0', 'Cook 1', 'Cook 2']);
    const unverified = (
      await admin.get(q({ status: { operator: '=', value: 'not_verified' } }))
    ).json<Paged>();
    expect(unverified.meta.total).toBe(3);
    const admins = (await admin.get(q({ role: { operator: 'in', value: ['admin'] } }))).json<Paged>();
    expect(admins.data.map((u) => u.id)).toEqual([org.admin.id]);
    const disabled = (await admin.get(q({ disabled: { operator: '=', value: true } }))).json<Paged>();
    expect(disabled.data.map((u) => u.name)).toEqual(['Cook 2']);
    expect(disabled.data[0]).toMatchObject({ disabled: true, invitation_pending: true });

    const refused = await admin.get(q({ password_hash: { operator: '=', value: 'x' } }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json<Errors>().errors).toEqual({
      'filters.password_hash': ['Filtering by this field is not allowed.'],
    });
  });

  it('is open to the users and requests modules, admin or not, and closed to others', async () => {
    const org = await buildOrganisation(t.db);
    const requests = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['requests'] }));
    expect((await requests.get('/api/users')).statusCode).toBe(200);
    expect((await requests.get(`/api/users/${org.admin.id}`)).statusCode).toBe(200);

    const adminWithoutModule = await signedIn(
      await buildUser(t.db, org.organisationId, { role: 'admin', modules: ['dashboard'] }),
    );
    const refused = await adminWithoutModule.get('/api/users');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This action is unauthorized.' });
    expect((await adminWithoutModule.get(`/api/users/${org.admin.id}`)).statusCode).toBe(403);
  });

  it("answers 404 for another organisation's user", async () => {
    const { org, admin } = await adminOf();
    const other = await buildOrganisation(t.db);
    const res = await admin.get(`/api/users/${other.admin.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
    const own = await admin.get(`/api/users/${org.admin.id}`);
    expect(own.json<{ data: User }>().data).toMatchObject({ id: org.admin.id, name: 'Admin' });
  });
});

describe('POST /api/users/add and the invitation', () => {
  it('creates a user without a password and e-mails an invitation in their language', async () => {
    const { org, admin } = await adminOf({ name: 'Пельменная №1' });
    const email = `new-${Date.now()}@example.test`;
    const res = await admin.post('/api/users/add', {
      name: 'Ирина',
      email: email.toUpperCase(),
      locale: 'ru',
      acl_role_id: org.adminRoleId,
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<{ data: User }>().data;
    expect(created).toMatchObject({
      name: 'Ирина',
      email,
      role: 'regular',
      status: 'not_verified',
      acl_role_id: org.adminRoleId,
      locale: 'ru',
      disabled: false,
      invitation_pending: true,
    });
    expect((await userRow(created.id))?.password_hash).toBeNull();

    const link = await invitationFor(email);
    expect(link.mail.subject).toBe('Kontrol: приглашение');
    expect(link.mail.text).toContain('Здравствуйте, Ирина!');
    expect(link.mail.text).toContain('Admin приглашает вас в Kontrol, в организацию «Пельменная №1»');
    expect(link.email).toBe(email);
    expect(link.url.searchParams.get('invitation')).toBe('1');

    // Kept hashed, valid for INVITATION_TTL_HOURS.
    const token = await t.db
      .selectFrom('user_tokens')
      .selectAll()
      .where('user_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(token).toMatchObject({ purpose: 'invitation', token_hash: sha256(link.token), used_at: null });
    const hours = (Date.parse(token.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(INVITATION_TTL_HOURS - 1);
    expect(hours).toBeLessThanOrEqual(INVITATION_TTL_HOURS);

    // No password yet: nobody can sign in as the new user.
    expect(await canLogin(email, 'any-password')).toBe(false);
  });

  it('accepting the invitation sets the password and proves the e-mail, once', async () => {
    const { admin } = await adminOf();
    const email = `invited-${Date.now()}@example.test`;
    const created = (await admin.post('/api/users/add', { name: 'Oleg', email, locale: 'en' })).json<{
      data: User;
    }>().data;
    const link = await invitationFor(email);
    expect(link.mail.subject).toBe('Kontrol: you are invited');
    expect(link.mail.text).toContain('Admin invites you to Kontrol');

    const res = await accept(link, 'a-new-password');
    expect(res.statusCode).toBe(200);
    expect(await canLogin(email, 'a-new-password')).toBe(true);
    const after = (await admin.get(`/api/users/${created.id}`)).json<{ data: User }>().data;
    expect(after).toMatchObject({ status: 'verified', invitation_pending: false });

    const again = await accept(link, 'another-password');
    expect(again.statusCode).toBe(422);
    expect(again.json<Errors>().errors).toEqual({
      email: ['This password reset link is invalid or has expired.'],
    });
    expect(await canLogin(email, 'a-new-password')).toBe(true);
  });

  it('an invited user may use "forgot password" instead; the invitation then stops working', async () => {
    const { admin } = await adminOf();
    const email = `forgot-${Date.now()}@example.test`;
    await admin.post('/api/users/add', { name: 'Forgetful', email });
    const invitation = await invitationFor(email);
    await (await visitor()).post('/api/send-reset-link', { email });
    const reset = await invitationFor(email);
    expect(reset.mail.subject).toBe('Kontrol: сброс пароля');
    expect((await accept(reset, 'password-reset')).statusCode).toBe(200);
    expect((await accept(invitation, 'password-invite')).statusCode).toBe(422);
    expect(await canLogin(email, 'password-reset')).toBe(true);
  });

  it('refuses an expired invitation, and one sent for another address', async () => {
    const { org, admin } = await adminOf();
    const email = `late-${Date.now()}@example.test`;
    const created = (await admin.post('/api/users/add', { name: 'Late', email })).json<{ data: User }>().data;
    const link = await invitationFor(email);
    expect((await accept({ token: link.token, email: org.admin.email }, 'password-1')).statusCode).toBe(422);

    await admin.post(`/api/users/${created.id}/invitation`);
    const fresh = await invitationFor(email);
    await t.db
      .updateTable('user_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', created.id)
      .execute();
    expect((await accept(fresh, 'password-1')).statusCode).toBe(422);
    expect(await canLogin(email, 'password-1')).toBe(false);
  });

  it('refuses a taken e-mail (any organisation) and an access role of another organisation', async () => {
    const { admin } = await adminOf();
    const other = await buildOrganisation(t.db);
    const taken = await admin.post('/api/users/add', { name: 'Copy', email: other.admin.email });
    expect(taken.statusCode).toBe(422);
    expect(taken.json<Errors>().errors).toEqual({ email: ['The e-mail has already been taken.'] });

    const email = `role-${Date.now()}@example.test`;
    const foreignRole = await admin.post('/api/users/add', {
      name: 'Role',
      email,
      acl_role_id: other.adminRoleId,
    });
    expect(foreignRole.statusCode).toBe(422);
    expect(foreignRole.json<Errors>().errors).toEqual({
      acl_role_id: ['The selected value does not exist.'],
    });
    expect(
      await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('is for admins with the users module only: 403 before the body is looked at', async () => {
    const org = await buildOrganisation(t.db);
    const regular = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['users'] }));
    const email = `nope-${Date.now()}@example.test`;
    const res = await regular.post('/api/users/add', { name: 'X', email });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'This action is unauthorized.' });
    expect((await regular.post('/api/users/add', { email: 'not an address' })).statusCode).toBe(403);

    const adminWithoutModule = await signedIn(
      await buildUser(t.db, org.organisationId, { role: 'admin', modules: ['dashboard'] }),
    );
    expect((await adminWithoutModule.post('/api/users/add', { name: 'X', email })).statusCode).toBe(403);
    expect(
      await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('POST /api/users/{id}/invitation', () => {
  it('sends a fresh invitation; the older link stops working', async () => {
    const { admin } = await adminOf();
    const email = `again-${Date.now()}@example.test`;
    const created = (await admin.post('/api/users/add', { name: 'Again', email })).json<{ data: User }>()
      .data;
    const first = await invitationFor(email);

    const res = await admin.post(`/api/users/${created.id}/invitation`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: User }>().data).toMatchObject({ id: created.id, invitation_pending: true });
    const second = await invitationFor(email);
    expect(second.token).not.toBe(first.token);
    expect(t.smtp.mailsTo(email)).toHaveLength(2);

    expect((await accept(first, 'password-old')).statusCode).toBe(422);
    expect((await accept(second, 'password-new')).statusCode).toBe(200);
    expect(await canLogin(email, 'password-new')).toBe(true);
  });

  it('refuses a user who has a password or is disabled (422), and other organisations (404)', async () => {
    const { org, admin } = await adminOf();
    const active = await buildUser(t.db, org.organisationId);
    const withPassword = await admin.post(`/api/users/${active.id}/invitation`);
    expect(withPassword.statusCode).toBe(422);
    expect(withPassword.json<Errors>().errors).toEqual({
      id: ['This user has already set a password: no invitation is needed.'],
    });

    const email = `off-${Date.now()}@example.test`;
    const invited = (await admin.post('/api/users/add', { name: 'Off', email })).json<{ data: User }>().data;
    await admin.put(`/api/users/${invited.id}`, { disabled: true });
    const disabled = await admin.post(`/api/users/${invited.id}/invitation`);
    expect(disabled.statusCode).toBe(422);
    expect(disabled.json<Errors>().errors).toEqual({ id: ['This user is disabled: enable them first.'] });

    const other = await buildOrganisation(t.db);
    expect((await admin.post(`/api/users/${other.admin.id}/invitation`)).statusCode).toBe(404);
    const regular = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['users'] }));
    expect((await regular.post(`/api/users/${invited.id}/invitation`)).statusCode).toBe(403);
  });
});

describe('PUT /api/users/{id}', () => {
  it('changes name, role, access role and language of another user', async () => {
    const { org, admin } = await adminOf();
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    const res = await admin.put(`/api/users/${user.id}`, {
      name: 'Chef',
      role: 'admin',
      acl_role_id: org.adminRoleId,
      locale: 'ru',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: User }>().data).toMatchObject({
      name: 'Chef',
      role: 'admin',
      acl_role_id: org.adminRoleId,
      locale: 'ru',
    });
    // The new admin may now manage users, from their next request on.
    const promoted = await signedIn(user);
    expect((await promoted.put(`/api/users/${org.admin.id}`, { name: 'Boss' })).statusCode).toBe(200);

    expect(
      (await admin.put(`/api/users/${user.id}`, { acl_role_id: null })).json<{ data: User }>().data,
    ).toMatchObject({
      acl_role_id: null,
      acl_role: null,
    });
    expect((await promoted.get('/api/users')).statusCode).toBe(403);
  });

  it('lets nobody change their own role or access role or disable themself, but saves the rest', async () => {
    const { org, admin } = await adminOf();
    const self = await admin.put(`/api/users/${org.admin.id}`, {
      role: 'regular',
      acl_role_id: null,
      disabled: true,
    });
    expect(self.statusCode).toBe(422);
    expect(self.json<Errors>().errors).toEqual({
      role: ['You cannot change your own role: ask another administrator.'],
      acl_role_id: ['You cannot change your own access role: ask another administrator.'],
      disabled: ['You cannot disable your own account.'],
    });
    expect(await userRow(org.admin.id)).toMatchObject({
      role: 'admin',
      acl_role_id: org.adminRoleId,
      disabled_at: null,
    });

    // The whole form sent back unchanged is fine.
    const same = await admin.put(`/api/users/${org.admin.id}`, {
      name: 'Me',
      role: 'admin',
      acl_role_id: org.adminRoleId,
      disabled: false,
    });
    expect(same.statusCode).toBe(200);
    expect(same.json<{ data: User }>().data).toMatchObject({ name: 'Me', role: 'admin' });
  });

  it('disabling ends the sessions and tokens; enabling lets the user back in', async () => {
    const { org, admin } = await adminOf();
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    const session = await signedIn(user);
    const token = await createPersonalAccessToken(
      { db: t.db, mail: t.app.mail, rateLimiter: t.app.rateLimiter, appUrl: t.config.appUrl },
      user.id,
      'script',
    );
    await (await visitor()).post('/api/send-reset-link', { email: user.email });

    const res = await admin.put(`/api/users/${user.id}`, { disabled: true });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: User }>().data.disabled).toBe(true);
    expect((await session.get('/api/users/auth')).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/users/auth', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(401);
    const counts = await Promise.all(
      (['sessions', 'personal_access_tokens', 'user_tokens'] as const).map((table) =>
        t.db.selectFrom(table).select('user_id').where('user_id', '=', user.id).execute(),
      ),
    );
    expect(counts.map((rows) => rows.length)).toEqual([0, 0, 0]);
    const login = await (await visitor()).post('/api/login', { email: user.email, password: user.password });
    expect(login.json<Errors>().errors).toEqual({
      email: ['This account is disabled. Contact your organisation administrator.'],
    });

    const enabled = await admin.put(`/api/users/${user.id}`, { disabled: false });
    expect(enabled.json<{ data: User }>().data.disabled).toBe(false);
    expect(await canLogin(user.email, user.password)).toBe(true);
  });

  it('a new e-mail must be unique and proven again', async () => {
    const { org, admin } = await adminOf();
    const other = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId);
    const taken = await admin.put(`/api/users/${user.id}`, { email: other.admin.email.toUpperCase() });
    expect(taken.statusCode).toBe(422);
    expect(taken.json<Errors>().errors).toEqual({ email: ['The e-mail has already been taken.'] });

    const email = `moved-${Date.now()}@example.test`;
    const res = await admin.put(`/api/users/${user.id}`, { email: email.toUpperCase() });
    expect(res.json<{ data: User }>().data).toMatchObject({ email, status: 'not_verified' });
    await t.app.mail.drain();
    const mail = t.smtp.mailsTo(email).at(-1);
    expect(mail?.subject).toBe('Kontrol: confirm your e-mail address');
    // Unchanged e-mail (any case): stays verified.
    const me = await admin.put(`/api/users/${org.admin.id}`, { email: org.admin.email.toUpperCase() });
    expect(me.json<{ data: User }>().data.status).toBe('verified');
  });

  it('a new e-mail of an invited user gets a new invitation; the old link stops working', async () => {
    const { admin } = await adminOf();
    const email = `first-${Date.now()}@example.test`;
    const created = (await admin.post('/api/users/add', { name: 'Typo', email })).json<{ data: User }>().data;
    const old = await invitationFor(email);
    const fixed = `fixed-${Date.now()}@example.test`;
    await admin.put(`/api/users/${created.id}`, { email: fixed });
    const fresh = await invitationFor(fixed);
    expect((await accept(old, 'password-1')).statusCode).toBe(422);
    expect((await accept({ token: old.token, email: fixed }, 'password-1')).statusCode).toBe(422);
    expect((await accept(fresh, 'password-2')).statusCode).toBe(200);
    expect(await canLogin(fixed, 'password-2')).toBe(true);
  });

  it("refuses another organisation's access role (422) and user (404), and non-admins (403)", async () => {
    const { org, admin } = await adminOf();
    const other = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId);
    const role = await admin.put(`/api/users/${user.id}`, { acl_role_id: other.adminRoleId });
    expect(role.statusCode).toBe(422);
    expect(role.json<Errors>().errors).toEqual({ acl_role_id: ['The selected value does not exist.'] });

    const foreign = await admin.put(`/api/users/${other.admin.id}`, { name: 'Hacked', disabled: true });
    expect(foreign.statusCode).toBe(404);
    expect(await userRow(other.admin.id)).toMatchObject({ name: 'Admin', disabled_at: null });

    const regular = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['users'] }));
    expect((await regular.put(`/api/users/${user.id}`, { name: 'Nope' })).statusCode).toBe(403);
    expect((await regular.put(`/api/users/${user.id}`, { role: 'admin' })).statusCode).toBe(403);
    expect(await userRow(user.id)).toMatchObject({ name: 'User', role: 'regular' });
  });

  it('two admins demoting or disabling each other at once leave one admin', async () => {
    for (const change of [{ role: 'regular' }, { disabled: true }]) {
      const org = await buildOrganisation(t.db);
      const second = await buildUser(t.db, org.organisationId, { role: 'admin', modules: ['users'] });
      const [a, b] = [await signedIn(org.admin), await signedIn(second)];
      const answers = await Promise.all([
        a.put(`/api/users/${second.id}`, change),
        b.put(`/api/users/${org.admin.id}`, change),
      ]);
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses[0]).toBe(200);
      expect([403, 422]).toContain(statuses[1]);
      const refused = answers.find((r) => r.statusCode === 422);
      if (refused) {
        expect(Object.values(refused.json<Errors>().errors)).toEqual([
          ['The organisation must keep at least one active administrator.'],
        ]);
      }
      const admins = await t.db
        .selectFrom('users')
        .select('id')
        .where('organisation_id', '=', org.organisationId)
        .where('role', '=', 'admin')
        .where('disabled_at', 'is', null)
        .execute();
      expect(admins).toHaveLength(1);
    }
  });
});

describe('DELETE /api/users/{id}', () => {
  it('deletes the user; their sessions end and the row is gone', async () => {
    const { org, admin } = await adminOf();
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    const session = await signedIn(user);
    await session.post(`/api/users/${user.id}/settings`, {
      channels: { web: true, email: false, telegram: false },
      kinds: [],
      severities: ['critical'],
      quiet_hours: null,
      quiet_hours_critical: true,
      locale: 'en',
      time_zone: 'Europe/Moscow',
    });

    const res = await admin.delete(`/api/users/${user.id}`);
    expect(res.statusCode).toBe(204);
    expect((await session.get('/api/users/auth')).statusCode).toBe(401);
    expect((await admin.get(`/api/users/${user.id}`)).statusCode).toBe(404);
    expect(await userRow(user.id)).toBeUndefined();
    expect(
      await t.db.selectFrom('user_settings').select('user_id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    expect((await admin.delete(`/api/users/${user.id}`)).statusCode).toBe(404);
  });

  it('refuses deleting oneself (422), another organisation’s user (404) and non-admins (403)', async () => {
    const { org, admin } = await adminOf();
    const self = await admin.delete(`/api/users/${org.admin.id}`);
    expect(self.statusCode).toBe(422);
    expect(self.json<Errors>().errors).toEqual({ id: ['You cannot delete your own account.'] });

    const other = await buildOrganisation(t.db);
    expect((await admin.delete(`/api/users/${other.admin.id}`)).statusCode).toBe(404);
    expect(await userRow(other.admin.id)).toBeDefined();

    const user = await buildUser(t.db, org.organisationId);
    const regular = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['users'] }));
    expect((await regular.delete(`/api/users/${user.id}`)).statusCode).toBe(403);
    expect(await userRow(user.id)).toBeDefined();
  });

  it('two admins deleting each other at once leave one admin', async () => {
    const org = await buildOrganisation(t.db);
    const second = await buildUser(t.db, org.organisationId, { role: 'admin', modules: ['users'] });
    const [a, b] = [await signedIn(org.admin), await signedIn(second)];
    const answers = await Promise.all([
      a.delete(`/api/users/${second.id}`),
      b.delete(`/api/users/${org.admin.id}`),
    ]);
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(204);
    expect([401, 403, 404, 422]).toContain(statuses[1]);
    const left = await t.db
      .selectFrom('users')
      .select('id')
      .where('organisation_id', '=', org.organisationId)
      .where('role', '=', 'admin')
      .execute();
    expect(left).toHaveLength(1);
  });
});
