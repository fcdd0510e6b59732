import { randomBytes } from 'node:crypto';
import { translate, type Locale } from '@kontrol/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../cli.js';
import { COMMON_PASSWORDS_COUNT, commonPasswords, isCommonPassword } from '../../lib/common-passwords.js';
import { sha256 } from '../../lib/crypto.js';
import {
  PASSWORD_HASH_COST,
  hashPassword,
  setPasswordHashCostForTests,
  verifyPassword,
} from '../../lib/password.js';
import { LOGIN_THROTTLE } from '../../modules/auth/auth.service.js';
import { replaceUserToken } from '../../modules/auth/tokens.repository.js';
import { DEMO_LOGIN } from '../../modules/demo/demo.seed.js';
import { buildOrganisation } from '../builders.js';
import { CHEAP_PASSWORD_HASH_COST } from '../cheap-password-hashing.js';
import { TestClient, nextTestIp } from '../http-client.js';
import { useAppWithRoutes } from './route-table.js';
import { propertiesOf } from './values.js';

/**
 * docs/security.md "Accounts and passwords" and "Throttling": a common password is refused
 * wherever a password is set (registration, reset, invitation, change, the operator tool) and
 * changes nothing; login never checks the list. Login throttling: five failures lock the account
 * (from every address, whatever the case of the e-mail) with a 429, `Retry-After` and a message in
 * the reader's language, the right password included; other accounts and addresses go on; a
 * hundred attempts lock an address; when the window has passed, all works again.
 */

const ctx = useAppWithRoutes();
afterEach(() => {
  vi.useRealTimers();
});

/** Common passwords as people type them: other cases, and full-width letters. */
const COMMON = ['password1', 'Password123', 'QWERTY123', 'iLoveYou', 'trustno1', 'ｐａｓｓｗｏｒｄ１'];
const STRONG = () => `harbour-ladle-${randomBytes(4).toString('hex')}`;

type Errors = { message: string; errors: Record<string, string[]> };
const commonRefusal = (locale: Locale): Errors => ({
  message: translate(locale, 'validation.failed'),
  errors: { password: [translate(locale, 'passwords.common')] },
});

/** A signed-out browser of its own address (the anonymous routes are limited per address). */
const visitor = () => TestClient.visitor(ctx.app, { ip: nextTestIp() });

async function canLogin(email: string, password: string) {
  const client = await visitor();
  return (await client.post('/api/login', { email, password })).statusCode === 200;
}

async function passwordHashOf(userId: number) {
  return (
    await ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  ).password_hash;
}

/** A link token of `purpose` for the user, as the e-mail would carry it. */
async function linkFor(userId: number, purpose: 'password_reset' | 'invitation') {
  const token = randomBytes(32).toString('base64url');
  await replaceUserToken(ctx.db, {
    user_id: userId,
    purpose,
    token_hash: sha256(token),
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    created_at: new Date().toISOString(),
  });
  return token;
}

