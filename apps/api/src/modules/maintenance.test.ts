import { describe, expect, it } from 'vitest';
import { sha256 } from '../lib/crypto.js';
import { buildOrganisation } from '../test/builders.js';
import { useTestApp } from '../test/test-app.js';
import { purgeExpired } from './maintenance.js';

const t = useTestApp();

describe('purgeExpired', () => {
  it('removes expired sessions, tokens and rate-limit windows, and keeps live ones', async () => {
    const db = t.db;
    const org = await buildOrganisation(db);
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const session = (id: string, expires: string) => ({
      id: sha256(id),
      user_id: org.admin.id,
      csrf_token: 'x',
      remember: 0,
      ip: null,
      user_agent: null,
      created_at: past,
      last_activity_at: past,
      expires_at: expires,
    });
    await db
      .insertInto('sessions')
      .values([session('old', past), session('live', future)])
      .execute();
    const token = (hash: string, expires: string) => ({
      user_id: org.admin.id,
      purpose: 'password_reset' as const,
      token_hash: sha256(hash),
      expires_at: expires,
      used_at: null,
      created_at: past,
    });
    await db
      .insertInto('user_tokens')
      .values([token('old', past), token('live', future)])
      .execute();
    await db
      .insertInto('rate_limits')
      .values([
        { key: 'old', hits: 3, reset_at: Date.now() - 1000 },
        { key: 'live', hits: 3, reset_at: Date.now() + 60_000 },
      ])
      .execute();

    await purgeExpired(t.app);

    const sessions = await db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', org.admin.id)
      .execute();
    expect(sessions.map((s) => s.id)).toEqual([sha256('live')]);
    const tokens = await db
      .selectFrom('user_tokens')
      .select('token_hash')
      .where('user_id', '=', org.admin.id)
      .execute();
    expect(tokens.map((r) => r.token_hash)).toEqual([sha256('live')]);
    const limits = await db
      .selectFrom('rate_limits')
      .select('key')
      .where('key', 'in', ['old', 'live'])
      .execute();
    expect(limits.map((r) => r.key)).toEqual(['live']);
  });
});
