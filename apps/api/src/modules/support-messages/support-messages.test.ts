import { translate, type SupportMessage } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { SUPPORT_MESSAGES_PER_MINUTE } from './support-messages.routes.js';
import { replyAsSupport } from './support-messages.service.js';

const t = useTestApp();

type Errors = { message: string; errors: Record<string, string[]> };
interface Page {
  data: SupportMessage[];
  meta: { current_page: number; last_page: number; per_page: number; total: number; unread: number };
}

/** An organisation with its admin signed in, and a user with no module at all signed in too. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const admin = new TestClient(t.app);
  await admin.login(org.admin.email, org.admin.password);
  const plain = await buildUser(t.db, org.organisationId);
  const colleague = new TestClient(t.app);
  await colleague.login(plain.email, plain.password);
  const write = async (client: TestClient, text: string) => {
    const res = await client.post('/api/messages', { text });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: SupportMessage }>().data;
  };
  const page = async (client: TestClient, query = '?page=1') => {
    const res = await client.get(`/api/messages/${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };
  const reply = (text: string, name = 'Anna from support') =>
    replyAsSupport(t.db, { organisationId: org.organisationId, text, name });
  return { ...org, admin, plain, colleague, write, page, reply };
}

describe('the support conversation', () => {
  it('lets every signed-in user of the organisation write, signed with their name: 201', async () => {
    const { admin, colleague, plain, write, page } = await setup();
    const first = await write(colleague, '  The invoice for May is missing ');
    expect(first).toMatchObject({
      text: 'The invoice for May is missing',
      from: 'organisation',
      author: { id: plain.id, name: 'User' },
      read_at: null,
    });
    expect(Date.parse(first.created_at)).not.toBeNaN();
    const second = await write(admin, 'Also the act');
    // Both see the whole conversation, newest first.
    for (const client of [admin, colleague]) {
      const shown = await page(client);
      expect(shown.data.map((m) => m.id)).toEqual([second.id, first.id]);
      expect(shown.meta).toMatchObject({ total: 2, unread: 0 });
    }
  });

  it("pages newest first and counts support's unread messages in meta.unread", async () => {
    const { admin, write, page, reply } = await setup();
    const ids: number[] = [];
    for (let i = 1; i <= 3; i += 1) ids.push((await write(admin, `Question ${i}`)).id);
    const answer = await reply('We are looking into it');
    expect(answer.message).toMatchObject({
      from: 'support',
      author: { id: null, name: 'Anna from support' },
      read_at: null,
    });
    const first = await page(admin, '?page=1&per_page=2');
    expect(first.data.map((m) => m.id)).toEqual([answer.message.id, ids[2]]);
    expect(first.meta).toMatchObject({ current_page: 1, last_page: 2, total: 4, unread: 1 });
    // Support has read the organisation's messages by the time it answers.
    expect(first.data[1]?.read_at).not.toBeNull();
    const second = await page(admin, '?page=2&per_page=2');
    expect(second.data.map((m) => m.id)).toEqual([ids[1], ids[0]]);
  });

  it("marks support's messages read, all or up to an id, for the whole organisation", async () => {
    const { admin, colleague, page, reply } = await setup();
    const a = await reply('One');
    const b = await reply('Two');
    expect((await colleague.get('/api/messages/unread')).json()).toEqual({ data: { unread: 2 } });
    const partly = await admin.post('/api/messages/read', { up_to_id: a.message.id });
    expect(partly.statusCode).toBe(200);
    expect(partly.json()).toEqual({ data: { unread: 1 } });
    const shown = await page(colleague);
    expect(shown.meta.unread).toBe(1);
    expect(shown.data.find((m) => m.id === a.message.id)?.read_at).not.toBeNull();
    expect(shown.data.find((m) => m.id === b.message.id)?.read_at).toBeNull();
    expect((await colleague.post('/api/messages/read', {})).json()).toEqual({ data: { unread: 0 } });
    expect((await admin.get('/api/messages/unread')).json()).toEqual({ data: { unread: 0 } });
  });

  it('refuses an empty or too long message (422 on text)', async () => {
    const { admin } = await setup();
    const empty = await admin.post('/api/messages', { text: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json<Errors>().errors).toEqual({ text: [translate('en', 'field.required')] });
    const long = await admin.post('/api/messages', { text: 'x'.repeat(4001) });
    expect(long.statusCode).toBe(422);
    expect(long.json<Errors>().errors).toEqual({
      text: [translate('en', 'field.string_max', { max: 4000 })],
    });
  });

  it("never shows, counts or marks another organisation's conversation", async () => {
    const mine = await setup();
    const theirs = await setup();
    await theirs.write(theirs.admin, 'Their question');
    const answer = await theirs.reply('Their answer');
    await mine.write(mine.admin, 'My question');
    const shown = await mine.page(mine.admin);
    expect(shown.data.map((m) => m.text)).toEqual(['My question']);
    expect(shown.meta).toMatchObject({ total: 1, unread: 0 });
    expect((await mine.admin.post('/api/messages/read', { up_to_id: answer.message.id })).json()).toEqual({
      data: { unread: 0 },
    });
    expect((await theirs.admin.get('/api/messages/unread')).json()).toEqual({ data: { unread: 1 } });
  });

  it('limits how often one user writes: 429 past the limit, colleagues unaffected', async () => {
    const { admin, colleague } = await setup();
    for (let i = 0; i < SUPPORT_MESSAGES_PER_MINUTE; i += 1) {
      expect((await admin.post('/api/messages', { text: `Message ${i}` })).statusCode).toBe(201);
    }
    const limited = await admin.post('/api/messages', { text: 'One more' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await colleague.post('/api/messages', { text: 'Mine' })).statusCode).toBe(201);
  });

  it('answers 401 without a session and 419 without the CSRF token', async () => {
    const { admin } = await setup();
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get('/api/messages/?page=1')).statusCode).toBe(401);
    expect((await anonymous.get('/api/messages/unread')).statusCode).toBe(401);
    admin.sendXsrf = false;
    expect((await admin.post('/api/messages', { text: 'Hi' })).statusCode).toBe(419);
  });
});
