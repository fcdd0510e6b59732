import { createDb } from '@kontrol/db';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildOrganisation } from '../../test/builders.js';
import { nextTestIp, TestClient } from '../../test/http-client.js';
import { startSmtpServer } from '../../test/smtp-server.js';
import { useTestApp } from '../../test/test-app.js';
import { MAIL_MAX_ATTEMPTS, MailService } from './mail.service.js';

const t = useTestApp({ smtp: true });
afterEach(() => {
  t.smtp.accept();
  t.smtp.setDelay(0);
});

const silent = pino({ level: 'silent' });

/** Asks `app` for a reset link for `email`, from an address of its own (the endpoint is limited per IP). */
async function sendResetLink(app: FastifyInstance, email: string) {
  const client = await TestClient.visitor(app, { ip: nextTestIp() });
  const res = await client.post('/api/send-reset-link', { email });
  expect(res.statusCode).toBe(200);
}

/** A password reset e-mail for a new user, written to the outbox through the HTTP API. */
async function requestResetMail() {
  const org = await buildOrganisation(t.db);
  await sendResetLink(t.app, org.admin.email);
  const row = await t.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', org.admin.email)
    .executeTakeFirstOrThrow();
  return { email: org.admin.email, id: row.id };
}

const outboxRow = (id: number) =>
  t.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function makeDue(id: number) {
  await t.db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: new Date(Date.now() - 1_000).toISOString() })
    .where('id', '=', id)
    .execute();
}

