import {
  TELEGRAM_LINK_TOKEN,
  TELEGRAM_LINK_TTL_MINUTES,
  type Integration,
  type integrationCreatedSchema,
  type integrationsListSchema,
  type telegramBindingSchema,
} from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { sha256 } from '../../lib/crypto.js';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { useFakeTelegram } from '../../test/fake-telegram.js';
import { TestClient } from '../../test/http-client.js';
import { buildTestApp, useTestApp } from '../../test/test-app.js';

const telegram = useFakeTelegram();
const t = useTestApp({ env: telegram.env });

type Created = z.infer<typeof integrationCreatedSchema>;
type List = z.infer<typeof integrationsListSchema>;
type Binding = z.infer<typeof telegramBindingSchema>;
type Errors = { message: string; errors: Record<string, string[]> };

/** An organisation and its admin, signed in. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const admin = new TestClient(t.app);
  await admin.login(org.admin.email, org.admin.password);
  const create = async (body: Record<string, unknown> = { kind: 'telegram', name: 'Kitchen chat' }) => {
    const res = await admin.post('/api/integrations', body);
    expect(res.statusCode).toBe(201);
    return res.json<Created>();
  };
  return { org, admin, create };
}

async function signIn(user: { email: string; password: string }) {
  const client = new TestClient(t.app);
  await client.login(user.email, user.password);
  return client;
}

/** A message for the integration's chat, as the notifications' dispatcher writes it. */
async function queueMessage(integrationId: number, organisationId: number) {
  const now = new Date().toISOString();
  await t.db
    .insertInto('telegram_outbox')
    .values({
      organisation_id: organisationId,
      integration_id: integrationId,
      chat_id: '42',
      text: 'hello',
      status: 'pending',
      next_attempt_at: now,
      created_at: now,
    })
    .execute();
}

describe('POST /api/integrations', () => {
  it('creates a pending Telegram integration for the caller with a one-time link: 201', async () => {
    const { org, create } = await setup();
    const before = Date.now();
    const created = await create({ kind: 'telegram', name: '  Kitchen chat ' });
    expect(created.data).toMatchObject({
      kind: 'telegram',
      name: 'Kitchen chat',
      status: 'pending',
      user: { id: org.admin.id, name: 'Admin' },
      chat: null,
      bound_at: null,
      last_delivery_at: null,
      last_error: null,
    });
    const { token, url, expires_at: expiresAt } = created.link;
    expect(token).toMatch(TELEGRAM_LINK_TOKEN);
    expect(token).toHaveLength(32);
    expect(url).toBe(`https://t.me/${telegram.fake.botUsername}?start=${token}`);
    expect(created.data.link_expires_at).toBe(expiresAt);
    const ttl = Date.parse(expiresAt) - before;
    expect(ttl).toBeGreaterThanOrEqual(TELEGRAM_LINK_TTL_MINUTES * 60_000 - 1_000);
    expect(ttl).toBeLessThanOrEqual(TELEGRAM_LINK_TTL_MINUTES * 60_000 + 5_000);
  });

  it('keeps only the hash of the token, never the token itself', async () => {
    const { create } = await setup();
    const { data, link } = await create();
    const row = await t.db
      .selectFrom('integrations')
      .selectAll()
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(row.link_token_hash).toBe(sha256(link.token));
    expect(JSON.stringify(row)).not.toContain(link.token);
  });

  it('gives every integration a link of its own', async () => {
    const { create } = await setup();
    const [a, b] = [await create(), await create()];
    expect(a.link.token).not.toBe(b.link.token);
  });

  it('creates one for another active user of the organisation', async () => {
    const { org, create } = await setup();
    const colleague = await buildUser(t.db, org.organisationId);
    const created = await create({ kind: 'telegram', name: 'For a colleague', user_id: colleague.id });
    expect(created.data.user).toEqual({ id: colleague.id, name: 'User' });
  });

  it('refuses a user of another organisation, a disabled one or none at all: 422 on user_id', async () => {
    const { org, admin } = await setup();
    const other = await buildOrganisation(t.db);
    const disabled = await buildUser(t.db, org.organisationId);
    await t.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', disabled.id)
      .execute();
    for (const userId of [other.admin.id, disabled.id, 999_999]) {
      const res = await admin.post('/api/integrations', { kind: 'telegram', name: 'X', user_id: userId });
      expect(res.statusCode).toBe(422);
      expect(res.json<Errors>().errors).toEqual({ user_id: ['Choose an active user of your organisation.'] });
    }
    const list = (await admin.get('/api/integrations')).json<List>();
    expect(list.data).toEqual([]);
  });

  it('validates the body: 422 on kind and name', async () => {
    const { admin } = await setup();
    const res = await admin.post('/api/integrations', { kind: 'slack', name: '' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<Errors>().errors).sort()).toEqual(['kind', 'name']);
    const long = await admin.post('/api/integrations', { kind: 'telegram', name: 'x'.repeat(121) });
    expect(long.statusCode).toBe(422);
    expect(Object.keys(long.json<Errors>().errors)).toEqual(['name']);
  });

  it('is for admins only: a regular user holding settings gets 403 and nothing is created', async () => {
    const { org, create } = await setup();
    const existing = await create();
    const regular = await buildUser(t.db, org.organisationId, { modules: ['settings'] });
    const client = await signIn(regular);
    const res = await client.post('/api/integrations', { kind: 'telegram', name: 'Mine' });
    expect(res.statusCode).toBe(403);
    const list = (await client.get('/api/integrations')).json<List>();
    expect(list.data.map((i) => i.id)).toEqual([existing.data.id]);
    expect((await client.delete(`/api/integrations/${existing.data.id}`)).statusCode).toBe(403);
    expect((await client.get(`/api/integrations_show/${existing.data.id}`)).statusCode).toBe(200);
  });

  it('needs the settings module to read: 403 without it', async () => {
    const { org, create } = await setup();
    const { data, link } = await create();
    const outsider = await signIn(await buildUser(t.db, org.organisationId, { modules: ['devices'] }));
    expect((await outsider.get('/api/integrations')).statusCode).toBe(403);
    expect((await outsider.get(`/api/integrations_show/${data.id}`)).statusCode).toBe(403);
    expect((await outsider.get(`/api/integrations/telegram/${link.token}`)).statusCode).toBe(403);
  });

  it('asks for a session: 401 for a visitor', async () => {
    const visitor = await TestClient.visitor(t.app);
    expect((await visitor.get('/api/integrations')).statusCode).toBe(401);
    expect((await visitor.post('/api/integrations', { kind: 'telegram', name: 'X' })).statusCode).toBe(401);
  });
});

