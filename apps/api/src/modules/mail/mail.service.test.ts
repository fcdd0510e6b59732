import { createDb } from '@kontrol/db';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { MAIL_MAX_ATTEMPTS, MailService } from './mail.service.js';

let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => {
  smtp.accept();
  smtp.setDelay(0);
});

const db = () => t.database.handle.db;
const silent = pino({ level: 'silent' });
let ipCounter = 0;
/** Anonymous mail-sending endpoints are limited per IP; each call here comes from its own. */
const freshIp = () => `10.30.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

/** A password reset e-mail for a new user, written to the outbox through the HTTP API. */
async function requestResetMail() {
  const org = await buildOrganisation(db());
  const client = new TestClient(t.app);
  await client.get('/sanctum/csrf-cookie');
  const res = await client.request({
    method: 'POST',
    url: '/api/send-reset-link',
    payload: { email: org.admin.email },
    remoteAddress: freshIp(),
  });
  expect(res.statusCode).toBe(200);
  const row = await db()
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', org.admin.email)
    .executeTakeFirstOrThrow();
  return { email: org.admin.email, id: row.id };
}

const outboxRow = (id: number) =>
  db().selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function makeDue(id: number) {
  await db()
    .updateTable('mail_outbox')
    .set({ next_attempt_at: new Date(Date.now() - 1_000).toISOString() })
    .where('id', '=', id)
    .execute();
}

const received = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

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
      const [mail] = received(to);
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
    const [mail] = received(to);
    expect(mail?.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail?.text).toBe('Привет, текст');
  });

  it('keeps a refused message pending with back-off, then delivers it when due', async () => {
    smtp.reject(451, 'Mailbox busy, try later');
    const { email, id } = await requestResetMail();
    const before = Date.now();
    await t.app.mail.drain();

    const failed = await outboxRow(id);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, sent_at: null, locked_until: null });
    expect(failed.last_error).toContain('Mailbox busy, try later');
    // The first retry waits 30 s.
    expect(Date.parse(failed.next_attempt_at)).toBeGreaterThanOrEqual(before + 29_000);
    expect(received(email)).toHaveLength(0);

    // Not due yet: another round leaves it alone, even with the server accepting again.
    smtp.accept();
    const refusedSoFar = smtp.rejectedCount;
    await t.app.mail.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(received(email)).toHaveLength(0);
    expect(smtp.rejectedCount).toBe(refusedSoFar);

    await makeDue(id);
    await t.app.mail.drain();
    const sent = await outboxRow(id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, last_error: null, locked_until: null });
    expect(sent.sent_at).not.toBeNull();
    expect(received(email)).toHaveLength(1);
  });

  it(`gives a message up as failed after ${MAIL_MAX_ATTEMPTS} refusals, with growing waits`, async () => {
    smtp.reject(550, 'No such mailbox here');
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
    smtp.accept();
    const refused = smtp.rejectedCount;
    await makeDue(id);
    await t.app.mail.drain();
    const row = await outboxRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
    expect(row.last_error).toContain('No such mailbox here');
    expect(smtp.rejectedCount).toBe(refused);
    expect(received(email)).toHaveLength(0);
  });

  it('keeps a message pending when the mail server cannot be reached', async () => {
    // A port nothing listens on any more.
    const gone = await startSmtpServer();
    await gone.close();
    const sender = new MailService(db(), silent, { smtpUrl: gone.url, from: 'Kontrol <x@kontrol.test>' });
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
      expect(received(to)).toHaveLength(1);
    } finally {
      await sender.stop();
    }
  });

  it('sends a message again whose sender died while it was locked', async () => {
    const { email, id } = await requestResetMail();
    await db()
      .updateTable('mail_outbox')
      .set({ status: 'sending', locked_until: new Date(Date.now() - 1_000).toISOString() })
      .where('id', '=', id)
      .execute();
    await t.app.mail.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(received(email)).toHaveLength(1);
  });

  it('leaves alone a message another sender is still sending', async () => {
    const { email, id } = await requestResetMail();
    await db()
      .updateTable('mail_outbox')
      .set({ status: 'sending', locked_until: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', id)
      .execute();
    await t.app.mail.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'sending', attempts: 0 });
    expect(received(email)).toHaveLength(0);
  });

  it('sends each message exactly once when two senders drain the same outbox', async () => {
    // A second instance of the API: its own connection to the same database.
    const other = createDb(t.config.databaseUrl, { poolMax: 5 });
    const first = new MailService(db(), silent, { smtpUrl: smtp.url, from: 'Kontrol <a@kontrol.test>' });
    const second = new MailService(other.db, silent, { smtpUrl: smtp.url, from: 'Kontrol <b@kontrol.test>' });
    try {
      const tag = `twice-${Date.now()}`;
      // More than one batch of 20.
      const addresses = Array.from({ length: 45 }, (_, i) => `${tag}-${i}@example.test`);
      for (const to of addresses) await first.enqueue({ to, subject: 'Once', text: `for ${to}` });

      await Promise.all([first.drain(), second.drain(), first.drain(), second.drain()]);

      const mine = smtp.messages.filter((m) => m.to[0]?.startsWith(tag));
      expect(mine.map((m) => m.to[0]).sort()).toEqual([...addresses].sort());
      // Both senders took a share (each message is sent by whoever claimed it).
      const senders = new Set(mine.map((m) => m.from));
      expect(senders.size).toBe(2);
      const rows = await db()
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
    const slow = new MailService(db(), silent, { smtpUrl: smtp.url, from: 'Kontrol <slow@kontrol.test>' });
    const fast = new MailService(other.db, silent, {
      smtpUrl: smtp.url,
      from: 'Kontrol <fast@kontrol.test>',
    });
    try {
      const to = `takeover-${Date.now()}@example.test`;
      const id = await slow.enqueue({ to, subject: 'Takeover', text: 'once' });
      // The slow sender's message reaches the server, whose answer is held back...
      smtp.setDelay(1_000);
      const slowRound = slow.drain();
      for (let i = 0; i < 200 && smtp.holdingCount === 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(smtp.holdingCount).toBe(1);
      // ...for longer than its claim lasts: the other sender takes the message over and delivers it.
      await db()
        .updateTable('mail_outbox')
        .set({ locked_until: new Date(Date.now() - 1_000).toISOString() })
        .where('id', '=', id)
        .execute();
      smtp.setDelay(0);
      await fast.drain();
      expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
      // Then the slow sender's attempt is refused; the message must stay sent, not be queued again.
      smtp.reject(451, 'Too late');
      await slowRound;
      expect(smtp.rejectedCount).toBeGreaterThan(0);
      const row = await outboxRow(id);
      expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
      expect(received(to).map((m) => m.from)).toEqual(['fast@kontrol.test']);
    } finally {
      await slow.stop();
      await fast.stop();
      await other.close();
    }
  });

  it('drain() also covers a message written while a round is under way', async () => {
    smtp.setDelay(300);
    const { id: slowId } = await requestResetMail();
    const round = t.app.mail.drain();
    // Wait until the round has listed and claimed the first message.
    for (let i = 0; i < 100 && (await outboxRow(slowId)).status !== 'sending'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const { email, id } = await requestResetMail();
    await t.app.mail.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'sent' });
    expect(received(email)).toHaveLength(1);
    await round;
  });

  it('a running sender delivers new mail at once, not at its next tick', async () => {
    t.app.mail.start(60_000);
    try {
      const { email } = await requestResetMail();
      const mail = await smtp.waitForMail((m) => m.to.includes(email), 3_000);
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
    const sender = new MailService(broken.db, log, { smtpUrl: smtp.url, from: 'Kontrol <x@kontrol.test>' });
    sender.start(20);
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      // Several ticks failed, each logged; none became an unhandled rejection (Vitest fails on those).
      expect(lines.length).toBeGreaterThanOrEqual(2);
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
  let held: TestApp;
  beforeAll(async () => {
    held = await buildTestApp();
  });
  afterAll(async () => {
    await held.close();
  });

  it('keeps messages as held and sends nothing', async () => {
    const org = await buildOrganisation(held.database.handle.db);
    const client = new TestClient(held.app);
    await client.get('/sanctum/csrf-cookie');
    const res = await client.request({
      method: 'POST',
      url: '/api/send-reset-link',
      payload: { email: org.admin.email },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(200);
    held.app.mail.start(10);
    await held.app.mail.drain();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const rows = await held.database.handle.db
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
    expect(received(org.admin.email)).toHaveLength(0);
  });
});
