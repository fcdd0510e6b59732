import {
  type Integration,
  type integrationCreatedSchema,
  type telegramBindingSchema,
} from '@kontrol/contracts';
import { createDb } from '@kontrol/db';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildAllInOneApp } from '../../all-in-one/app.js';
import { ConfigError, loadConfig } from '@kontrol/server-kit';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { useFakeTelegram, type FakeChat } from '../../test/fake-telegram.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { BOT_LEASE } from './telegram.poller.js';
import { TELEGRAM_MAX_ATTEMPTS } from './telegram.sender.js';
import type { TelegramStartOptions } from './telegram.service.js';

const telegram = useFakeTelegram();
const t = useTestApp({ env: telegram.env });

/** The bot as server.ts runs it, with short waits so a test sees its turns quickly. */
const FAST: TelegramStartOptions = {
  pollTimeoutSeconds: 1,
  leaseMs: 4_000,
  leaseRetryMs: 100,
  errorRetryMs: 50,
  sendIntervalMs: 100,
};
beforeAll(() => t.app.telegram.start(FAST));

type Created = z.infer<typeof integrationCreatedSchema>;
type Binding = z.infer<typeof telegramBindingSchema>;

let chatCounter = 0;
/** A private chat of its own for each test (the fake and the bot are shared by the file). */
function privateChat(firstName = 'Anna', lastName = 'Petrova'): FakeChat {
  chatCounter += 1;
  return {
    id: 500_000 + chatCounter,
    type: 'private',
    first_name: firstName,
    last_name: lastName,
    username: `user${chatCounter}`,
  };
}
function groupChat(title = 'Kitchen, Tverskaya'): FakeChat {
  chatCounter += 1;
  return { id: -(700_000 + chatCounter), type: 'group', title };
}
/** A group whose default sender (the one `write` uses) is one of its administrators. */
function adminsGroup(title?: string): FakeChat {
  const group = groupChat(title);
  telegram.fake.setChatMemberStatus(group, telegram.fake.senderIn(group).id, 'administrator');
  return group;
}

async function setup(options: { locale?: 'ru' | 'en' } = {}) {
  const org = await buildOrganisation(t.db, { locale: options.locale ?? 'en' });
  const admin = new TestClient(t.app);
  await admin.login(org.admin.email, org.admin.password);
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/integrations', { kind: 'telegram', name: 'Chat', ...body });
    expect(res.statusCode).toBe(201);
    return res.json<Created>();
  };
  return { org, admin, create };
}

const orgName = async (organisationId: number) =>
  (
    await t.db
      .selectFrom('organisations')
      .select('name')
      .where('id', '=', organisationId)
      .executeTakeFirstOrThrow()
  ).name;

const show = async (client: TestClient, id: number) =>
  (await client.get(`/api/integrations_show/${id}`)).json<{ data: Integration }>().data;

/** An integration bound to `chat` through the bot, as a person would bind it. */
async function bound(chat: FakeChat, options: { locale?: 'ru' | 'en' } = {}) {
  const ctx = await setup(options);
  const created = await ctx.create();
  telegram.fake.write(chat, `/start ${created.link.token}`);
  await telegram.fake.waitForMessage((m) => m.chatId === String(chat.id));
  await waitForStatus(created.data.id, 'active');
  // The bot's answer holds the chat for Telegram's second: move the time past it, as it would be
  // by the time a notification comes.
  await t.clock.advance(1_000);
  return { ...ctx, integration: created.data, link: created.link };
}

