import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLoginLink } from '../../modules/auth/auth.service.js';
import { REDACTED, redactUrl } from '@kontrol/server-kit';
import { buildOrganisation } from '../builders.js';
import { TestClient, nextTestIp } from '../http-client.js';
import { buildTestApp, type TestApp } from '../test-app.js';

/**
 * docs/security.md "Logs": the links that open an account, a chat binding or a payment leave no
 * secret in the log. Each request goes through HTTP to the app, whose log (JSON lines, level info,
 * as `npm start` writes it) is read after it.
 */

let lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOG_LEVEL: 'info' }, { logStream });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  lines = [];
});

const secret = () => randomBytes(32).toString('base64url');

/** The log since the test began holds the request, with `[redacted]` where `secret` was. */
function expectRedacted(secretValue: string, path: string) {
  const log = lines.join('\n');
  expect(log).not.toContain(secretValue);
  expect(log).not.toContain(encodeURIComponent(secretValue));
  const requestLines = lines
    .map((line) => JSON.parse(line) as { req?: { url: string } })
    .filter((line) => line.req?.url.startsWith(path));
  expect(requestLines.length).toBeGreaterThan(0);
  for (const line of requestLines) expect(line.req?.url).toContain(REDACTED);
}

async function outboxText(to: string): Promise<string> {
  const row = await t.database.handle.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return row.text_body;
}

const linkIn = (text: string) => new URL(/https?:\/\/\S+/.exec(text)![0]);

describe('request log lines', () => {
  it('a password-reset link: neither its sending nor its use logs the token (the mail text is not logged either)', async () => {
    const org = await buildOrganisation(t.database.handle.db);
    const client = await TestClient.visitor(t.app, { ip: nextTestIp() });
    await client.post('/api/send-reset-link', { email: org.admin.email });
    const link = linkIn(await outboxText(org.admin.email));
    const token = link.searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(20);
    await client.get(`${link.pathname}${link.search}`);
    expectRedacted(token, '/auth/reset-password');
  });

  it('an e-mail verification link', async () => {
    const client = await TestClient.visitor(t.app, { ip: nextTestIp() });
    const email = `new-${randomBytes(4).toString('hex')}@example.test`;
    const registered = await client.post('/api/register', {
      name: 'Иван Петров',
      email,
      password: 'harbour-ladle-spoon',
      password_confirmation: 'harbour-ladle-spoon',
    });
    expect(registered.statusCode, registered.body).toBeLessThan(300);
    const link = linkIn(await outboxText(email));
    const token = link.pathname.split('/').pop()!;
    const answer = await client.get(link.pathname);
    expect(answer.statusCode).toBe(302);
    expectRedacted(token, '/api/email/verify/');
  });

  it('a one-time login link (user:login-link)', async () => {
    const org = await buildOrganisation(t.database.handle.db);
    const { token, url } = await createLoginLink(
      { db: t.database.handle.db, mail: t.app.mail, rateLimiter: t.app.rateLimiter, appUrl: t.config.appUrl },
      org.admin.id,
    );
    const link = new URL(url);
    await (await TestClient.visitor(t.app, { ip: nextTestIp() })).get(`${link.pathname}${link.search}`);
    expectRedacted(token, '/auth/login');
  });

  it('a Telegram binding token and a sandbox payment id in the path, and a secret in a malformed URL', async () => {
    const org = await buildOrganisation(t.database.handle.db);
    const client = await TestClient.visitor(t.app, { ip: nextTestIp() });
    await client.post('/api/login', { email: org.admin.email, password: org.admin.password });
    const binding = secret();
    await client.get(`/api/integrations/telegram/${binding}`);
    expectRedacted(binding, '/api/integrations/telegram/');

    lines = [];
    const payment = secret();
    await client.get(`/api/payment/sandbox/${payment}?lang=ru`);
    expectRedacted(payment, '/api/payment/sandbox/');

    lines = [];
    const broken = secret();
    await client.get(`/api/email/verify/${broken}%ff`);
    expectRedacted(broken, '/api/email/verify/');
  });
});

describe('redactUrl', () => {
  it('replaces secret path segments and query values, whatever the encoding of the name, and keeps the rest', () => {
    expect(redactUrl('/auth/reset-password?token=abc&email=a%40b.c')).toBe(
      `/auth/reset-password?token=${REDACTED}&email=a%40b.c`,
    );
    expect(redactUrl('/auth/login?auth%5Ftoken=1%7Cx&AUTH_TOKEN=y')).toBe(
      `/auth/login?auth%5Ftoken=${REDACTED}&AUTH_TOKEN=${REDACTED}`,
    );
    expect(redactUrl('/api/email/verify/abc?x=1')).toBe(`/api/email/verify/${REDACTED}?x=1`);
    expect(redactUrl('/api/devices?page=2&token_name=x')).toBe('/api/devices?page=2&token_name=x');
    expect(redactUrl('/api/integrations/telegram')).toBe('/api/integrations/telegram');
  });
});
