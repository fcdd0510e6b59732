import type { User } from '@kontrol/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildOrganisation, VALID_ORGANISATION_DETAILS } from '../../test/builders.js';
import { nextTestIp, TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { createUser } from './users.service.js';

/**
 * Invitations as a spam cannon (docs/security.md, "Invitations and names"): who may send them,
 * how many, and what a name may carry into the e-mail. Small limits so the tests reach them.
 */
const PER_HOUR = 5;
const PER_DAY = 8;
const t = useTestApp({
  smtp: true,
  env: { INVITES_PER_HOUR: String(PER_HOUR), INVITES_PER_DAY: String(PER_DAY) },
});

afterEach(() => {
  vi.useRealTimers();
});

type Errors = { message: string; errors: Record<string, string[]> };

let counter = 0;
const newEmail = (what = 'invitee') => `${what}-${Date.now()}-${counter++}@example.test`;

const VERIFY_FIRST = {
  en: 'Confirm your e-mail address first: only users with a confirmed address send invitations. Open the link in the e-mail we sent you, or ask for the e-mail again.',
  ru: 'Сначала подтвердите свой e-mail: приглашения отправляют только пользователи с подтверждённым адресом. Откройте ссылку из письма, которое мы прислали, или запросите письмо ещё раз.',
};

/** A stranger's sign-up, as on the public registration page: an admin whose e-mail is not proven. */
async function selfRegistered(name = 'Ivan') {
  const email = newEmail('signup');
  const client = await TestClient.visitor(t.app, { ip: nextTestIp() });
  const res = await client.post('/api/register', {
    name,
    email,
    password: 'a-good-password',
    password_confirmation: 'a-good-password',
  });
  expect(res.statusCode).toBe(201);
  const me = res.json<{ data: { id: number; organisation: { id: number } } }>().data;
  return { client, email, userId: me.id, organisationId: me.organisation.id };
}

/** An organisation whose admin has a proven e-mail, signed in. */
async function verifiedAdmin(options: { name?: string; locale?: 'ru' | 'en' } = {}) {
  const org = await buildOrganisation(t.db, options);
  const client = new TestClient(t.app, { ip: nextTestIp() });
  await client.login(org.admin.email, org.admin.password);
  return { org, client };
}

const invite = (client: TestClient, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  client.post('/api/users/add', { name: 'Olga', email: newEmail(), ...body }, headers);

/** A user who was invited and has not chosen a password yet. */
async function pendingInvitee(organisationId: number) {
  const email = newEmail('pending');
  const id = await createUser(t.db, {
    organisationId,
    name: 'Pending',
    email,
    password: null,
    role: 'regular',
    aclRoleId: null,
    locale: 'en',
    verified: false,
  });
  return { id, email };
}

const outboxTo = (address: string) =>
  t.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body', 'html_body'])
    .where('to_address', '=', address)
    .execute();

const userByEmail = (email: string) =>
  t.db.selectFrom('users').select(['id', 'email']).where('email', '=', email).executeTakeFirst();

describe('inviting needs a confirmed e-mail', () => {
  it('refuses an admin whose e-mail is unproven (403, ru/en) on every way of mailing a new address, sending and storing nothing; once confirmed, they invite', async () => {
    const { client, email, organisationId } = await selfRegistered();
    const victim = newEmail('victim');

    const en = await invite(client, { email: victim });
    expect(en.statusCode).toBe(403);
    expect(en.json()).toEqual({ message: VERIFY_FIRST.en });
    const ru = await invite(client, { email: victim }, { 'accept-language': 'ru' });
    expect(ru.statusCode).toBe(403);
    expect(ru.json()).toEqual({ message: VERIFY_FIRST.ru });
    expect(await userByEmail(victim)).toBeUndefined();

    // A fresh invitation, and a new address for someone already in the organisation, both e-mail
    // an address nobody has proven: refused alike.
    const pending = await pendingInvitee(organisationId);
    const resend = await client.post(`/api/users/${pending.id}/invitation`);
    expect(resend.statusCode).toBe(403);
    expect(resend.json()).toEqual({ message: VERIFY_FIRST.en });
    const moved = await client.put(`/api/users/${pending.id}`, { email: victim });
    expect(moved.statusCode).toBe(403);
    expect((await userByEmail(pending.email))?.id).toBe(pending.id);
    expect(await outboxTo(victim)).toEqual([]);
    expect(await outboxTo(pending.email)).toEqual([]);

    // What the console offers: the confirmation e-mail again; its link proves the address.
    const again = await client.post('/api/email/verification-notification');
    expect(again.statusCode).toBe(202);
    await t.app.mail.drain();
    const mail = t.smtp.mailsTo(email).at(-1);
    const path = /http:\/\/kontrol\.test(\/api\/email\/verify\/[A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    expect((await client.get(path ?? '/none')).statusCode).toBe(302);

    const invited = await invite(client, { email: victim });
    expect(invited.statusCode).toBe(201);
    expect(await outboxTo(victim)).toHaveLength(1);
  });
});

describe('invitations are limited per organisation', () => {
  it('lets exactly INVITES_PER_HOUR of 25 simultaneous invitations through; the rest get 429 with Retry-After and the minutes to wait', async () => {
    const { client } = await verifiedAdmin();
    const emails = Array.from({ length: 25 }, () => newEmail());
    const answers = await Promise.all(emails.map((email) => invite(client, { email })));

    const created = answers.filter((res) => res.statusCode === 201);
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(created).toHaveLength(PER_HOUR);
    expect(refused).toHaveLength(25 - PER_HOUR);
    for (const res of refused) {
      const wait = Number(res.headers['retry-after']);
      expect(wait).toBeGreaterThan(3_500);
      expect(wait).toBeLessThanOrEqual(3_600);
      expect(res.json()).toEqual({
        message: `Your organisation has sent too many invitations. You can send the next one in ${Math.ceil(wait / 60)} min.`,
      });
    }
    // Only the invitations let through exist and were e-mailed.
    const stored = await t.db.selectFrom('users').select('email').where('email', 'in', emails).execute();
    expect(stored).toHaveLength(PER_HOUR);
    const mailed = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', 'in', emails)
      .execute();
    expect(mailed).toHaveLength(PER_HOUR);

    const ru = await invite(client, {}, { 'accept-language': 'ru' });
    expect(ru.statusCode).toBe(429);
    expect(ru.json<{ message: string }>().message).toMatch(
      /^Ваша организация отправила слишком много приглашений\. Следующее можно отправить через \d+ мин\.$/,
    );

    // Another organisation has limits of its own.
    const other = await verifiedAdmin();
    expect((await invite(other.client, {})).statusCode).toBe(201);
  });

  it('holds the day limit as hours pass, counting fresh invitations and new addresses too; a refused body costs nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { org, client } = await verifiedAdmin();
    const pending = await pendingInvitee(org.organisationId);

    // Bodies the schema refuses, and a taken address, are not counted.
    expect((await invite(client, { name: 'see http://evil.test' })).statusCode).toBe(422);
    expect((await invite(client, { email: org.admin.email })).statusCode).toBe(422);

    for (let i = 0; i < PER_HOUR; i += 1) expect((await invite(client, {})).statusCode).toBe(201);
    expect((await client.post(`/api/users/${pending.id}/invitation`)).statusCode).toBe(429);

    vi.setSystemTime(Date.now() + 3_600_000 + 1_000);
    expect((await client.post(`/api/users/${pending.id}/invitation`)).statusCode).toBe(200);
    const moved = newEmail('moved');
    expect((await client.put(`/api/users/${pending.id}`, { email: moved })).statusCode).toBe(200);
    expect(await outboxTo(moved)).toHaveLength(1);
    expect((await invite(client, {})).statusCode).toBe(201);

    // PER_DAY reached: refused until the day's window ends, though this hour has room.
    const refused = await invite(client, {});
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(24 * 3_600 - 3_700);
    expect(wait).toBeLessThanOrEqual(24 * 3_600 - 3_600);
    const another = newEmail('another');
    const refusedMove = await client.put(`/api/users/${pending.id}`, { email: another });
    expect(refusedMove.statusCode).toBe(429);
    expect((await userByEmail(moved))?.id).toBe(pending.id);
    expect(await outboxTo(another)).toEqual([]);
  });

  it('counts a user’s own new address: over the limit the profile keeps its e-mail', async () => {
    const { org, client } = await verifiedAdmin();
    for (let i = 0; i < PER_HOUR; i += 1) expect((await invite(client, {})).statusCode).toBe(201);
    const changed = newEmail('self');
    const res = await client.put('/api/user/profile-information', { name: 'Admin', email: changed });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await userByEmail(org.admin.email))?.id).toBe(org.admin.id);
    expect(await outboxTo(changed)).toEqual([]);
    // A change of name alone e-mails nobody and is not counted.
    const renamed = await client.put('/api/user/profile-information', {
      name: 'Boss',
      email: org.admin.email,
    });
    expect(renamed.statusCode).toBe(200);
  });
});

describe('names carry no links, addresses or hidden characters', () => {
  const LINK = {
    en: 'A name cannot contain a link or a web address.',
    ru: 'Имя не может содержать ссылку или адрес сайта.',
  };
  const EMAIL = {
    en: 'A name cannot contain an e-mail address.',
    ru: 'Имя не может содержать адрес электронной почты.',
  };
  const CONTROL =
    'The name contains invisible or control characters (line breaks, tabs, text direction overrides): remove them.';

  it('refuses them in an invitation and a user’s edit (422 on name, ru/en); nothing is stored or sent', async () => {
    const { org, client } = await verifiedAdmin();
    const victim = newEmail('victim');
    const phishing = 'Ваш аккаунт заблокирован. Разблокировать: http://evil.test/unblock';
    const en = await invite(client, { name: phishing, email: victim });
    expect(en.statusCode).toBe(422);
    expect(en.json<Errors>().errors).toEqual({ name: [LINK.en] });
    const ru = await invite(client, { name: phishing, email: victim }, { 'accept-language': 'ru' });
    expect(ru.json<Errors>().errors).toEqual({ name: [LINK.ru] });
    for (const [name, message] of [
      ['Visit evil.com/x', LINK.en],
      ['WWW.EVIL.TEST', LINK.en],
      ['write to help@evil.test', EMAIL.en],
      ['Olga\u202Etset.live', CONTROL],
      ['Olga\r\nBcc: someone@else.test', CONTROL],
    ] as const) {
      const res = await invite(client, { name, email: victim });
      expect(res.statusCode, name).toBe(422);
      expect(res.json<Errors>().errors, name).toEqual({ name: [message] });
    }
    expect(await userByEmail(victim)).toBeUndefined();
    expect(await outboxTo(victim)).toEqual([]);

    const pending = await pendingInvitee(org.organisationId);
    const edit = await client.put(
      `/api/users/${pending.id}`,
      { name: 'olga@evil.test' },
      { 'accept-language': 'ru' },
    );
    expect(edit.statusCode).toBe(422);
    expect(edit.json<Errors>().errors).toEqual({ name: [EMAIL.ru] });
    // Names of people and places as they are written pass.
    const fine = await client.put(`/api/users/${pending.id}`, { name: 'Dr.Smith, Cafe 1.5 (ООО «Ромашка»)' });
    expect(fine.statusCode).toBe(200);
  });

  it('refuses them at registration (name and organisation) and in the profile', async () => {
    const visitor = await TestClient.visitor(t.app, { ip: nextTestIp() });
    const res = await visitor.post('/api/register', {
      name: 'www.evil.test',
      organisation_name: 'Ваш аккаунт заблокирован evil.com/x',
      email: newEmail('signup'),
      password: 'a-good-password',
      password_confirmation: 'a-good-password',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({ name: [LINK.en], organisation_name: [LINK.en] });

    const { client, org } = await verifiedAdmin();
    const profile = await client.put('/api/user/profile-information', {
      name: 'Admin\u0007',
      email: org.admin.email,
    });
    expect(profile.statusCode).toBe(422);
    expect(profile.json<Errors>().errors).toEqual({ name: [CONTROL] });
  });

  it('refuses them in the organisation’s billing details where they are names', async () => {
    const { client } = await verifiedAdmin();
    const res = await client.post(
      '/api/users/update_organization',
      {
        ...VALID_ORGANISATION_DETAILS,
        legal_name: 'ООО «Ромашка» www.evil.test',
        director: 'Иванов\u202eИван',
        accountant: 'pay@evil.test',
      },
      { 'accept-language': 'ru' },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      legal_name: [LINK.ru],
      director: [
        'Имя содержит невидимые или управляющие символы (перевод строки, табуляцию, смену направления текста): уберите их.',
      ],
      accountant: [EMAIL.ru],
    });
    const fine = await client.post('/api/users/update_organization', {
      ...VALID_ORGANISATION_DETAILS,
      legal_name: 'ООО «Ресторан 1.5»',
    });
    expect(fine.statusCode).toBe(200);
  });

  it('never puts a name in a subject: a name stored before the rule is shown as it is and only greeted by, in a plain-text mail', async () => {
    const { org, client } = await verifiedAdmin({ locale: 'ru' });
    const legacy = 'Ваш аккаунт заблокирован http://evil.test';
    await t.db
      .updateTable('organisations')
      .set({ name: legacy })
      .where('id', '=', org.organisationId)
      .execute();
    await t.db.updateTable('users').set({ name: legacy }).where('id', '=', org.admin.id).execute();

    const ru = newEmail();
    expect((await invite(client, { name: 'Ольга', email: ru, locale: 'ru' })).statusCode).toBe(201);
    const en = newEmail();
    expect((await invite(client, { name: 'Olga', email: en, locale: 'en' })).statusCode).toBe(201);
    await t.app.mail.drain();
    const [ruMail] = t.smtp.mailsTo(ru);
    const [enMail] = t.smtp.mailsTo(en);
    expect(ruMail?.subject).toBe('Kontrol: приглашение');
    expect(enMail?.subject).toBe('Kontrol: you are invited');
    expect(ruMail?.text).toContain('Здравствуйте, Ольга!');
    for (const mail of [ruMail, enMail]) {
      expect(mail?.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(mail?.raw).not.toMatch(/text\/html/i);
    }

    // Stored names stay readable: the list shows them unchanged.
    const listed = (await client.get(`/api/users/${org.admin.id}`)).json<{ data: User }>().data;
    expect(listed.name).toBe(legacy);
  });
});
