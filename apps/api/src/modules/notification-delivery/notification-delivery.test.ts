import { DEFAULT_USER_SETTINGS, type NotificationKind } from '@kontrol/contracts';
import { createDb, type IntegrationStatusColumn, type NotificationSeverity } from '@kontrol/db';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation, buildUser, type BuiltUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';
import { MailService } from '../mail/mail.service.js';
import type { DeliverySettings } from './delivery-plan.js';
import { NotificationDispatcher } from './notification-delivery.service.js';

const t = useTestApp({ smtp: true });
const silent = pino({ level: 'silent' });
const APP = 'http://kontrol.test';

afterEach(async () => {
  // Nothing a test leaves behind is handed on by the next one.
  await t.app.notifier.dispatch();
});

/** A user's saved settings (as the users screens write them): the defaults with `changes`. */
async function saveSettings(user: BuiltUser, changes: Partial<DeliverySettings>) {
  const settings = { ...DEFAULT_USER_SETTINGS, ...changes };
  await t.db
    .insertInto('user_settings')
    .values({
      user_id: user.id,
      organisation_id: user.organisationId,
      web: settings.channels.web ? 1 : 0,
      email: settings.channels.email ? 1 : 0,
      telegram: settings.channels.telegram ? 1 : 0,
      kinds: JSON.stringify(settings.kinds),
      severities: JSON.stringify(settings.severities),
      quiet_start: settings.quiet_hours?.start ?? null,
      quiet_end: settings.quiet_hours?.end ?? null,
      quiet_hours_critical: settings.quiet_hours_critical ? 1 : 0,
      time_zone: settings.time_zone,
      updated_at: new Date().toISOString(),
    })
    .execute();
}

