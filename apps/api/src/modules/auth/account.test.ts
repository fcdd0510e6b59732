import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ smtp: true });
let counter = 0;
const newEmail = () => `changed-${Date.now()}-${counter++}@example.test`;

interface Me {
  name: string;
  email: string;
  locale: string;
  status: string;
  email_verified_at: string | null;
}

async function signedIn(options: { verified?: boolean; locale?: 'ru' | 'en' } = {}) {
  const org = await buildOrganisation(t.db);
  const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'], ...options });
  const client = new TestClient(t.app);
  await client.login(user.email, user.password);
  return { user, client };
}

async function me(client: TestClient) {
  const res = await client.get('/api/users/auth');
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Me }>().data;
}

async function canLogin(email: string, password: string) {
  const client = await TestClient.visitor(t.app);
  return (await client.post('/api/login', { email, password })).statusCode === 200;
}

function verificationPath(text: string) {
  const match = /http:\/\/kontrol\.test(\/api\/email\/verify\/[A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no verification link in: ${text}`);
  return match[1];
}

describe('PUT /api/user/profile-information', () => {
  it('changes the name and keeps a verified address verified, sending nothing', async () => {
    const { user, client } = await signedIn();
    const res = await client.put('/api/user/profile-information', {
      name: '  Пётр Петров ',
      email: user.email.toUpperCase(),
      locale: 'ru',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: Me }>().data).toMatchObject({
      name: 'Пётр Петров',
      email: user.email,
      locale: 'ru',
      status: 'verified',
    });
    expect(await me(client)).toMatchObject({
      name: 'Пётр Петров',
      email: user.email,
      locale: 'ru',
      status: 'verified',
    });
    await t.app.mail.drain();
    expect(t.smtp.mailsTo(user.email)).toHaveLength(0);
  });

  it('a changed e-mail becomes not verified and gets a verification mail, which verifies it', async () => {
    const { user, client } = await signedIn({ locale: 'ru' });
    const email = newEmail();
    const res = await client.put('/api/user/profile-information', {
      name: 'User',
      email: email.toUpperCase(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: Me }>().data).toMatchObject({
      email,
      status: 'not_verified',
      email_verified_at: null,
    });

    await t.app.mail.drain();
    expect(t.smtp.mailsTo(user.email)).toHaveLength(0);
    const [mail] = t.smtp.mailsTo(email);
    expect(mail?.subject).toBe('Kontrol: подтвердите e-mail');

    // The new address is now the login; the old one is not.
    expect(await canLogin(email, user.password)).toBe(true);
    expect(await canLogin(user.email, user.password)).toBe(false);

    const follow = await client.get(verificationPath(mail?.text ?? ''));
    expect(follow.headers.location).toBe('/account/dashboard?verified=1');
    expect(await me(client)).toMatchObject({ email, status: 'verified' });
  });

  it('a link sent to a previous address does not verify the new one', async () => {
    const { client } = await signedIn({ verified: false });
    const first = newEmail();
    expect(
      (await client.put('/api/user/profile-information', { name: 'User', email: first })).statusCode,
    ).toBe(200);
    await t.app.mail.drain();
    const oldLink = verificationPath(t.smtp.mailsTo(first)[0]?.text ?? '');

    const second = newEmail();
    expect(
      (await client.put('/api/user/profile-information', { name: 'User', email: second })).statusCode,
    ).toBe(200);
    await t.app.mail.drain();
    expect(t.smtp.mailsTo(second)).toHaveLength(1);

    expect((await client.get(oldLink)).headers.location).toBe('/auth/login?verified=0');
    expect(await me(client)).toMatchObject({ email: second, status: 'not_verified' });
  });

  it('refuses an e-mail another user has, in any case, with 422 on email', async () => {
    const { user, client } = await signedIn();
    const org = await buildOrganisation(t.db);
    for (const taken of [org.admin.email, org.admin.email.toUpperCase()]) {
      const res = await client.put('/api/user/profile-information', { name: 'Someone Else', email: taken });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'The given data was invalid.',
        errors: { email: ['The e-mail has already been taken.'] },
      });
    }
    // Nothing was changed, not even the name.
    expect(await me(client)).toMatchObject({ name: 'User', email: user.email, status: 'verified' });
    await t.app.mail.drain();
    expect(t.smtp.mailsTo(org.admin.email)).toHaveLength(0);
  });

  it('validates name and e-mail', async () => {
    const { client } = await signedIn();
    const res = await client.put('/api/user/profile-information', { name: '   ', email: 'not-an-email' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'email',
      'name',
    ]);
  });
});

describe('PUT /api/user/password', () => {
  it('refuses a wrong current password with 422 on current_password', async () => {
    const { user, client } = await signedIn();
    const res = await client.put('/api/user/password', {
      current_password: 'not-my-password',
      password: 'a-new-password',
      password_confirmation: 'a-new-password',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      errors: { current_password: ['The provided password does not match your current password.'] },
    });
    expect(await canLogin(user.email, user.password)).toBe(true);
    expect(await canLogin(user.email, 'a-new-password')).toBe(false);
  });

  it("changes the password and ends the user's other sessions, not the current one", async () => {
    const { user, client } = await signedIn();
    const otherDevice = new TestClient(t.app);
    await otherDevice.login(user.email, user.password);
    const someoneElse = await signedIn();

    const res = await client.put('/api/user/password', {
      current_password: user.password,
      password: 'a-new-password',
      password_confirmation: 'a-new-password',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your password has been updated.' });

    expect((await client.get('/api/users/auth')).statusCode).toBe(200);
    expect((await otherDevice.get('/api/users/auth')).statusCode).toBe(401);
    // Other users' sessions are untouched.
    expect((await someoneElse.client.get('/api/users/auth')).statusCode).toBe(200);
    expect(await canLogin(user.email, user.password)).toBe(false);
    expect(await canLogin(user.email, 'a-new-password')).toBe(true);
  });

  it('refuses a too short password and a mismatched confirmation with 422 on password', async () => {
    const { user, client } = await signedIn();
    const short = await client.put('/api/user/password', {
      current_password: user.password,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      password: ['Must be at least 8 characters.'],
    });

    const mismatch = await client.put('/api/user/password', {
      current_password: user.password,
      password: 'long-enough-1',
      password_confirmation: 'long-enough-2',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      password: ['The password confirmation does not match.'],
    });
    expect(await canLogin(user.email, user.password)).toBe(true);
  });

  it('needs a signed-in user', async () => {
    const client = await TestClient.visitor(t.app);
    const res = await client.put('/api/user/password', {
      current_password: 'x',
      password: 'a-new-password',
      password_confirmation: 'a-new-password',
    });
    expect(res.statusCode).toBe(401);
  });
});