describe('mail outbox', () => {
  it('delivers UTF-8 text intact, from MAIL_FROM', async () => {
    const cases = [
      // Mostly Cyrillic: nodemailer sends it base64-encoded.
      {
        subject: 'Kontrol: проверка темы письма с кириллицей и довольно длинная',
        text: `Здравствуйте, Ёлка!\n\n${'Длинная строка с кириллицей и ссылкой. '.repeat(8)}\nhttp://kontrol.test/auth/reset-password?token=a_b-c&email=x%40y.test`,
      },
      // An English text with a Russian name: quoted-printable.
      {
        subject: 'Kontrol: reset your password, Иван',
        text: `Hello Иван Петров,\n\n${'Someone asked to reset your Kontrol password = fine. '.repeat(4)}\nhttp://kontrol.test/auth/reset-password?token=a_b-c&email=x%40y.test`,
      },
    ];
    for (const [i, { subject, text }] of cases.entries()) {
      const to = `utf8-${i}-${Date.now()}@example.test`;
      await t.app.mail.enqueue({ to, subject, text });
      await t.app.mail.drain();
      const [mail] = t.smtp.mailsTo(to);
      expect(mail?.subject).toBe(subject);
      expect(mail?.text).toBe(text);
      expect(mail?.headers.get('content-transfer-encoding')).toBe(i === 0 ? 'base64' : 'quoted-printable');
      expect(mail?.headers.get('from')).toContain('no-reply@kontrol.local');
    }
  });

  it('sends the text with an HTML alternative when there is one', async () => {
    const to = `html-${Date.now()}@example.test`;
    await t.app.mail.enqueue({
      to,
      subject: 'Both',
      text: 'Привет, текст',
      html: '<p>Привет, <b>HTML</b></p>',
    });
    await t.app.mail.drain();
    const [mail] = t.smtp.mailsTo(to);
    expect(mail?.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail?.text).toBe('Привет, текст');
  });

  it('keeps a refused message pending with back-off, then delivers it when due', async () => {
    t.smtp.reject(451, 'Mailbox busy, try later');
    const { email, id } = await requestResetMail();
    const before = Date.now();
    await t.app.mail.drain();

    const failed = await outboxRow(id);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, sent_at: null, locked_until: null });
    expect(failed.last_error).toContain('Mailbox busy, try later');
    // The first retry waits 30 s.
    expect(Date.parse(failed.next_attempt_at)).toBeGreaterThanOrEqual(before + 29_000);
    expect(t.smtp.mailsTo(email)).toHaveLength(0);

    // Not due yet: another round leaves it alone, even with the server accepting again.
    t.smtp.accept();
    const refusedSoFar = t.smtp.rejectedCount;
    await t.app.mail.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(t.smtp.mailsTo(email)).toHaveLength(0);
    expect(t.smtp.rejectedCount).toBe(refusedSoFar);

    await makeDue(id);
    await t.app.mail.drain();
    const sent = await outboxRow(id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, last_error: null, locked_until: null });
    expect(sent.sent_at).not.toBeNull();
    expect(t.smtp.mailsTo(email)).toHaveLength(1);
  });

  it(`gives a message up as failed after ${MAIL_MAX_ATTEMPTS} refusals, with growing waits`, async () => {
    t.smtp.reject(550, 'No such mailbox here');
    const { email, id } = await requestResetMail();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
      await makeDue(id);
      const before = Date.now();
      await t.app.mail.drain();
      const row = await outboxRow(id);
      expect(row.attempts).toBe(attempt);
      expect(row.status).toBe(attempt < MAIL_MAX_ATTEMPTS ? 'pending' : 'failed');
      waits.push(Date.parse(row.next_attempt_at) - before);
    }
    // Back-off doubles from 30 s (within a second of slack) and is capped at an hour.
    expect(waits[0]).toBeGreaterThanOrEqual(29_000);
    expect(waits[1]).toBeGreaterThanOrEqual(59_000);
    expect(waits[2]).toBeGreaterThanOrEqual(119_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(3_600_000 + 1_000);

    // A failed message is never tried again.
    t.smtp.accept();
    const refused = t.smtp.rejectedCount;
    await makeDue(id);
    await t.app.mail.drain();
    const row = await outboxRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
    expect(row.last_error).toContain('No such mailbox here');
    expect(t.smtp.rejectedCount).toBe(refused);
    expect(t.smtp.mailsTo(email)).toHaveLength(0);
  });

  it('keeps a message pending when the mail server cannot be reached', async () => {
    // A port nothing listens on any more.
    const gone = await startSmtpServer();
    await gone.close();
    const sender = new MailService(t.db, silent, { smtpUrl: gone.url, from: 'Kontrol <x@kontrol.test>' });
    try {
      const to = `unreachable-${Date.now()}@example.test`;
      const id = await sender.enqueue({ to, subject: 'Nowhere', text: 'lost?' });
      await sender.drain();
      const row = await outboxRow(id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, sent_at: null, locked_until: null });
      expect(row.last_error).toMatch(/ECONNREFUSED/);
      // The outbox's own sender, pointed at a live server, delivers it once it is due.
      await makeDue(id);
      await t.app.mail.drain();
      expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 2 });
      expect(t.smtp.mailsTo(to)).toHaveLength(1);
    } finally {
      await sender.stop();
    }
  });

  it('sends a message again whose sender died while it was locked', async () => {
    const { email, id } = await requestResetMail();
    await t.db
      .updateTable('mail_outbox')
      .set({ status: 'sending', locked_until: new Date(Date.now() - 1_000).toISOString() })
      .where('id', '=', id)
      .execute();
    await t.app.mail.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(t.smtp.mailsTo(email)).toHaveLength(1);
  });

  it('leaves alone a message another sender is still sending', async () => {
    const { email, id } = await requestResetMail();
    await t.db
      .updateTable('mail_outbox')
      .set({ status: 'sending', locked_until: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', id)
      .execute();
    await t.app.mail.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'sending', attempts: 0 });
    expect(t.smtp.mailsTo(email)).toHaveLength(0);
  });

  it('sends each message exactly once when two senders drain the same outbox', async () => {
    // A second instance of the API: its own connection to the same database.
    const other = createDb(t.config.databaseUrl, { poolMax: 5 });
    const first = new MailService(t.db, silent, { smtpUrl: t.smtp.url, from: 'Kontrol <a@kontrol.test>' });
    const second = new MailService(other.db, silent, {
      smtpUrl: t.smtp.url,
      from: 'Kontrol <b@kontrol.test>',
    });
    try {
      const tag = `twice-${Date.now()}`;
      // More than one batch of 20.
      const addresses = Array.from({ length: 45 }, (_, i) => `${tag}-${i}@example.test`);
      for (const to of addresses) await first.enqueue({ to, subject: 'Once', text: `for ${to}` });

      await Promise.all([first.drain(), second.drain(), first.drain(), second.drain()]);

      const mine = t.smtp.messages.filter((m) => m.to[0]?.startsWith(tag));
      expect(mine.map((m) => m.to[0]).sort()).toEqual([...addresses].sort());
      // Both senders took a share (each message is sent by whoever claimed it).
      const senders = new Set(mine.map((m) => m.from));
      expect(senders.size).toBe(2);
      const rows = await t.db
        .selectFrom('mail_outbox')
        .select(['status', 'attempts'])
        .where('to_address', 'like', `${tag}-%`)
        .execute();
      expect(rows).toHaveLength(45);
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      await first.stop();
      await second.stop();
      await other.close();
    }
  });

  it('a sender whose claim ran out cannot undo the delivery of the sender that took over', async () => {
    const other = createDb(t.config.databaseUrl, { poolMax: 5 });
    const slow = new MailService(t.db, silent, { smtpUrl: t.smtp.url, from: 'Kontrol <slow@kontrol.test>' });
    const fast = new MailService(other.db, silent, {
      smtpUrl: t.smtp.url,
      from: 'Kontrol <fast@kontrol.test>',
    });
    try {
      const to = `takeover-${Date.now()}@example.test`;
      const id = await slow.enqueue({ to, subject: 'Takeover', text: 'once' });
      // The slow sender's message reaches the server, whose answer is held back...
      t.smtp.setDelay(1_000);
      const slowRound = slow.drain();
      for (let i = 0; i < 200 && t.smtp.holdingCount === 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(t.smtp.holdingCount).toBe(1);
      // ...for longer than its claim lasts: the other sender takes the message over and delivers it.
      await t.db
        .updateTable('mail_outbox')
        .set({ locked_until: new Date(Date.now() - 1_000).toISOString() })
        .where('id', '=', id)
        .execute();
      t.smtp.setDelay(0);
      await fast.drain();
      expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
      // Then the slow sender's attempt is refused; the message must stay sent, not be queued again.
      t.smtp.reject(451, 'Too late');
      await slowRound;
      expect(t.smtp.rejectedCount).toBeGreaterThan(0);
      const row = await outboxRow(id);
      expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
      expect(t.smtp.mailsTo(to).map((m) => m.from)).toEqual(['fast@kontrol.test']);
    } finally {
      await slow.stop();
      await fast.stop();
      await other.close();
    }
  });

  it('drain() also covers a message written while a round is under way', async () => {
    t.smtp.setDelay(300);
    const { id: slowId } = await requestResetMail();
    const round = t.app.mail.drain();
    // Wait until the round has listed and claimed the first message.
    for (let i = 0; i < 100 && (await outboxRow(slowId)).status !== 'sending'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const { email, id } = await requestResetMail();
    await t.app.mail.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'sent' });
    expect(t.smtp.mailsTo(email)).toHaveLength(1);
    await round;
  });

  it('a running sender delivers new mail at once, not at its next tick', async () => {
    t.app.mail.start(60_000);
    try {
      const { email } = await requestResetMail();
      const mail = await t.smtp.waitForMail((m) => m.to.includes(email), 3_000);
      expect(mail.subject).toBe('Kontrol: reset your password');
    } finally {
      await t.app.mail.stop();
    }
  });

  it('a sender that cannot reach the database logs and keeps running instead of crashing', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
    const broken = createDb(t.config.databaseUrl);
    // Used once, then closed: every later query fails (an unused handle would reconnect lazily).
    await broken.db.selectFrom('mail_outbox').select('id').execute();
    await broken.close();
    const sender = new MailService(broken.db, log, { smtpUrl: t.smtp.url, from: 'Kontrol <x@kontrol.test>' });
    sender.start(20);
    try {
      // Several ticks failed, each logged by the handler of its rejection: none went unhandled.
      await expect.poll(() => lines.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
        level: 50,
        msg: 'mail sender could not read the outbox, will try again',
      });
    } finally {
      await sender.stop();
    }
  });
});

describe('without SMTP_URL', () => {
  const held = useTestApp();

  it('keeps messages as held and sends nothing', async () => {
    const org = await buildOrganisation(held.db);
    await sendResetLink(held.app, org.admin.email);
    held.app.mail.start(10);
    // drain() resolves once every due message had its attempt, the round start() began included.
    await held.app.mail.drain();
    const rows = await held.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', org.admin.email)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'held',
      attempts: 0,
      sent_at: null,
      subject: 'Kontrol: reset your password',
    });
    expect(rows[0]?.text_body).toMatch(/http:\/\/kontrol\.test\/auth\/reset-password\?token=/);
    expect(t.smtp.mailsTo(org.admin.email)).toHaveLength(0);
  });
});