/** A Telegram chat bound to `user` (as the bot's /start makes it). */
async function bindChat(user: BuiltUser, status: IntegrationStatusColumn = 'active', chatId = '5550001') {
  const now = new Date().toISOString();
  const row = await t.db
    .insertInto('integrations')
    .values({
      organisation_id: user.organisationId,
      kind: 'telegram',
      name: 'Phone',
      user_id: user.id,
      status,
      chat_id: status === 'pending' ? null : chatId,
      chat_title: 'Ivan',
      bound_at: status === 'pending' ? null : now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A notification row as its source writes it: not yet handed on. */
async function notify(
  user: BuiltUser,
  values: {
    title?: string;
    kind?: NotificationKind;
    severity?: NotificationSeverity;
    complaintId?: number;
  } = {},
) {
  const row = await t.db
    .insertInto('notifications')
    .values({
      organisation_id: user.organisationId,
      user_id: user.id,
      kind: values.kind ?? (values.complaintId ? 'request' : 'error_code'),
      severity: values.severity ?? 'warning',
      title: values.title ?? 'Error code E34',
      body: 'Oven 1: code E34',
      device_id: null,
      event_id: null,
      complaint_id: values.complaintId ?? null,
      created_at: new Date().toISOString(),
      read_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const mailRows = (to: string) =>
  t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute();
/** A notification e-mail's headline, `Severity: title`, after the greeting (the subject is fixed). */
const headline = (text: string) => text.split('\n')[2];
const telegramRows = (userId: number) =>
  t.db
    .selectFrom('telegram_outbox')
    .innerJoin('integrations', 'integrations.id', 'telegram_outbox.integration_id')
    .selectAll('telegram_outbox')
    .where('integrations.user_id', '=', userId)
    .orderBy('telegram_outbox.id')
    .execute();
const dispatchedAt = async (id: number) =>
  (
    await t.db
      .selectFrom('notifications')
      .select('dispatched_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).dispatched_at;

/** A user of a new organisation who is told of device events. */
async function recipient(locale: 'ru' | 'en' = 'en') {
  const org = await buildOrganisation(t.db);
  return buildUser(t.db, org.organisationId, { modules: ['dashboard'], locale });
}

/** `HH:MM` in UTC of `now` shifted by `minutes`. */
const utcTime = (now: number, minutes: number) =>
  new Date(now + minutes * 60_000).toISOString().slice(11, 16);

describe('the dispatcher: e-mail', () => {
  it('e-mails a device event to a user with default settings, in their language, once', async () => {
    const org = await buildOrganisation(t.db, { locale: 'ru' });
    const admin = new TestClient(t.app);
    await admin.login(org.admin.email, org.admin.password);
    const device = await buildDevice(t.db, org.organisationId, { name: 'Печь 1' });
    const created = await admin.post('/api/devices/events/add', {
      device_id: device.id,
      severity: 'critical',
      title: 'Дым из печи',
    });
    expect(created.statusCode).toBe(201);
    const eventId = created.json<{ data: { id: number } }>().data.id;
    const row = await t.db
      .selectFrom('notifications')
      .select(['id', 'dispatched_at'])
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(row.dispatched_at).toBeNull();

    await t.app.notifier.dispatch();
    expect(await dispatchedAt(row.id)).not.toBeNull();
    await t.app.mail.drain();
    const mails = t.smtp.mailsTo(org.admin.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Kontrol: новое уведомление (Критично)');
    expect(mails[0]?.text).toContain('Здравствуйте, Admin!');
    expect(mails[0]?.text).toContain('Критично: Дым из печи');
    expect(mails[0]?.text).toContain('Печь 1');
    expect(mails[0]?.text).toContain(`${APP}/account/device_event_templates/events/${eventId}`);

    // Handed on once: another pass sends nothing more.
    await t.app.notifier.dispatch();
    await t.app.mail.drain();
    expect(t.smtp.mailsTo(org.admin.email)).toHaveLength(1);
  });

  it('links a complaint notification to its complaint, in English for an English user', async () => {
    const user = await recipient('en');
    await notify(user, { title: 'Complaint #12 answered', complaintId: 12 });
    await t.app.notifier.dispatch();
    await t.app.mail.drain();
    const [mail] = t.smtp.mailsTo(user.email);
    expect(mail?.subject).toBe('Kontrol: new notification (Warning)');
    expect(mail?.text).toContain('Hello User,');
    expect(mail?.text).toContain('Warning: Complaint #12 answered');
    expect(mail?.text).toContain(`${APP}/account/requests/12`);
  });

  it('e-mails nobody whose address is unproven (an invitation not accepted); the subject never holds a title', async () => {
    const org = await buildOrganisation(t.db);
    const admin = new TestClient(t.app);
    await admin.login(org.admin.email, org.admin.password);
    const victim = `stranger-${Date.now()}@example.test`;
    const invited = await admin.post('/api/users/add', { name: 'Stranger', email: victim, locale: 'en' });
    expect(invited.statusCode).toBe(201);
    const user: BuiltUser = {
      id: invited.json<{ data: { id: number } }>().data.id,
      email: victim,
      password: '',
      organisationId: org.organisationId,
    };
    await bindChat(user);
    const phishing = 'Your account is locked, unlock it at evil.test';
    const id = await notify(user, { title: phishing, severity: 'critical' });
    await t.app.notifier.dispatch();
    expect(await dispatchedAt(id)).not.toBeNull();
    // The invitation is the one e-mail the address gets until it is proven.
    expect((await mailRows(victim)).map((mail) => mail.subject)).toEqual(['Kontrol: you are invited']);
    // A chat someone bound through the bot is not an unproven inbox: it still gets it.
    expect(await telegramRows(user.id)).toHaveLength(1);

    // Proven, the address gets notifications, under a subject of fixed words.
    await t.db
      .updateTable('users')
      .set({ email_verified_at: new Date().toISOString() })
      .where('id', '=', user.id)
      .execute();
    await notify(user, { title: phishing, severity: 'critical' });
    await t.app.notifier.dispatch();
    const mails = await mailRows(victim);
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Kontrol: you are invited',
      'Kontrol: new notification (Critical)',
    ]);
    expect(headline(mails[1]?.text_body ?? '')).toBe(`Critical: ${phishing}`);
  });

  it('sends nothing to a disabled user, and still marks the row handed on', async () => {
    const user = await recipient();
    await bindChat(user);
    await t.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', user.id)
      .execute();
    const id = await notify(user, { severity: 'critical' });
    await t.app.notifier.dispatch();
    expect(await dispatchedAt(id)).not.toBeNull();
    expect(await mailRows(user.email)).toEqual([]);
    expect(await telegramRows(user.id)).toEqual([]);
  });
});

describe('the dispatcher: settings', () => {
  it('writes one Telegram message per active chat instead of an e-mail when e-mail is off', async () => {
    const user = await recipient();
    await saveSettings(user, { channels: { web: true, email: false, telegram: true } });
    const active = await bindChat(user, 'active', '777');
    const second = await bindChat(user, 'active', '778');
    await bindChat(user, 'pending');
    await bindChat(user, 'blocked', '779');
    // Another organisation's user, with their own chat, gets none of it.
    const stranger = await recipient();
    await bindChat(stranger, 'active', '999');

    const before = new Date().toISOString();
    const id = await notify(user, { title: 'Door open while heating' });
    await t.app.notifier.dispatch();

    expect(await mailRows(user.email)).toEqual([]);
    const rows = await telegramRows(user.id);
    expect(rows.map((row) => [row.integration_id, row.chat_id])).toEqual([
      [active, '777'],
      [second, '778'],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        organisation_id: user.organisationId,
        notification_id: id,
        status: 'pending',
      });
      expect(row.text).toContain('Warning: Door open while heating');
      expect(row.text).toContain(`${APP}/account/telemetry?tab=notifications`);
      expect(row.next_attempt_at >= before).toBe(true);
      expect(row.next_attempt_at <= new Date().toISOString()).toBe(true);
    }
    expect(await telegramRows(stranger.id)).toEqual([]);
  });

  it('writes no Telegram message when the channel is off, even with a bound chat', async () => {
    const user = await recipient();
    await saveSettings(user, { channels: { web: true, email: true, telegram: false } });
    await bindChat(user);
    await notify(user);
    await t.app.notifier.dispatch();
    expect(await telegramRows(user.id)).toEqual([]);
    expect(await mailRows(user.email)).toHaveLength(1);
  });

  it('sends only the kinds and severities the user chose (info is not in the defaults)', async () => {
    const user = await recipient();
    await saveSettings(user, { kinds: ['request', 'no_data'], severities: ['warning', 'critical'] });
    await bindChat(user);
    const skipped = [
      await notify(user, { title: 'Wrong kind', kind: 'error_code' }),
      await notify(user, { title: 'Too minor', kind: 'no_data', severity: 'info' }),
    ];
    await notify(user, { title: 'Chosen kind', kind: 'no_data' });
    await notify(user, { title: 'A complaint', complaintId: 3, severity: 'critical' });
    const defaults = await recipient();
    await notify(defaults, { title: 'Info for defaults', kind: 'no_data', severity: 'info' });

    await t.app.notifier.dispatch();
    expect((await mailRows(user.email)).map((mail) => headline(mail.text_body))).toEqual([
      'Warning: Chosen kind',
      'Critical: A complaint',
    ]);
    expect((await telegramRows(user.id)).map((row) => row.text.split('\n')[0])).toEqual([
      'Warning: Chosen kind',
      'Critical: A complaint',
    ]);
    for (const id of skipped) expect(await dispatchedAt(id)).not.toBeNull();
    expect(await mailRows(defaults.email)).toEqual([]);
  });

  it('holds e-mail and Telegram until quiet hours end, and lets critical ones through when asked', async () => {
    const user = await recipient();
    const now = Date.now();
    // Quiet from an hour ago to an hour from now, in UTC: the end is the next minute boundary
    // an hour ahead.
    const start = utcTime(now, -60);
    const end = utcTime(now, 60);
    const endsAt = new Date(Math.floor((now + 3_600_000) / 60_000) * 60_000).toISOString();
    await saveSettings(user, {
      severities: ['info', 'warning', 'critical'],
      quiet_hours: { start, end },
      quiet_hours_critical: true,
      time_zone: 'UTC',
    });
    await bindChat(user);
    await notify(user, { title: 'Wait for the morning' });
    await notify(user, { title: 'Wake me up', severity: 'critical' });

    await t.app.notifier.dispatch();
    const mails = await mailRows(user.email);
    expect(
      mails.map((mail) => [headline(mail.text_body), mail.next_attempt_at > new Date().toISOString()]),
    ).toEqual([
      ['Warning: Wait for the morning', true],
      ['Critical: Wake me up', false],
    ]);
    expect(mails[0]?.next_attempt_at).toBe(endsAt);
    const telegrams = await telegramRows(user.id);
    expect(telegrams.map((row) => row.next_attempt_at === endsAt)).toEqual([true, false]);

    // Only the critical one goes out now.
    await t.app.mail.drain();
    expect(t.smtp.mailsTo(user.email).map((mail) => headline(mail.text))).toEqual(['Critical: Wake me up']);
  });

  it('holds critical ones too when quiet_hours_critical is off', async () => {
    const user = await recipient();
    const now = Date.now();
    await saveSettings(user, {
      quiet_hours: { start: utcTime(now, -30), end: utcTime(now, 30) },
      quiet_hours_critical: false,
      time_zone: 'UTC',
    });
    await notify(user, { title: 'Fire', severity: 'critical' });
    await t.app.notifier.dispatch();
    const [mail] = await mailRows(user.email);
    expect(mail && mail.next_attempt_at > new Date().toISOString()).toBe(true);
  });
});

describe('the dispatcher: a storm', () => {
  it('sends one digest per channel for more than 10 notifications of one user in a pass', async () => {
    const user = await recipient();
    await bindChat(user);
    for (let i = 1; i <= 25; i += 1) await notify(user, { title: `Fault ${i}` });
    await t.app.notifier.dispatch();

    const mails = await mailRows(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Kontrol: 25 new notifications');
    const lines = mails[0]?.text_body.split('\n') ?? [];
    expect(lines).toContain('You have 25 new notifications.');
    expect(lines.filter((line) => line.startsWith('[Warning] Fault '))).toHaveLength(20);
    expect(lines.some((line) => line.startsWith('[Warning] Fault 21 '))).toBe(false);
    expect(lines).toContain('…and 5 more.');
    expect(mails[0]?.text_body).toContain(`${APP}/account/telemetry?tab=notifications`);

    const telegrams = await telegramRows(user.id);
    expect(telegrams).toHaveLength(1);
    expect(telegrams[0]?.notification_id).toBeNull();
    expect(telegrams[0]?.text).toContain('[Warning] Fault 1 ');
    expect(telegrams[0]?.text).toContain('…and 5 more.');
  });

  it('sends ten notifications one by one (the digest starts above ten)', async () => {
    const user = await recipient('ru');
    for (let i = 1; i <= 10; i += 1) await notify(user, { title: `Сбой ${i}` });
    await t.app.notifier.dispatch();
    expect((await mailRows(user.email)).map((mail) => headline(mail.text_body))).toEqual(
      Array.from({ length: 10 }, (_, i) => `Предупреждение: Сбой ${i + 1}`),
    );
  });

  it('words a digest in Russian for a Russian user', async () => {
    const user = await recipient('ru');
    for (let i = 1; i <= 11; i += 1) await notify(user, { title: `Сбой ${i}`, severity: 'critical' });
    await t.app.notifier.dispatch();
    const [mail] = await mailRows(user.email);
    expect(mail?.subject).toBe('Kontrol: новые уведомления (11)');
    expect(mail?.text_body).toContain('Новых уведомлений: 11.');
    expect(mail?.text_body).toContain('[Критично] Сбой 11');
  });
});

describe('the dispatcher: several processes', () => {
  it('hands each notification on once when two dispatchers share the database', async () => {
    const org = await buildOrganisation(t.db);
    const users: BuiltUser[] = [];
    for (let i = 0; i < 8; i += 1)
      users.push(await buildUser(t.db, org.organisationId, { modules: ['dashboard'] }));
    for (const user of users) await bindChat(user, 'active', `chat-${user.id}`);
    const ids: number[] = [];
    for (let round = 0; round < 3; round += 1) for (const user of users) ids.push(await notify(user));

    const other = createDb(t.config.databaseUrl, { poolMax: 5 });
    const otherMail = new MailService(other.db, silent, {
      smtpUrl: undefined,
      from: 'Kontrol <b@kontrol.test>',
    });
    // Small batches, so the two interleave over many claims.
    const first = new NotificationDispatcher(t.db, silent, t.app.mail, { appUrl: APP, batch: 2 });
    const second = new NotificationDispatcher(other.db, silent, otherMail, { appUrl: APP, batch: 2 });
    try {
      const results = await Promise.all([
        first.dispatch(),
        second.dispatch(),
        first.dispatch(),
        second.dispatch(),
      ]);
      expect(results.reduce((sum, result) => sum + result.claimed, 0)).toBe(ids.length);
      for (const id of ids) expect(await dispatchedAt(id)).not.toBeNull();
      for (const user of users) {
        expect(await mailRows(user.email)).toHaveLength(3);
        const telegrams = await telegramRows(user.id);
        expect(telegrams).toHaveLength(3);
        expect(new Set(telegrams.map((row) => row.notification_id)).size).toBe(3);
      }
    } finally {
      await Promise.all([first.stop(), second.stop()]);
      await otherMail.stop();
      await other.close();
    }
  });
});
