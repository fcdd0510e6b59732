import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { nextTestIp, TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ smtp: true });

let userCounter = 0;
const newEmail = () => `signup-${Date.now()}-${userCounter++}@example.test`;

/**
 * A browser that signs up, from an address of its own (registration is limited per IP); it keeps
 * the session registration starts.
 */
async function register(
  body: { name?: string; email: string; locale?: 'ru' | 'en' },
  headers: Record<string, string> = {},
) {
  const client = await TestClient.visitor(t.app, { ip: nextTestIp() });
  const res = await client.post(
    '/api/register',
    {
      name: body.name ?? 'Ivan',
      email: body.email,
      password: 'a-good-password',
      password_confirmation: 'a-good-password',
      ...(body.locale ? { locale: body.locale } : {}),
    },
    headers,
  );
  return { client, res };
}

/** Delivers the outbox and returns the newest verification mail to `email` and its link's path. */
async function verificationFor(email: string) {
  await t.app.mail.drain();
  const mail = t.smtp.mailsTo(email).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  const match = /http:\/\/kontrol\.test(\/api\/email\/verify\/[A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no verification link in: ${mail.text}`);
  return { mail, path: match[1] };
}

async function statusOf(client: TestClient) {
  const me = await client.get('/api/users/auth');
  expect(me.statusCode).toBe(200);
  return me.json<{ data: { status: string; email_verified_at: string | null } }>().data;
}

describe('e-mail verification', () => {
  it('registration e-mails a link in the chosen language; the link verifies the user once', async () => {
    const email = newEmail();
    const { client, res } = await register({ name: 'Иван', email, locale: 'ru' });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: { status: string } }>().data.status).toBe('not_verified');

    const { mail, path } = await verificationFor(email);
    expect(mail.subject).toBe('Kontrol: подтвердите e-mail');
    expect(mail.text).toContain('Здравствуйте, Иван!');
    expect(mail.text).toContain('действует 48 ч');
    expect(t.smtp.mailsTo(email)).toHaveLength(1);

    const follow = await client.get(path);
    expect(follow.statusCode).toBe(302);
    expect(follow.headers.location).toBe('/account/dashboard?verified=1');
    const user = await statusOf(client);
    expect(user.status).toBe('verified');
    expect(user.email_verified_at).not.toBeNull();

    // The link works once: a second visit (even from another browser) is refused.
    const again = await new TestClient(t.app).get(path);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/auth/login?verified=0');
  });

  it('of simultaneous visits to one link, exactly one verifies', async () => {
    const email = newEmail();
    await register({ email });
    const { path } = await verificationFor(email);
    const visits = await Promise.all([1, 2, 3].map(() => new TestClient(t.app).get(path)));
    expect(visits.map((v) => v.headers.location).sort()).toEqual([
      '/account/dashboard?verified=1',
      '/auth/login?verified=0',
      '/auth/login?verified=0',
    ]);
  });

  it('writes in the language of the request when none is chosen', async () => {
    const russian = newEmail();
    await register({ email: russian }, { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' });
    expect((await verificationFor(russian)).mail.subject).toBe('Kontrol: подтвердите e-mail');
    const english = newEmail();
    await register({ email: english }, { 'accept-language': 'en-GB' });
    const { mail } = await verificationFor(english);
    expect(mail.subject).toBe('Kontrol: confirm your e-mail address');
    expect(mail.text).toContain('Hello Ivan,');
  });

  it('stores only a hash of the verification token', async () => {
    const email = newEmail();
    await register({ email });
    const { path } = await verificationFor(email);
    const token = path.split('/').at(-1) ?? '';
    const rows = await t.db
      .selectFrom('user_tokens')
      .innerJoin('users', 'users.id', 'user_tokens.user_id')
      .select(['user_tokens.token_hash', 'user_tokens.purpose'])
      .where('users.email', '=', email)
      .execute();
    expect(rows).toEqual([{ token_hash: sha256(token), purpose: 'email_verification' }]);
  });

  it('refuses an unknown or expired link and leaves the user unverified', async () => {
    const unknown = await new TestClient(t.app).get('/api/email/verify/not-a-real-token');
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe('/auth/login?verified=0');

    const email = newEmail();
    const { client } = await register({ email });
    const { path } = await verificationFor(email);
    const token = path.split('/').at(-1) ?? '';
    await t.db
      .updateTable('user_tokens')
      .set({ expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where('token_hash', '=', sha256(token))
      .execute();
    const expired = await client.get(path);
    expect(expired.headers.location).toBe('/auth/login?verified=0');
    expect((await statusOf(client)).status).toBe('not_verified');
  });

  it('verification-notification sends a new link to an unverified user; only the new link works', async () => {
    const email = newEmail();
    const { client } = await register({ email, locale: 'en' });
    const first = await verificationFor(email);

    const res = await client.post('/api/email/verification-notification');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: 'A new verification link has been sent to your e-mail address.' });
    const second = await verificationFor(email);
    expect(t.smtp.mailsTo(email)).toHaveLength(2);
    expect(second.path).not.toBe(first.path);

    expect((await client.get(first.path)).headers.location).toBe('/auth/login?verified=0');
    expect((await client.get(second.path)).headers.location).toBe('/account/dashboard?verified=1');
    expect((await statusOf(client)).status).toBe('verified');
  });

  it('verification-notification answers 200 and sends nothing to a verified user', async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId, { verified: true });
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const res = await client.post('/api/email/verification-notification');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your e-mail address is already verified.' });
    await t.app.mail.drain();
    expect(t.smtp.mailsTo(user.email)).toHaveLength(0);
    const queued = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', user.email)
      .execute();
    expect(queued).toHaveLength(0);
  });

  it('verification-notification needs a signed-in user', async () => {
    const client = await TestClient.visitor(t.app);
    expect((await client.post('/api/email/verification-notification')).statusCode).toBe(401);
  });
});
