import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

describe('Sanctum SPA session flow', () => {
  it('issues the XSRF cookie and an HttpOnly session cookie with SameSite=Lax', async () => {
    const client = new TestClient(t.app);
    const res = await client.get('/sanctum/csrf-cookie');
    expect(res.statusCode).toBe(204);
    const cookies = res.cookies as {
      name: string;
      httpOnly?: boolean;
      sameSite?: string;
      secure?: boolean;
    }[];
    const session = cookies.find((c) => c.name === 'kontrol_session');
    const xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    expect(session?.secure).toBeFalsy();
    expect(xsrf?.httpOnly).toBeFalsy();
  });

  it('logs in, loads the user with modules, and logs out server-side', async () => {
    const org = await buildOrganisation(t.db);
    const client = await TestClient.visitor(t.app);
    const guestSession = client.cookies.get('kontrol_session');

    const login = await client.post('/api/login', { email: org.admin.email, password: org.admin.password });
    expect(login.statusCode).toBe(200);
    // A new session id at login defeats session fixation.
    expect(client.cookies.get('kontrol_session')).not.toBe(guestSession);

    const me = await client.get('/api/users/auth');
    expect(me.statusCode).toBe(200);
    const user = me.json<{
      data: {
        email: string;
        isAdmin: boolean;
        role: string;
        status: string;
        acl_modules: { slug: string }[];
      };
    }>().data;
    expect(user).toMatchObject({ email: org.admin.email, isAdmin: true, role: 'admin', status: 'verified' });
    expect(user.acl_modules.map((m) => m.slug)).toEqual([
      'dashboard',
      'telemetry',
      'requests',
      'device_event_template',
      'recipes',
      'addresses',
      'devices',
      'users',
      'settings',
      'billing',
    ]);

    const sessionCookie = client.cookies.get('kontrol_session') ?? '';
    const logout = await client.post('/api/logout');
    expect(logout.statusCode).toBe(204);
    const row = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sha256(sessionCookie))
      .executeTakeFirst();
    expect(row).toBeUndefined();

    // Replaying the old cookie after logout does not work: the session is gone on the server.
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/users/auth',
      headers: { cookie: `kontrol_session=${sessionCookie}` },
    });
    expect(replay.statusCode).toBe(401);
  });

  it('answers 401 {message} without a session', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/users/auth',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers 419 to a state change without the matching X-XSRF-TOKEN', async () => {
    const org = await buildOrganisation(t.db);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    client.sendXsrf = false;
    const missing = await client.post('/api/logout');
    expect(missing.statusCode).toBe(419);
    expect(missing.json()).toEqual({ message: 'CSRF token mismatch.' });
    const wrong = await client.post('/api/logout', undefined, { 'x-xsrf-token': 'not-the-token' });
    expect(wrong.statusCode).toBe(419);
    // The session survived both attempts.
    client.sendXsrf = true;
    expect((await client.get('/api/users/auth')).statusCode).toBe(200);
  });

  it('refuses login without a CSRF session (no csrf-cookie call first)', async () => {
    const org = await buildOrganisation(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: org.admin.email, password: org.admin.password },
    });
    expect(res.statusCode).toBe(419);
  });

  it('rejects wrong credentials with 422 on the email field, in the requested language', async () => {
    const org = await buildOrganisation(t.db);
    const client = await TestClient.visitor(t.app);
    const en = await client.post('/api/login', { email: org.admin.email, password: 'wrong-password' });
    expect(en.statusCode).toBe(422);
    expect(en.json()).toEqual({
      message: 'The given data was invalid.',
      errors: { email: ['These credentials do not match our records.'] },
    });
    const ru = await client.post(
      '/api/login',
      { email: 'nobody@example.test', password: 'x' },
      { 'accept-language': 'ru-RU,ru;q=0.9' },
    );
    expect(ru.json<{ errors: { email: string[] } }>().errors.email).toEqual(['Неверный e-mail или пароль.']);
  });

  it('names every invalid field in a 422', async () => {
    const client = await TestClient.visitor(t.app);
    const res = await client.post('/api/login', { email: 'not-an-email', password: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      email: ['Enter a valid e-mail address.'],
      password: ['This field is required.'],
    });
  });

  it('answers 422 for a body that is not JSON, and never a stack trace', async () => {
    const client = await TestClient.visitor(t.app);
    const res = await client.request({
      method: 'POST',
      url: '/api/login',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('disabled users cannot sign in and their sessions stop working', async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    await t.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', user.id)
      .execute();
    expect((await client.get('/api/users/auth')).statusCode).toBe(401);
    const again = await TestClient.visitor(t.app);
    expect((await again.post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(
      422,
    );
  });
});

describe('login throttling', () => {
  it('locks an account after 5 failures with a clear 429, and a success clears the count', async () => {
    const org = await buildOrganisation(t.db);
    const client = await TestClient.visitor(t.app);
    for (let i = 0; i < 4; i += 1) {
      expect(
        (await client.post('/api/login', { email: org.admin.email, password: 'wrong' })).statusCode,
      ).toBe(422);
    }
    // A success clears the failures...
    expect(
      (await client.post('/api/login', { email: org.admin.email, password: org.admin.password })).statusCode,
    ).toBe(200);
    await client.post('/api/logout');
    await client.get('/sanctum/csrf-cookie');
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await client.post('/api/login', { email: org.admin.email, password: 'wrong' })).statusCode,
      ).toBe(422);
    }
    // ...and five new ones lock the account, even with the right password.
    const locked = await client.post('/api/login', { email: org.admin.email, password: org.admin.password });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json<{ message: string }>().message).toMatch(
      /^Too many login attempts\. Please try again in \d+ seconds\.$/,
    );
  });

  it('limits attempts per IP across accounts', async () => {
    const client = await TestClient.visitor(t.app, { ip: '10.9.8.7' });
    const statuses: number[] = [];
    for (let i = 0; i < 101; i += 1) {
      const res = await client.post('/api/login', { email: `nobody-${i}@example.test`, password: 'x' });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 100).every((s) => s === 422)).toBe(true);
    expect(statuses[100]).toBe(429);
  }, 60_000);
});