describe('GET /api/integrations and /api/integrations_show/{id}', () => {
  it("lists the organisation's integrations, newest first, with the bot's name", async () => {
    const { admin, create } = await setup();
    const first = await create({ kind: 'telegram', name: 'First' });
    const second = await create({ kind: 'telegram', name: 'Second' });
    const res = await admin.get('/api/integrations');
    expect(res.statusCode).toBe(200);
    const list = res.json<List>();
    expect(list.meta).toEqual({ telegram: { configured: true, bot_username: telegram.fake.botUsername } });
    expect(list.data.map((i) => i.name)).toEqual(['Second', 'First']);
    expect(list.data[1]).toEqual(first.data);
    const shown = await admin.get(`/api/integrations_show/${second.data.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json<{ data: Integration }>().data).toEqual(second.data);
  });

  it('shows a pending integration whose link ran out as expired, and stores it so', async () => {
    const { admin, create } = await setup();
    const { data } = await create();
    await t.db
      .updateTable('integrations')
      .set({ link_expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where('id', '=', data.id)
      .execute();
    const shown = (await admin.get(`/api/integrations_show/${data.id}`)).json<{ data: Integration }>().data;
    expect(shown.status).toBe('expired');
    const row = await t.db
      .selectFrom('integrations')
      .select('status')
      .where('id', '=', data.id)
      .executeTakeFirst();
    expect(row?.status).toBe('expired');
  });

  it("never shows another organisation's integration: 404, and absent from the list", async () => {
    const { admin, create } = await setup();
    const mine = await create();
    const other = await setup();
    const theirs = await other.create();
    expect((await admin.get(`/api/integrations_show/${theirs.data.id}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/integrations/telegram/${theirs.link.token}`)).statusCode).toBe(404);
    const list = (await admin.get('/api/integrations')).json<List>();
    expect(list.data.map((i) => i.id)).toEqual([mine.data.id]);
  });

  it('answers 404 for an integration that does not exist', async () => {
    const { admin } = await setup();
    expect((await admin.get('/api/integrations_show/999999')).statusCode).toBe(404);
  });
});

describe('DELETE /api/integrations/{id}', () => {
  it('deletes an integration and its unsent messages: 204, then 404', async () => {
    const { org, admin, create } = await setup();
    const { data } = await create();
    await queueMessage(data.id, org.organisationId);
    const res = await admin.delete(`/api/integrations/${data.id}`);
    expect(res.statusCode).toBe(204);
    expect((await admin.get(`/api/integrations_show/${data.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/integrations/${data.id}`)).statusCode).toBe(404);
    const rows = await t.db
      .selectFrom('telegram_outbox')
      .select('id')
      .where('integration_id', '=', data.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it("cannot delete another organisation's integration: 404, and it stays", async () => {
    const { admin } = await setup();
    const other = await setup();
    const theirs = await other.create();
    expect((await admin.delete(`/api/integrations/${theirs.data.id}`)).statusCode).toBe(404);
    expect((await other.admin.get(`/api/integrations_show/${theirs.data.id}`)).statusCode).toBe(200);
  });
});

describe('GET /api/integrations/telegram/{token}', () => {
  it('shows a pending binding with its link and expiry', async () => {
    const { admin, create } = await setup();
    const { data, link } = await create();
    const res = await admin.get(`/api/integrations/telegram/${link.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<Binding>()).toEqual({
      data: {
        integration_id: data.id,
        status: 'pending',
        url: link.url,
        expires_at: link.expires_at,
        chat: null,
      },
    });
  });

  it('reports a binding past its expiry as expired and stores it so', async () => {
    const { admin, create } = await setup();
    const { data, link } = await create();
    await t.db
      .updateTable('integrations')
      .set({ link_expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where('id', '=', data.id)
      .execute();
    const binding = (await admin.get(`/api/integrations/telegram/${link.token}`)).json<Binding>();
    expect(binding.data.status).toBe('expired');
    const row = await t.db
      .selectFrom('integrations')
      .select('status')
      .where('id', '=', data.id)
      .executeTakeFirst();
    expect(row?.status).toBe('expired');
  });

  it('answers 404 for an unknown or malformed token', async () => {
    const { admin } = await setup();
    expect((await admin.get(`/api/integrations/telegram/${'a'.repeat(32)}`)).statusCode).toBe(404);
    expect((await admin.get('/api/integrations/telegram/short')).statusCode).toBe(404);
    expect((await admin.get(`/api/integrations/telegram/${'%24'.repeat(20)}`)).statusCode).toBe(404);
  });
});

describe('a server without a Telegram bot', () => {
  it('says so in the list and refuses a Telegram integration: 422 on kind', async () => {
    const bare = await buildTestApp();
    try {
      const org = await buildOrganisation(bare.database.handle.db);
      const admin = new TestClient(bare.app);
      await admin.login(org.admin.email, org.admin.password);
      const list = (await admin.get('/api/integrations')).json<List>();
      expect(list.meta).toEqual({ telegram: { configured: false, bot_username: null } });
      const res = await admin.post('/api/integrations', { kind: 'telegram', name: 'Chat' });
      expect(res.statusCode).toBe(422);
      expect(res.json<Errors>().errors).toEqual({
        kind: [
          'This server has no Telegram bot configured (TELEGRAM_BOT_TOKEN), so a Telegram integration cannot be created.',
        ],
      });
    } finally {
      await bare.close();
    }
  });
});

describe('a bot that Telegram does not answer', () => {
  it('cannot give a link: 503 and nothing is created; the list still answers, without the name', async () => {
    // A token the Bot API refuses (401): getMe fails as it would with Telegram out of reach.
    const refused = await buildTestApp({
      TELEGRAM_BOT_TOKEN: '123456:a-token-telegram-does-not-know',
      TELEGRAM_API_ROOT: telegram.fake.apiRoot,
    });
    try {
      const org = await buildOrganisation(refused.database.handle.db);
      const admin = new TestClient(refused.app);
      await admin.login(org.admin.email, org.admin.password);
      const res = await admin.post('/api/integrations', { kind: 'telegram', name: 'Chat' });
      expect(res.statusCode).toBe(503);
      const list = (await admin.get('/api/integrations')).json<List>();
      expect(list).toEqual({ data: [], meta: { telegram: { configured: true, bot_username: null } } });
    } finally {
      await refused.close();
    }
  });
});
