import type { SupportMessage } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli.js';
import { buildOrganisation } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

/** Runs the operator tool against the test database and captures what it prints. */
async function kontrol(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: { DATABASE_URL: t.database.url, APP_URL: 'http://kontrol.test', LOG_LEVEL: 'silent' },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function organisation(name: string) {
  const org = await buildOrganisation(t.db, { name });
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  const write = async (text: string) => {
    const res = await client.post('/api/messages', { text });
    expect(res.statusCode).toBe(201);
    return res.json<{ data: SupportMessage }>().data;
  };
  const conversation = async () =>
    (await client.get('/api/messages/?page=1')).json<{ data: SupportMessage[]; meta: { unread: number } }>();
  return { ...org, client, write, conversation };
}

describe('npm run kontrol -- support:*', () => {
  it('lists the support commands in the help', async () => {
    const help = await kontrol('help');
    expect(help.out).toContain('support:reply');
    expect(help.out).toContain('support:inbox');
  });

  it('support:reply answers the organisation, signed, and marks its messages read', async () => {
    const bakery = await organisation('Bakery');
    const question = await bakery.write('Where is my invoice?');
    const result = await kontrol(
      'support:reply',
      '--org',
      String(bakery.organisationId),
      '--text',
      'Sent it again',
    );
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(
      new RegExp(
        `^Reply \\d+ sent to organisation ${bakery.organisationId} as "Поддержка Kontrol"; 1 of its messages marked read\\.$`,
      ),
    );
    const { data, meta } = await bakery.conversation();
    expect(meta.unread).toBe(1);
    expect(data[0]).toMatchObject({
      text: 'Sent it again',
      from: 'support',
      author: { id: null, name: 'Поддержка Kontrol' },
      read_at: null,
    });
    expect(data.find((m) => m.id === question.id)?.read_at).not.toBeNull();

    const signed = await kontrol(
      'support:reply',
      '--org',
      String(bakery.organisationId),
      '--text',
      'Hi',
      '--name',
      'Anna',
    );
    expect(signed.code).toBe(0);
    expect((await bakery.conversation()).data[0]?.author).toEqual({ id: null, name: 'Anna' });
  });

  it('support:reply explains what is missing or wrong, and writes nothing', async () => {
    const bakery = await organisation('Bakery');
    const org = String(bakery.organisationId);
    expect((await kontrol('support:reply', '--org', org)).err).toContain('--text is required');
    expect((await kontrol('support:reply', '--text', 'Hi')).err).toContain('--org is required');
    const unknown = await kontrol('support:reply', '--org', '999999999', '--text', 'Hi');
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.err).toContain('no organisation has that id');
    const long = await kontrol('support:reply', '--org', org, '--text', 'x'.repeat(4001));
    expect(long.code).toBe(2);
    expect(long.err).toContain('--text must be 1 to 4000 characters');
    expect((await bakery.conversation()).data).toEqual([]);
  });

  it('support:inbox prints the unread messages oldest first, once, of one organisation or of all', async () => {
    const bakery = await organisation('Bakery');
    const diner = await organisation('Diner');
    const first = await bakery.write('First question');
    const second = await bakery.write('Second\nline two');
    const theirs = await diner.write('Diner question');

    const one = await kontrol('support:inbox', '--org', String(bakery.organisationId));
    expect(one.code, one.err).toBe(0);
    const lines = one.out.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^#${first.id} \\S+ organisation ${bakery.organisationId} \\(Bakery\\), Admin:$`),
    );
    expect(lines[1]).toBe('  First question');
    expect(lines[2]).toMatch(new RegExp(`^#${second.id} `));
    expect(lines.slice(3, 5)).toEqual(['  Second', '  line two']);
    expect(lines[5]).toBe('2 message(s) marked read.');
    expect(one.out).not.toContain('Diner');
    expect((await bakery.conversation()).data.every((m) => m.read_at !== null)).toBe(true);
    expect((await diner.conversation()).data[0]?.read_at).toBeNull();

    expect((await kontrol('support:inbox', '--org', String(bakery.organisationId))).out).toBe(
      'No unread messages.',
    );
    const all = await kontrol('support:inbox');
    expect(all.out).toContain(`#${theirs.id} `);
    expect(all.out).toContain('Diner question');
    expect(all.out).not.toContain('First question');
  });
});