describe('password hashes', () => {
  it('the app stores argon2id at OWASP’s baseline, 19 MiB, two passes, one lane; the tests’ cheaper hashes verify too', async () => {
    const org = await buildOrganisation(ctx.db);
    const client = new TestClient(ctx.app);
    await client.login(org.admin.email, org.admin.password);
    const password = STRONG();
    setPasswordHashCostForTests(PASSWORD_HASH_COST);
    try {
      const changed = await client.put('/api/user/password', {
        current_password: org.admin.password,
        password,
        password_confirmation: password,
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(await passwordHashOf(org.admin.id)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      // The user's old hash, made at the tests' cost, was verified at the app's.
      expect(await canLogin(org.admin.email, password)).toBe(true);
    } finally {
      setPasswordHashCostForTests(CHEAP_PASSWORD_HASH_COST);
    }
  });
});

describe('the common-passwords list', () => {
  it('knows common passwords in any case; the demo password is not one of them', () => {
    expect(commonPasswords().size).toBe(COMMON_PASSWORDS_COUNT);
    for (const password of COMMON) expect(isCommonPassword(password), password).toBe(true);
    expect(isCommonPassword(STRONG())).toBe(false);
    // The demo's password is set by code (the seed), not through the API; it is not common either.
    expect(isCommonPassword(DEMO_LOGIN.password)).toBe(false);
  });

  it('every route that takes a new password is checked here; login is the only other one', () => {
    const withPassword = ctx.routes
      .filter((route) => propertiesOf(route.body).includes('password'))
      .map((route) => route.key)
      .sort();
    expect(withPassword).toEqual([
      'POST /api/login',
      'POST /api/register',
      'POST /api/reset-password',
      'PUT /api/user/password',
    ]);
  });
});

describe('a common password is refused wherever a password is set', () => {
  it('POST /api/register: 422 on `password` in ru and en, no account made', async () => {
    for (const [index, password] of COMMON.entries()) {
      const locale: Locale = index % 2 === 0 ? 'en' : 'ru';
      const email = `common-${randomBytes(4).toString('hex')}@example.test`;
      const client = await visitor();
      const answer = await client.post(
        '/api/register',
        { name: 'Common', email, password, password_confirmation: password },
        { 'accept-language': locale },
      );
      expect(answer.statusCode, password).toBe(422);
      expect(answer.json<Errors>()).toEqual(commonRefusal(locale));
      expect(
        await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
      ).toBe(undefined);
    }
    const email = `strong-${randomBytes(4).toString('hex')}@example.test`;
    const password = STRONG();
    const client = await visitor();
    const created = await client.post('/api/register', {
      name: 'Strong',
      email,
      password,
      password_confirmation: password,
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it.each(['password_reset', 'invitation'] as const)(
    'POST /api/reset-password (a %s link): 422, the password unchanged and the link still good',
    async (purpose) => {
      const org = await buildOrganisation(ctx.db);
      let userId = org.admin.id;
      let email = org.admin.email;
      if (purpose === 'invitation') {
        // Invited through the API: no password until the invitation is accepted.
        const admin = new TestClient(ctx.app);
        await admin.login(org.admin.email, org.admin.password);
        email = `invited-${randomBytes(4).toString('hex')}@example.test`;
        const added = await admin.post('/api/users/add', { name: 'Invited', email });
        expect(added.statusCode, added.body).toBe(201);
        userId = added.json<{ data: { id: number } }>().data.id;
        expect(await passwordHashOf(userId)).toBeNull();
      }
      const hashBefore = await passwordHashOf(userId);
      const token = await linkFor(userId, purpose);
      for (const [index, password] of COMMON.entries()) {
        const locale: Locale = index % 2 === 0 ? 'ru' : 'en';
        const answer = await (
          await visitor()
        ).post(
          '/api/reset-password',
          { token, email, password, password_confirmation: password },
          { 'accept-language': locale },
        );
        expect(answer.statusCode, password).toBe(422);
        expect(answer.json<Errors>()).toEqual(commonRefusal(locale));
        expect(await passwordHashOf(userId)).toBe(hashBefore);
      }
      // The link was not used up: the person chooses another password with it.
      const password = STRONG();
      const accepted = await (
        await visitor()
      ).post('/api/reset-password', { token, email, password, password_confirmation: password });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(await canLogin(email, password)).toBe(true);
    },
  );

  it('PUT /api/user/password: 422 on `password`, the old password still the one', async () => {
    const org = await buildOrganisation(ctx.db);
    const client = new TestClient(ctx.app);
    await client.login(org.admin.email, org.admin.password);
    for (const [index, password] of COMMON.entries()) {
      const locale: Locale = index % 2 === 0 ? 'en' : 'ru';
      const answer = await client.put(
        '/api/user/password',
        { current_password: org.admin.password, password, password_confirmation: password },
        { 'accept-language': locale },
      );
      expect(answer.statusCode, password).toBe(422);
      expect(answer.json<Errors>()).toEqual(commonRefusal(locale));
    }
    expect(await canLogin(org.admin.email, org.admin.password)).toBe(true);
    // A wrong current password is still answered first, as before.
    const wrong = await client.put('/api/user/password', {
      current_password: 'not-the-password',
      password: 'password1',
      password_confirmation: 'password1',
    });
    expect(Object.keys(wrong.json<Errors>().errors)).toEqual(['current_password']);
    const password = STRONG();
    const changed = await client.put('/api/user/password', {
      current_password: org.admin.password,
      password,
      password_confirmation: password,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await canLogin(org.admin.email, password)).toBe(true);
  });

  it('the operator tool (org:create, user:create, user:set-password --password) refuses it too', async () => {
    const kontrol = async (...argv: string[]) => {
      const err: string[] = [];
      const code = await runCli(argv, {
        env: { DATABASE_URL: ctx.built.database.url, APP_URL: 'http://kontrol.test', LOG_LEVEL: 'silent' },
        out: () => undefined,
        err: (line) => err.push(line),
      });
      return { code, err: err.join('\n') };
    };
    const org = await buildOrganisation(ctx.db);
    const hashBefore = await passwordHashOf(org.admin.id);
    const email = `cli-${randomBytes(4).toString('hex')}@example.test`;
    for (const argv of [
      ['org:create', '--name', 'Common', '--admin-email', email, '--password', 'Password123'],
      ['user:create', '--org', String(org.organisationId), '--email', email, '--password', 'QWERTY123'],
      ['user:set-password', '--email', org.admin.email, '--password', 'trustno1'],
    ]) {
      const result = await kontrol(...argv);
      expect(result.code, argv[0]).toBe(2);
      expect(result.err).toContain('--password is too common; choose another');
    }
    expect(await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBe(
      undefined,
    );
    expect(await passwordHashOf(org.admin.id)).toBe(hashBefore);
  });

  it('login never checks the list: an account whose password was set before the rule signs in', async () => {
    const org = await buildOrganisation(ctx.db);
    await ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('password1') })
      .where('id', '=', org.admin.id)
      .execute();
    expect(await verifyPassword(await passwordHashOf(org.admin.id), 'password1')).toBe(true);
    expect(await canLogin(org.admin.email, 'password1')).toBe(true);
  });
});

describe('login throttling', () => {
  const login = (client: TestClient, email: string, password: string, locale: Locale = 'en') =>
    client.post('/api/login', { email, password }, { 'accept-language': locale });

  function expectThrottled(answer: Awaited<ReturnType<typeof login>>, locale: Locale) {
    expect(answer.statusCode, answer.body).toBe(429);
    const retryAfter = Number(answer.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_THROTTLE.windowMs / 1000);
    expect(answer.json()).toEqual({ message: translate(locale, 'auth.throttle', { seconds: retryAfter }) });
  }

  it('five failures lock the account: 429 with Retry-After in ru and en, the right password too; others go on; the window ends it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const victim = await buildOrganisation(ctx.db);
    const other = await buildOrganisation(ctx.db);
    const here = new TestClient(ctx.app, { ip: nextTestIp() });
    const elsewhere = new TestClient(ctx.app, { ip: nextTestIp() });
    await here.get('/sanctum/csrf-cookie');
    await elsewhere.get('/sanctum/csrf-cookie');

    for (let attempt = 0; attempt < LOGIN_THROTTLE.maxAttemptsPerAccount; attempt += 1) {
      const failed = await login(here, victim.admin.email, `wrong-${attempt}`);
      expect(failed.statusCode).toBe(422);
    }
    // The right password is refused now, in either language, with how long to wait.
    expectThrottled(await login(here, victim.admin.email, victim.admin.password, 'en'), 'en');
    expectThrottled(await login(here, victim.admin.email, victim.admin.password, 'ru'), 'ru');
    expect(translate('ru', 'auth.throttle', { seconds: 60 })).toBe(
      'Слишком много попыток входа. Повторите через 60 с.',
    );
    // The lock is the account's: another address or another case of the e-mail does not get round it.
    expectThrottled(await login(elsewhere, victim.admin.email, victim.admin.password), 'en');
    expectThrottled(await login(here, victim.admin.email.toUpperCase(), victim.admin.password), 'en');
    // Nobody else is locked: another account from the same address and from another.
    expect((await login(here, other.admin.email, other.admin.password)).statusCode).toBe(200);
    expect((await login(elsewhere, other.admin.email, other.admin.password)).statusCode).toBe(200);

    // Still locked a minute before the window ends; open once it has.
    vi.setSystemTime(Date.now() + LOGIN_THROTTLE.windowMs - 60_000);
    expectThrottled(await login(here, victim.admin.email, victim.admin.password), 'en');
    vi.setSystemTime(Date.now() + 61_000);
    const after = await login(here, victim.admin.email, victim.admin.password);
    expect(after.statusCode, after.body).toBe(200);
  });

  it('thirty parallel wrong passwords for one account: at most five are checked, the rest get 429; then the right one too until the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const victim = await buildOrganisation(ctx.db);
    const attackers = await Promise.all(
      Array.from({ length: 30 }, () => TestClient.visitor(ctx.app, { ip: nextTestIp() })),
    );
    const answers = await Promise.all(
      attackers.map((client, attempt) => login(client, victim.admin.email, `wrong-${attempt}`)),
    );
    const checked = answers.filter((answer) => answer.statusCode === 422);
    const throttled = answers.filter((answer) => answer.statusCode === 429);
    expect(checked.length).toBeLessThanOrEqual(LOGIN_THROTTLE.maxAttemptsPerAccount);
    expect(checked.length + throttled.length).toBe(answers.length);
    for (const answer of throttled) expectThrottled(answer, 'en');

    expectThrottled(await login(attackers[0]!, victim.admin.email, victim.admin.password), 'en');
    vi.setSystemTime(Date.now() + LOGIN_THROTTLE.windowMs - 60_000);
    expectThrottled(await login(await visitor(), victim.admin.email, victim.admin.password), 'en');
    vi.setSystemTime(Date.now() + 61_000);
    expect((await login(await visitor(), victim.admin.email, victim.admin.password)).statusCode).toBe(200);
  });

  it('parallel attempts from one address: at most a hundred are checked, the rest get 429', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const org = await buildOrganisation(ctx.db);
    const noisy = await TestClient.visitor(ctx.app, { ip: nextTestIp() });
    const answers = await Promise.all(
      Array.from({ length: LOGIN_THROTTLE.maxAttemptsPerIp + 30 }, (_, attempt) =>
        login(noisy, `nobody-${attempt}@example.test`, 'wrong-password'),
      ),
    );
    const checked = answers.filter((answer) => answer.statusCode === 422);
    expect(checked.length).toBe(LOGIN_THROTTLE.maxAttemptsPerIp);
    for (const answer of answers.filter((each) => each.statusCode !== 422)) expectThrottled(answer, 'en');
    expectThrottled(await login(noisy, org.admin.email, org.admin.password), 'en');
    vi.setSystemTime(Date.now() + LOGIN_THROTTLE.windowMs + 1_000);
    expect((await login(noisy, org.admin.email, org.admin.password)).statusCode).toBe(200);
  }, 60_000);

  it('a hundred attempts lock an address for every account; other addresses go on; the window ends it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const org = await buildOrganisation(ctx.db);
    const noisy = await TestClient.visitor(ctx.app, { ip: nextTestIp() });
    for (let attempt = 0; attempt < LOGIN_THROTTLE.maxAttemptsPerIp; attempt += 1) {
      const failed = await login(noisy, `nobody-${attempt}@example.test`, 'wrong-password');
      expect(failed.statusCode).toBe(422);
    }
    expectThrottled(await login(noisy, org.admin.email, org.admin.password, 'ru'), 'ru');
    const quiet = await TestClient.visitor(ctx.app, { ip: nextTestIp() });
    expect((await login(quiet, org.admin.email, org.admin.password)).statusCode).toBe(200);

    vi.setSystemTime(Date.now() + LOGIN_THROTTLE.windowMs + 1_000);
    expect((await login(noisy, org.admin.email, org.admin.password)).statusCode).toBe(200);
  }, 60_000);
});
