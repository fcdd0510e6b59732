import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { nextTestIp, TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { createPersonalAccessToken } from './auth.service.js';

const t = useTestApp({ smtp: true });

/** The anonymous endpoints are limited per IP; every visitor here comes from an address of its own. */
const visitor = () => TestClient.visitor(t.app, { ip: nextTestIp() });

async function requestLink(email: string) {
  const res = await (await visitor()).post('/api/send-reset-link', { email });
  expect(res.statusCode).toBe(200);
}

/** Delivers the outbox and returns the newest reset link e-mailed to `email`. */
async function resetLinkFor(email: string) {
  await t.app.mail.drain();
  const mail = t.smtp.mailsTo(email).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  const match = /http:\/\/kontrol\.test\/auth\/reset-password\?\S+/.exec(mail.text);
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  const url = new URL(match[0]);
  return { mail, token: url.searchParams.get('token') ?? '', email: url.searchParams.get('email') ?? '' };
}

async function reset(body: {
  token: string;
  email: string;
  password: string;
  password_confirmation?: string;
}) {
  return (await visitor()).post('/api/reset-password', { password_confirmation: body.password, ...body });
}

async function canLogin(email: string, password: string) {
  const res = await (await visitor()).post('/api/login', { email, password });
  return res.statusCode === 200;
}

const invalidLink = {
  message: 'The given data was invalid.',
  errors: { email: ['This password reset link is invalid or has expired.'] },
};

describe('POST /api/send-reset-link', () => {
  it('answers a known and an unknown address identically, and e-mails only the known one', async () => {
    const org = await buildOrganisation(t.db);
    const unknown = `nobody-${Date.now()}@example.test`;
    const known = await (await visitor()).post('/api/send-reset-link', { email: org.admin.email });
    const other = await (await visitor()).post('/api/send-reset-link', { email: unknown });

    expect(known.statusCode).toBe(200);
    expect(other.statusCode).toBe(known.statusCode);
    expect(other.body).toBe(known.body);
    expect(known.json()).toEqual({
      message: 'If that address is registered, we have e-mailed a password reset link to it.',
    });
    expect(other.headers['content-type']).toBe(known.headers['content-type']);

    await t.app.mail.drain();
    expect(t.smtp.mailsTo(org.admin.email)).toHaveLength(1);
    expect(t.smtp.mailsTo(unknown)).toHaveLength(0);
    const queued = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', unknown)
      .execute();
    expect(queued).toHaveLength(0);
  });

  it('e-mails a link carrying the token and the address, in the user’s language', async () => {
    const org = await buildOrganisation(t.db, { locale: 'ru' });
    // The address is matched without regard to case.
    await requestLink(org.admin.email.toUpperCase());
    const link = await resetLinkFor(org.admin.email);
    expect(link.mail.subject).toBe('Kontrol: сброс пароля');
    expect(link.mail.text).toContain('Здравствуйте, Admin!');
    expect(link.mail.text).toContain('действует 60 минут');
    expect(link.email).toBe(org.admin.email);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('stores only a hash of the token, expiring in an hour', async () => {
    const org = await buildOrganisation(t.db);
    const before = Date.now();
    await requestLink(org.admin.email);
    const { token } = await resetLinkFor(org.admin.email);
    const rows = await t.db
      .selectFrom('user_tokens')
      .selectAll()
      .where('user_id', '=', org.admin.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: 'password_reset', token_hash: sha256(token), used_at: null });
    expect(JSON.stringify(rows)).not.toContain(token);
    const expires = Date.parse(rows[0]?.expires_at ?? '');
    expect(expires).toBeGreaterThanOrEqual(before + 59 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
  });
});

describe('POST /api/reset-password', () => {
  it('sets the new password with the e-mailed link, once', async () => {
    const org = await buildOrganisation(t.db);
    await requestLink(org.admin.email);
    const link = await resetLinkFor(org.admin.email);

    const res = await reset({ token: link.token, email: link.email, password: 'brand-new-password' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your password has been reset.' });
    expect(await canLogin(org.admin.email, org.admin.password)).toBe(false);
    expect(await canLogin(org.admin.email, 'brand-new-password')).toBe(true);

    const again = await reset({ token: link.token, email: link.email, password: 'third-password-here' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual(invalidLink);
    expect(await canLogin(org.admin.email, 'third-password-here')).toBe(false);
    expect(await canLogin(org.admin.email, 'brand-new-password')).toBe(true);
  });

  it('of two simultaneous uses of one link, exactly one succeeds', async () => {
    const org = await buildOrganisation(t.db);
    await requestLink(org.admin.email);
    const link = await resetLinkFor(org.admin.email);
    const results = await Promise.all(
      ['racer-password-1', 'racer-password-2', 'racer-password-3'].map((password) =>
        reset({ token: link.token, email: link.email, password }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422, 422]);
    const winner =
      ['racer-password-1', 'racer-password-2', 'racer-password-3'][
        results.findIndex((r) => r.statusCode === 200)
      ] ?? '';
    expect(await canLogin(org.admin.email, winner)).toBe(true);
  });

  it('refuses a wrong token', async () => {
    const org = await buildOrganisation(t.db);
    await requestLink(org.admin.email);
    const link = await resetLinkFor(org.admin.email);
    const res = await reset({
      token: `${link.token.slice(0, -1)}x`,
      email: org.admin.email,
      password: 'not-going-to-work',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalidLink);
    expect(await canLogin(org.admin.email, org.admin.password)).toBe(true);
  });

  it('refuses a token with another user’s address, and leaves the link working for its owner', async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildUser(t.db, org.organisationId);
    await requestLink(org.admin.email);
    const link = await resetLinkFor(org.admin.email);
    const res = await reset({ token: link.token, email: other.email, password: 'taking-over-other' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalidLink);
    expect(await canLogin(other.email, other.password)).toBe(true);
    expect(await canLogin(org.admin.email, org.admin.password)).toBe(true);

    // Wrong addresses (another user's, an unknown one) sent at the same moment as the right one
    // use nothing up: the owner's reset goes through.
    const [owner, ...wrong] = await Promise.all([
      reset({ token: link.token, email: link.email, password: 'owner-picked-this' }),
      reset({ token: link.token, email: other.email, password: 'taking-over-other' }),
      reset({ token: link.token, email: `nobody-${Date.now()}@example.test`, password: 'taking-over-none' }),
      reset({ token: link.token, email: other.email.toUpperCase(), password: 'taking-over-other' }),
    ]);
    expect(owner?.statusCode).toBe(200);
    expect(wrong.map((answer) => answer.statusCode)).toEqual([422, 422, 422]);
    expect(await canLogin(org.admin.email, 'owner-picked-this')).toBe(true);
    expect(await canLogin(other.email, other.password)).toBe(true);
    // Used once by its owner, it is spent.
    const again = await reset({ token: link.token, email: link.email, password: 'a-second-new-one' });
    expect(again.statusCode).toBe(422);
  });

  it('refuses an expired token', async () => {
    const org = await buildOrganisation(t.db);
    await requestLink(org.admin.email);
    const link = await resetLinkFor(org.admin.email);
    await t.db
      .updateTable('user_tokens')
      .set({ expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where('token_hash', '=', sha256(link.token))
      .execute();
    const res = await reset({ token: link.token, email: link.email, password: 'too-late-for-this' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalidLink);
    expect(await canLogin(org.admin.email, org.admin.password)).toBe(true);
  });

  it('refuses the link of a user disabled since it was sent', async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId);
    await requestLink(user.email);
    const link = await resetLinkFor(user.email);
    await t.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', user.id)
      .execute();
    const res = await reset({ token: link.token, email: link.email, password: 'back-door-password' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(invalidLink);
    // Enabled again, the account still has its old password, not one set while it was disabled.
    await t.db.updateTable('users').set({ disabled_at: null }).where('id', '=', user.id).execute();
    expect(await canLogin(user.email, 'back-door-password')).toBe(false);
    expect(await canLogin(user.email, user.password)).toBe(true);
  });

  it('sends nothing to a disabled user', async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId);
    await t.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', user.id)
      .execute();
    await requestLink(user.email);
    await t.app.mail.drain();
    expect(t.smtp.mailsTo(user.email)).toHaveLength(0);
  });

  it('only the newest link works once a second one is requested', async () => {
    const org = await buildOrganisation(t.db);
    await requestLink(org.admin.email);
    const first = await resetLinkFor(org.admin.email);
    await requestLink(org.admin.email);
    const second = await resetLinkFor(org.admin.email);
    expect(second.token).not.toBe(first.token);

    const old = await reset({ token: first.token, email: org.admin.email, password: 'from-the-old-link' });
    expect(old.statusCode).toBe(422);
    const fresh = await reset({ token: second.token, email: org.admin.email, password: 'from-the-new-link' });
    expect(fresh.statusCode).toBe(200);
    expect(await canLogin(org.admin.email, 'from-the-new-link')).toBe(true);
  });

  it('ends every session and access token of the user, and lifts a login lock', async () => {
    const org = await buildOrganisation(t.db);
    const browser = new TestClient(t.app);
    await browser.login(org.admin.email, org.admin.password);
    const otherBrowser = new TestClient(t.app);
    await otherBrowser.login(org.admin.email, org.admin.password);
    const token = await createPersonalAccessToken(
      { db: t.db, mail: t.app.mail, rateLimiter: t.app.rateLimiter, appUrl: t.config.appUrl },
      org.admin.id,
      'script',
    );
    const bearer = () =>
      t.app.inject({ method: 'GET', url: '/api/users/auth', headers: { authorization: `Bearer ${token}` } });
    expect((await bearer()).statusCode).toBe(200);
    // Someone guessing the password has locked the account.
    const guesser = await visitor();
    for (let i = 0; i < 5; i += 1)
      await guesser.post('/api/login', { email: org.admin.email, password: 'guess' });
    expect(
      (await guesser.post('/api/login', { email: org.admin.email, password: org.admin.password })).statusCode,
    ).toBe(429);

    await requestLink(org.admin.email);
    const link = await resetLinkFor(org.admin.email);
    expect(
      (await reset({ token: link.token, email: link.email, password: 'after-the-reset' })).statusCode,
    ).toBe(200);

    expect((await browser.get('/api/users/auth')).statusCode).toBe(401);
    expect((await otherBrowser.get('/api/users/auth')).statusCode).toBe(401);
    expect((await bearer()).statusCode).toBe(401);
    const sessions = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', org.admin.id)
      .execute();
    expect(sessions).toHaveLength(0);
    expect(await canLogin(org.admin.email, 'after-the-reset')).toBe(true);
  });

  it('validates the new password like registration does', async () => {
    const org = await buildOrganisation(t.db);
    await requestLink(org.admin.email);
    const link = await resetLinkFor(org.admin.email);
    const short = await reset({ token: link.token, email: link.email, password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      password: ['Must be at least 8 characters.'],
    });
    const mismatch = await reset({
      token: link.token,
      email: link.email,
      password: 'long-enough-1',
      password_confirmation: 'long-enough-2',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      password: ['The password confirmation does not match.'],
    });
    // A refused request does not use up the link.
    expect(
      (await reset({ token: link.token, email: link.email, password: 'long-enough-1' })).statusCode,
    ).toBe(200);
  });
});