async function waitForStatus(integrationId: number, status: string, timeoutMs = 5_000) {
  const started = Date.now();
  for (;;) {
    const row = await t.db
      .selectFrom('integrations')
      .select('status')
      .where('id', '=', integrationId)
      .executeTakeFirst();
    if (row?.status === status) return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`integration ${integrationId} is ${row?.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A message for a bound chat, as the notifications' dispatcher writes it. */
async function queue(
  integration: { id: number },
  organisationId: number,
  chat: FakeChat,
  text: string,
  options: { nextAttemptAt?: string; attempts?: number } = {},
) {
  const now = new Date().toISOString();
  const row = await t.db
    .insertInto('telegram_outbox')
    .values({
      organisation_id: organisationId,
      integration_id: integration.id,
      chat_id: String(chat.id),
      text,
      status: 'pending',
      attempts: options.attempts ?? 0,
      next_attempt_at: options.nextAttemptAt ?? now,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const outboxRow = (id: number) =>
  t.db.selectFrom('telegram_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function waitForRow(id: number, status: string, timeoutMs = 5_000) {
  const started = Date.now();
  for (;;) {
    const row = await outboxRow(id);
    if (row.status === status) return row;
    if (Date.now() - started > timeoutMs) throw new Error(`outbox row ${id} is ${row.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function waitForAttempts(id: number, attempts: number, timeoutMs = 5_000) {
  const started = Date.now();
  for (;;) {
    const row = await outboxRow(id);
    if (row.attempts === attempts && row.status !== 'sending') return row;
    if (Date.now() - started > timeoutMs) throw new Error(`outbox row ${id} has ${row.attempts} attempts`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sendCallsTo = (chat: FakeChat) =>
  telegram.fake.callsOf('sendMessage').filter((call) => String(call.params.chat_id) === String(chat.id));

describe('binding a chat with the one-time link', () => {
  it('binds the chat that sends /start <token>; the bot answers there and the binding page shows it', async () => {
    const { admin, create } = await setup();
    const created = await create({ name: 'My phone' });
    const chat = privateChat('Anna', 'Petrova');
    telegram.fake.write(chat, `/start ${created.link.token}`);
    const answer = await telegram.fake.waitForMessage((m) => m.chatId === String(chat.id));
    expect(answer.text).toMatch(
      /^Done! Kontrol notifications for Admin \(Org [0-9a-f]+\) will come to this chat\.$/,
    );
    expect(answer.params.link_preview_options).toEqual({ is_disabled: true });
    await waitForStatus(created.data.id, 'active');

    const integration = await show(admin, created.data.id);
    expect(integration).toMatchObject({
      status: 'active',
      chat: { title: 'Anna Petrova', username: chat.username },
      link_expires_at: null,
    });
    expect(Date.parse(integration.bound_at ?? '')).toBeGreaterThan(Date.now() - 10_000);
    const binding = (await admin.get(`/api/integrations/telegram/${created.link.token}`)).json<Binding>();
    expect(binding.data).toEqual({
      integration_id: created.data.id,
      status: 'active',
      url: created.link.url,
      expires_at: null,
      chat: { title: 'Anna Petrova', username: chat.username },
    });
    const row = await t.db
      .selectFrom('integrations')
      .select('chat_id')
      .where('id', '=', created.data.id)
      .executeTakeFirstOrThrow();
    expect(row.chat_id).toBe(String(chat.id));
  });

  it('binds a group by its title and answers in the language of the user it is for', async () => {
    const { org, create } = await setup();
    const cook = await buildUser(t.db, org.organisationId, { locale: 'ru' });
    const created = await create({ user_id: cook.id });
    const group = adminsGroup('Кухня на Тверской');
    telegram.fake.write(group, `/start@${telegram.fake.botUsername} ${created.link.token}`, {
      language_code: 'en',
    });
    const answer = await telegram.fake.waitForMessage((m) => m.chatId === String(group.id));
    expect(answer.text).toMatch(
      /^Готово! Уведомления Kontrol для пользователя User \(Org [0-9a-f]+\) будут приходить в этот чат\.$/,
    );
    await waitForStatus(created.data.id, 'active');
    const row = await t.db
      .selectFrom('integrations')
      .select(['chat_title', 'chat_username'])
      .where('id', '=', created.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ chat_title: 'Кухня на Тверской', chat_username: null });
  });

  it('uses a token once: another chat gets a polite no and the binding stays; the same chat hears it is connected', async () => {
    const first = privateChat();
    const { admin, integration, link } = await bound(first);
    const second = privateChat('Boris', 'Ivanov');
    telegram.fake.write(second, `/start ${link.token}`);
    const refused = await telegram.fake.waitForMessage((m) => m.chatId === String(second.id));
    expect(refused.text).toBe(
      'This link is no longer valid: it has been used or has expired. Create a new Telegram integration in the Kontrol settings and open its link.',
    );
    telegram.fake.write(first, `/start ${link.token}`);
    await telegram.fake.waitUntil(
      () => telegram.fake.messagesTo(first.id).length === 2,
      5_000,
      'second answer',
    );
    expect(telegram.fake.messagesTo(first.id)[1]?.text).toBe(
      'This chat is already connected: Kontrol notifications for Admin come here.',
    );
    expect(await show(admin, integration.id)).toMatchObject({
      status: 'active',
      chat: { title: 'Anna Petrova' },
    });
  });

  it('refuses an expired link, answering in the sender’s language, and marks it expired', async () => {
    const { admin, create } = await setup();
    const created = await create();
    await t.db
      .updateTable('integrations')
      .set({ link_expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where('id', '=', created.data.id)
      .execute();
    const chat = privateChat();
    telegram.fake.write(chat, `/start ${created.link.token}`, { language_code: 'ru' });
    const answer = await telegram.fake.waitForMessage((m) => m.chatId === String(chat.id));
    expect(answer.text).toMatch(/^Эта ссылка больше не действует/);
    await waitForStatus(created.data.id, 'expired');
    const binding = (await admin.get(`/api/integrations/telegram/${created.link.token}`)).json<Binding>();
    expect(binding.data).toMatchObject({ status: 'expired', chat: null });
  });

  it('refuses an unknown token without binding anything', async () => {
    const chat = privateChat();
    telegram.fake.write(chat, `/start ${'Z'.repeat(32)}`);
    const answer = await telegram.fake.waitForMessage((m) => m.chatId === String(chat.id));
    expect(answer.text).toMatch(/^This link is no longer valid/);
    const rows = await t.db
      .selectFrom('integrations')
      .select('id')
      .where('chat_id', '=', String(chat.id))
      .execute();
    expect(rows).toEqual([]);
  });

  it('answers other messages in a private chat with a short help, and stays quiet in a group', async () => {
    const chat = privateChat();
    telegram.fake.write(chat, 'hello, bot');
    const help = await telegram.fake.waitForMessage((m) => m.chatId === String(chat.id));
    expect(help.text).toMatch(/^This is the Kontrol bot: it sends notifications/);

    const group = adminsGroup();
    telegram.fake.write(group, 'lunch at two?');
    telegram.fake.write(group, '/help@some_other_bot');
    telegram.fake.write(group, '/help');
    await telegram.fake.waitForMessage((m) => m.chatId === String(group.id));
    // The three updates are handled in order and confirmed once handled: only the last one,
    // addressed to no other bot, was answered.
    await telegram.fake.waitUntil(() => telegram.fake.unconfirmed === 0, 5_000, 'the updates handled');
    expect(telegram.fake.messagesTo(group.id)).toHaveLength(1);
  });

  it('in a group, obeys only its administrators: a member’s /start <token> binds nothing and leaves the link working', async () => {
    const { admin, create } = await setup();
    const created = await create();
    const group = groupChat('Staff chat');
    const member = { id: 4_200_001, first_name: 'Member' };
    const owner = { id: 4_200_002, first_name: 'Owner' };
    telegram.fake.setChatMemberStatus(group, owner.id, 'creator');
    telegram.fake.setChatMemberStatus(group, 4_200_003, 'restricted');

    telegram.fake.write(group, `/start@${telegram.fake.botUsername} ${created.link.token}`, member);
    const refused = await telegram.fake.waitForMessage((m) => m.chatId === String(group.id));
    expect(refused.text).toBe(
      'Only an administrator of this group can connect it to Kontrol: ask a group administrator to open the link.',
    );
    // The bot asked Telegram who sent it, in the Bot API's shape.
    const asked = telegram.fake.callsOf('getChatMember').at(-1);
    expect(asked?.params).toMatchObject({ chat_id: group.id, user_id: member.id });
    // Other commands of members, and of restricted people, get no answer at all.
    telegram.fake.write(group, `/help@${telegram.fake.botUsername}`, member);
    telegram.fake.write(group, '/start', { id: 4_200_003, first_name: 'Muted' });
    await telegram.fake.waitUntil(() => telegram.fake.callsOf('getChatMember').length >= 3, 5_000, 'lookups');
    await telegram.fake.waitUntil(() => telegram.fake.unconfirmed === 0, 5_000, 'the updates handled');
    expect(telegram.fake.messagesTo(group.id)).toHaveLength(1);
    expect((await show(admin, created.data.id)).status).toBe('pending');

    // The group's creator binds it with the same, still pending, link.
    telegram.fake.write(group, `/start@${telegram.fake.botUsername} ${created.link.token}`, owner);
    await telegram.fake.waitForMessage(
      (m) => m.chatId === String(group.id) && m.text.startsWith('Done! Kontrol notifications for Admin'),
    );
    await waitForStatus(created.data.id, 'active');
  });

  it('lets an anonymous administrator (posting as the group) bind it', async () => {
    const { create } = await setup();
    const created = await create();
    const group: FakeChat = { id: -(800_000 + chatCounter++), type: 'supergroup', title: 'Anonymous admins' };
    telegram.fake.pushUpdate({
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: group,
        sender_chat: group,
        from: { id: 1_087_968_824, is_bot: true, first_name: 'Group', username: 'GroupAnonymousBot' },
        text: `/start@${telegram.fake.botUsername} ${created.link.token}`,
      },
    } as Parameters<typeof telegram.fake.pushUpdate>[0]);
    await waitForStatus(created.data.id, 'active');
  });

  it("binds another organisation's token to that organisation only, in a chat already bound to one", async () => {
    const group = adminsGroup('Shared chat');
    const first = await bound(group);
    const second = await setup();
    const created = await second.create({ name: 'Second org' });
    telegram.fake.write(group, `/start ${created.link.token}`);
    const done = `Done! Kontrol notifications for Admin (${await orgName(second.org.organisationId)}) will come to this chat.`;
    await telegram.fake.waitForMessage((m) => m.chatId === String(group.id) && m.text === done);
    await waitForStatus(created.data.id, 'active');

    const rows = await t.db
      .selectFrom('integrations')
      .select(['id', 'organisation_id', 'user_id', 'status'])
      .where('chat_id', '=', String(group.id))
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        id: first.integration.id,
        organisation_id: first.org.organisationId,
        user_id: first.org.admin.id,
        status: 'active',
      },
      {
        id: created.data.id,
        organisation_id: second.org.organisationId,
        user_id: second.org.admin.id,
        status: 'active',
      },
    ]);
    // Each organisation sees its own binding only; the other's token reads as unknown.
    const firstList = (await first.admin.get('/api/integrations')).json<{ data: Integration[] }>().data;
    expect(firstList.map((integration) => integration.id)).toEqual([first.integration.id]);
    expect((await first.admin.get(`/api/integrations/telegram/${created.link.token}`)).statusCode).toBe(404);
    expect((await second.admin.get(`/api/integrations/telegram/${first.link.token}`)).statusCode).toBe(404);
  });

  it('sends names exactly as they are, as plain text: Telegram markup in them is not markup', async () => {
    const { org, create } = await setup();
    const markup = '*Anna* _Petrova_ [click](http://evil.test) <b>bold</b> `code`';
    const orgMarkup = 'Cafe <i>&amp;</i> *Bar*';
    // Stored before names refused links: the bot must still show them as they are.
    await t.db.updateTable('users').set({ name: markup }).where('id', '=', org.admin.id).execute();
    await t.db
      .updateTable('organisations')
      .set({ name: orgMarkup })
      .where('id', '=', org.organisationId)
      .execute();
    const created = await create();
    const chat = privateChat();
    telegram.fake.write(chat, `/start ${created.link.token}`);
    const answer = await telegram.fake.waitForMessage((m) => m.chatId === String(chat.id));
    expect(answer.text).toBe(
      `Done! Kontrol notifications for ${markup} (${orgMarkup}) will come to this chat.`,
    );
    expect(answer.params.parse_mode).toBeUndefined();
    expect(answer.params.entities).toBeUndefined();
    expect(answer.params.link_preview_options).toEqual({ is_disabled: true });
  });

  it('marks the integrations of a chat that blocks the bot (my_chat_member kicked) and skips their messages', async () => {
    const chat = privateChat();
    const { org, admin, integration } = await bound(chat);
    const pending = await queue(integration, org.organisationId, chat, 'later', {
      nextAttemptAt: new Date(t.clock.now() + 3_600_000).toISOString(),
    });
    telegram.fake.setMemberStatus(chat, 'kicked');
    await waitForStatus(integration.id, 'blocked');
    const shown = await show(admin, integration.id);
    expect(shown.last_error).toBe('Telegram: the user blocked the bot');
    expect((await outboxRow(pending)).status).toBe('skipped');
  });

  it('deletes a webhook that stops long polling, and goes on', async () => {
    telegram.fake.setWebhook('https://elsewhere.example/hook');
    // The next poll is refused (409: a webhook is active); the bot deletes the webhook.
    await telegram.fake.waitUntil(() => telegram.fake.webhookUrl === '', 5_000, 'deleteWebhook');
    expect(telegram.fake.callsOf('deleteWebhook')).toHaveLength(1);
    await bound(privateChat());
  });
});

describe('sending the outbox', () => {
  it('delivers a message as plain text without link previews, and records the delivery', async () => {
    const chat = privateChat();
    const { org, admin, integration } = await bound(chat);
    const text = 'Oven 3: current above the norm <b>not bold</b> & https://kontrol.test/account/devices/3';
    const id = await queue(integration, org.organisationId, chat, text);
    await t.app.telegram.drain();
    const row = await waitForRow(id, 'sent');
    expect(row).toMatchObject({ attempts: 1, last_error: null, locked_until: null });
    const delivered = telegram.fake.messagesTo(chat.id).at(-1);
    expect(delivered?.text).toBe(text);
    expect(delivered?.params.parse_mode).toBeUndefined();
    expect(delivered?.params.link_preview_options).toEqual({ is_disabled: true });
    expect((await show(admin, integration.id)).last_delivery_at).toBe(row.sent_at);
  });

  it('waits for a message due later (quiet hours)', async () => {
    const chat = privateChat();
    const { org, integration } = await bound(chat);
    const id = await queue(integration, org.organisationId, chat, 'in the morning', {
      nextAttemptAt: new Date(t.clock.now() + 3_600_000).toISOString(),
    });
    await t.app.telegram.drain();
    expect((await outboxRow(id)).status).toBe('pending');
    expect(telegram.fake.messagesTo(chat.id).map((m) => m.text)).not.toContain('in the morning');
  });

  it('sends at most one message a second to a chat, without holding up other chats', async () => {
    const busy = privateChat();
    const calm = privateChat();
    const a = await bound(busy);
    const b = await bound(calm);
    for (const text of ['one', 'two', 'three']) await queue(a.integration, a.org.organisationId, busy, text);
    await queue(b.integration, b.org.organisationId, calm, 'other chat');
    const drained = t.app.telegram.drain();
    const texts = () =>
      telegram.fake
        .messagesTo(busy.id)
        .slice(1)
        .map((m) => m.text);
    // The other chat is not held up; the busy one waits a second for each next message.
    await telegram.fake.waitForMessage((m) => m.text === 'other chat');
    for (const sent of [['one'], ['one', 'two']]) {
      await telegram.fake.waitUntil(() => texts().length === sent.length, 5_000, sent.join(', '));
      const wait = await t.clock.nextWait();
      expect(wait).toBeGreaterThan(900);
      expect(wait).toBeLessThanOrEqual(1_000);
      expect(texts()).toEqual(sent);
      await t.clock.advance(1_000);
    }
    await drained;
    expect(texts()).toEqual(['one', 'two', 'three']);
  });

  it('sends at most 25 messages a second in all', async () => {
    const { org } = await setup();
    const now = new Date().toISOString();
    const chats = Array.from({ length: 30 }, () => privateChat());
    for (const chat of chats) {
      // Bound chats as the bot leaves them (thirty /start round trips would only slow the test).
      const integration = await t.db
        .insertInto('integrations')
        .values({
          organisation_id: org.organisationId,
          kind: 'telegram',
          name: `Chat ${chat.id}`,
          user_id: org.admin.id,
          status: 'active',
          chat_id: String(chat.id),
          chat_title: 'Someone',
          bound_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await queue(integration, org.organisationId, chat, 'to everyone');
    }
    const drained = t.app.telegram.drain();
    const ids = new Set(chats.map((chat) => String(chat.id)));
    const delivered = () => telegram.fake.sent.filter((m) => ids.has(m.chatId)).length;
    // Twenty-five go; the twenty-sixth waits for the second of the first to pass.
    await telegram.fake.waitUntil(() => delivered() === 25, 5_000, 'twenty-five messages');
    const wait = await t.clock.nextWait();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1_000);
    expect(delivered()).toBe(25);
    await t.clock.advance(1_000);
    await drained;
    expect(delivered()).toBe(30);
  });

  it('honours a 429: waits retry_after before that chat’s next message, without counting an attempt', async () => {
    const chat = privateChat();
    const { org, integration } = await bound(chat);
    telegram.fake.failSends(chat.id, {
      error_code: 429,
      description: 'Too Many Requests: retry after 2',
      parameters: { retry_after: 2 },
    });
    const id = await queue(integration, org.organisationId, chat, 'after the limit');
    const refusedAt = t.clock.now();
    await t.app.telegram.drain();
    const waiting = await outboxRow(id);
    expect(waiting.status).toBe('pending');
    expect(Date.parse(waiting.next_attempt_at) - refusedAt).toBeGreaterThanOrEqual(2_000);
    expect(Date.parse(waiting.next_attempt_at) - refusedAt).toBeLessThan(3_000);
    const tries = () => sendCallsTo(chat).filter((call) => call.params.text === 'after the limit');
    expect(tries()).toHaveLength(1);
    // A round a second later leaves it waiting; one at two seconds sends it.
    await t.clock.advance(1_000);
    await t.app.telegram.drain();
    expect(tries()).toHaveLength(1);
    await t.clock.advance(1_000);
    await t.app.telegram.drain();
    expect(await waitForRow(id, 'sent')).toMatchObject({ attempts: 1 });
    expect(tries()).toHaveLength(2);
  });

  it('retries a network error or 5xx with back-off, and gives up after the last attempt', async () => {
    const chat = privateChat();
    const { org, integration } = await bound(chat);
    telegram.fake.failSends(chat.id, 'disconnect', { error_code: 502, description: 'Bad Gateway' });
    const id = await queue(integration, org.organisationId, chat, 'flaky');
    const makeDue = () =>
      t.db
        .updateTable('telegram_outbox')
        .set({ next_attempt_at: new Date(t.clock.now() - 1_000).toISOString() })
        .where('id', '=', id)
        .execute();
    const before = t.clock.now();
    await t.app.telegram.drain();
    const dropped = await outboxRow(id);
    expect(dropped).toMatchObject({ status: 'pending', attempts: 1 });
    expect(dropped.last_error).toMatch(/sendMessage/);
    const wait = Date.parse(dropped.next_attempt_at) - before;
    expect(wait).toBeGreaterThanOrEqual(29_000);
    expect(wait).toBeLessThanOrEqual(35_000);

    // Due again (and past the chat's second after the attempt): a 5xx, and the wait doubles.
    await makeDue();
    await t.clock.advance(1_000);
    await t.app.telegram.drain();
    // The binding answer, the dropped send, then the 5xx.
    await telegram.fake.waitUntil(() => sendCallsTo(chat).length >= 3, 5_000, 'the second attempt');
    const failed = await waitForAttempts(id, 2);
    expect(failed).toMatchObject({ status: 'pending', last_error: 'Bad Gateway' });
    const afterSecond = t.clock.now();
    expect(Date.parse(failed.next_attempt_at) - afterSecond).toBeGreaterThanOrEqual(55_000);
    expect(Date.parse(failed.next_attempt_at) - afterSecond).toBeLessThanOrEqual(60_000);

    // Due again: the next attempt goes through.
    await makeDue();
    await t.clock.advance(1_000);
    await t.app.telegram.drain();
    expect(await waitForRow(id, 'sent')).toMatchObject({ attempts: 3 });

    // A message that already failed all but once fails for good.
    await t.clock.advance(1_000);
    telegram.fake.failSends(chat.id, { error_code: 500, description: 'Internal Server Error' });
    const last = await queue(integration, org.organisationId, chat, 'doomed', {
      attempts: TELEGRAM_MAX_ATTEMPTS - 1,
    });
    await t.app.telegram.drain();
    expect(await waitForRow(last, 'failed')).toMatchObject({
      attempts: TELEGRAM_MAX_ATTEMPTS,
      last_error: 'Internal Server Error',
    });
  });

  it('blocks the integration of a chat that blocked the bot (403) and skips its other messages', async () => {
    const chat = privateChat();
    const { org, admin, integration } = await bound(chat);
    const other = privateChat();
    const fine = await bound(other);
    telegram.fake.block(chat.id);
    const callsBefore = sendCallsTo(chat).length;
    const ids = [
      await queue(integration, org.organisationId, chat, 'first'),
      await queue(integration, org.organisationId, chat, 'second'),
      await queue(integration, org.organisationId, chat, 'third'),
    ];
    const unaffected = await queue(fine.integration, fine.org.organisationId, other, 'still delivered');
    await t.app.telegram.drain();
    await waitForStatus(integration.id, 'blocked');
    const shown = await show(admin, integration.id);
    expect(shown.last_error).toBe('Forbidden: bot was blocked by the user');
    const blockedAt = await t.db
      .selectFrom('integrations')
      .select('blocked_at')
      .where('id', '=', integration.id)
      .executeTakeFirstOrThrow();
    expect(blockedAt.blocked_at).not.toBeNull();
    for (const id of ids) expect((await outboxRow(id)).status).toBe('skipped');
    expect(sendCallsTo(chat).length - callsBefore).toBe(1);
    expect((await waitForRow(unaffected, 'sent')).status).toBe('sent');

    // Nothing more goes to it, once its second after the refused send has passed.
    const later = await queue(integration, org.organisationId, chat, 'after the block');
    await t.clock.advance(1_000);
    await t.app.telegram.drain();
    expect((await outboxRow(later)).status).toBe('skipped');
    expect(sendCallsTo(chat).length - callsBefore).toBe(1);
  });

  it('blocks the integration of a chat that is gone (400 chat not found)', async () => {
    const chat = adminsGroup();
    const { org, integration } = await bound(chat);
    telegram.fake.failSends(chat.id, { error_code: 400, description: 'Bad Request: chat not found' });
    const id = await queue(integration, org.organisationId, chat, 'into the void');
    await t.app.telegram.drain();
    await waitForStatus(integration.id, 'blocked');
    expect((await outboxRow(id)).status).toBe('skipped');
  });

  it('follows a group that became a supergroup to its new chat id', async () => {
    const chat = adminsGroup();
    const { org, integration } = await bound(chat);
    const supergroup = -1_000_000_000_000 + chat.id;
    telegram.fake.failSends(chat.id, {
      error_code: 400,
      description: 'Bad Request: group chat was upgraded to a supergroup chat',
      parameters: { migrate_to_chat_id: supergroup },
    });
    const id = await queue(integration, org.organisationId, chat, 'to the supergroup');
    await t.app.telegram.drain();
    await waitForRow(id, 'sent');
    expect(telegram.fake.messagesTo(supergroup).map((m) => m.text)).toEqual(['to the supergroup']);
    const row = await t.db
      .selectFrom('integrations')
      .select(['chat_id', 'status'])
      .where('id', '=', integration.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ chat_id: String(supergroup), status: 'active' });
  });

  it('skips messages of an integration that is not active, without calling Telegram', async () => {
    const { org, create } = await setup();
    const pending = await create();
    const chat = privateChat();
    const id = await queue(pending.data, org.organisationId, chat, 'nobody there');
    await t.app.telegram.drain();
    expect(await outboxRow(id)).toMatchObject({
      status: 'skipped',
      last_error: 'the integration is pending',
    });
    expect(sendCallsTo(chat)).toEqual([]);
  });

  it('cuts a text longer than Telegram takes instead of failing it', async () => {
    const chat = privateChat();
    const { org, integration } = await bound(chat);
    const id = await queue(integration, org.organisationId, chat, 'x'.repeat(5_000));
    await t.app.telegram.drain();
    await waitForRow(id, 'sent');
    const text = telegram.fake.messagesTo(chat.id).at(-1)?.text ?? '';
    expect(text).toHaveLength(4096);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('one poller per deployment', () => {
  // Last in the file: it stops this file's bot and hands its lease to other instances.
  it('lets a second API process on the same database wait for the lease, then take over', async () => {
    const leaseHolder = async () =>
      (await t.db.selectFrom('job_leases').selectAll().where('name', '=', BOT_LEASE).executeTakeFirst())
        ?.holder;
    /** Another API process: its own app and connection to this file's database. */
    const otherProcess = async () => {
      const database = createDb(t.config.databaseUrl, { poolMax: 3 });
      const { app } = await buildAllInOneApp({ config: t.config, database, logger: false });
      await app.ready();
      app.telegram.start(FAST);
      return {
        app,
        close: async () => {
          await app.close();
          await database.close();
        },
      };
    };
    const bindThroughTheBot = async () => {
      const { create } = await setup();
      const created = await create();
      telegram.fake.write(privateChat(), `/start ${created.link.token}`);
      await waitForStatus(created.data.id, 'active', 8_000);
    };

    const second = await otherProcess();
    try {
      // Several long polls of the first process come and go while the second waits.
      const pollsBefore = telegram.fake.callsOf('getUpdates').length;
      await telegram.fake.waitUntil(
        () => telegram.fake.callsOf('getUpdates').length >= pollsBefore + 2,
        6_000,
        'two more polls',
      );
      expect(telegram.fake.maxConcurrentPolls).toBe(1);
      expect(telegram.fake.conflicts).toBe(0);
      const firstHolder = await leaseHolder();
      expect(firstHolder).toBeDefined();

      // The first process stops cleanly and gives the lease up; the second takes over.
      await t.app.telegram.stop();
      await bindThroughTheBot();
      const secondHolder = await leaseHolder();
      expect(secondHolder).toBeDefined();
      expect(secondHolder).not.toBe(firstHolder);
      expect(telegram.fake.maxConcurrentPolls).toBe(1);
      expect(telegram.fake.conflicts).toBe(0);
    } finally {
      await second.close();
    }

    // A holder that died without giving the lease up is replaced once its lease has expired.
    await t.db
      .insertInto('job_leases')
      .values({
        name: BOT_LEASE,
        holder: 'dead-process',
        expires_at: new Date(Date.now() - 1_000).toISOString(),
      })
      .execute();
    const third = await otherProcess();
    try {
      await bindThroughTheBot();
      expect(await leaseHolder()).not.toBe('dead-process');
    } finally {
      await third.close();
    }
    expect(await leaseHolder()).toBeUndefined();
  });
});

describe('settings', () => {
  it('reads TELEGRAM_BOT_TOKEN and TELEGRAM_API_ROOT, refusing a malformed token', () => {
    expect(loadConfig({})).toMatchObject({
      telegramBotToken: undefined,
      telegramApiRoot: 'https://api.telegram.org',
    });
    expect(
      loadConfig({
        TELEGRAM_BOT_TOKEN: '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11',
        TELEGRAM_API_ROOT: 'http://bot-api:8081/',
      }),
    ).toMatchObject({
      telegramBotToken: '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11',
      telegramApiRoot: 'http://bot-api:8081',
    });
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: 'not a token' })).toThrow(ConfigError);
    expect(() => loadConfig({ TELEGRAM_API_ROOT: 'ftp://bot-api' })).toThrow(ConfigError);
  });
});