describe('bearer tokens', () => {
  it('accepts a personal access token without CSRF, and rejects an unknown one', async () => {
    const org = await buildOrganisation(t.db);
    const { createPersonalAccessToken } = await import('./auth.service.js');
    const token = await createPersonalAccessToken(
      { db: t.db, mail: t.app.mail, rateLimiter: t.app.rateLimiter, appUrl: t.config.appUrl },
      org.admin.id,
      'api client',
    );
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/users/auth',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(ok.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/users/auth',
      headers: { authorization: 'Bearer 1|nope' },
    });
    expect(bad.statusCode).toBe(401);
    // Logging out with a token revokes that token.
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(204);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/users/auth',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it('turns a one-time login link into a session, and works only once', async () => {
    const org = await buildOrganisation(t.db);
    const { createLoginLink } = await import('./auth.service.js');
    const link = await createLoginLink(
      { db: t.db, mail: t.app.mail, rateLimiter: t.app.rateLimiter, appUrl: t.config.appUrl },
      org.admin.id,
    );
    expect(link.url).toMatch(/^http:\/\/kontrol\.test\/auth\/login\?auth_token=/);
    const client = new TestClient(t.app);
    const first = await client.get('/api/users/auth', { authorization: `Bearer ${link.token}` });
    expect(first.statusCode).toBe(200);
    expect(client.cookies.has('kontrol_session')).toBe(true);
    // The console goes on with the session cookie alone.
    expect((await client.get('/api/users/auth')).statusCode).toBe(200);
    const second = await t.app.inject({
      method: 'GET',
      url: '/api/users/auth',
      headers: { authorization: `Bearer ${link.token}` },
    });
    expect(second.statusCode).toBe(401);
  });
});

describe('anonymous endpoints that send e-mail', () => {
  it('limit each IP to 10 requests per 15 minutes per route', async () => {
    const client = await TestClient.visitor(t.app);
    const send = (i: number) =>
      client.request({
        method: 'POST',
        url: '/api/send-reset-link',
        payload: { email: `x${i}@example.test` },
        remoteAddress: '10.1.2.3',
      });
    for (let i = 0; i < 10; i += 1) expect((await send(i)).statusCode).toBe(200);
    const limited = await send(10);
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ message: string }>().message).toMatch(
      /^Too many requests\. Please try again in \d+ seconds\.$/,
    );
    // Another address is not affected.
    const other = await client.request({
      method: 'POST',
      url: '/api/send-reset-link',
      payload: { email: 'y@example.test' },
      remoteAddress: '10.1.2.4',
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('password reset e-mails per address', () => {
  it('sends at most 3 per 15 minutes to one address, with the same answer every time', async () => {
    const org = await buildOrganisation(t.db);
    const before = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', org.admin.email)
      .execute();
    expect(before).toHaveLength(0);
    const answers = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      // Every request from another address, as someone rotating IPs would.
      const client = await TestClient.visitor(t.app, { ip: `10.3.0.${i}` });
      const res = await client.post('/api/send-reset-link', { email: org.admin.email });
      answers.add(`${res.statusCode} ${res.body}`);
    }
    expect(answers.size).toBe(1);
    const mails = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', org.admin.email)
      .execute();
    expect(mails).toHaveLength(3);
  });
});
