import type { Database, TelegramOutboxTable } from '@kontrol/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import type { MailService, OutgoingMail } from '../mail/mail.service.js';
import { deliveryPlan, settingsFromRow } from './delivery-plan.js';
import {
  claimUndispatched,
  findActiveChats,
  findRecipients,
  insertTelegramMessages,
  type ClaimedNotification,
  type RecipientRow,
} from './notification-delivery.repository.js';
import {
  DIGEST_THRESHOLD,
  digestMail,
  digestTelegram,
  notificationMail,
  notificationTelegram,
  type MessageRecipient,
} from './notification-messages.js';

/** Rows one pass claims at most; a storm's rows of one user are grouped within a pass. */
export const DISPATCH_BATCH = 1_000;
/** How often each API process looks for new notifications (server.ts starts the timer). */
export const DISPATCH_INTERVAL_MS = 2_000;

/** What one pass did, for the log and the tests. */
export interface DispatchResult {
  claimed: number;
  mails: number;
  telegrams: number;
}

type Channel = 'email' | 'telegram';

interface Recipient extends MessageRecipient {
  id: number;
  organisationId: number;
  disabled: boolean;
  /** Whether the user has proven the e-mail address: only then does it get notifications. */
  emailProven: boolean;
  settings: ReturnType<typeof settingsFromRow>;
}

function toRecipient(row: RecipientRow): Recipient {
  const settings = settingsFromRow(
    row.settings_user_id === null
      ? null
      : {
          web: row.web ?? 1,
          email: row.email_on ?? 1,
          telegram: row.telegram ?? 1,
          kinds: row.kinds ?? '',
          severities: row.severities ?? '',
          quiet_start: row.quiet_start,
          quiet_end: row.quiet_end,
          quiet_hours_critical: row.quiet_hours_critical ?? 1,
          time_zone: row.time_zone ?? '',
        },
  );
  return {
    id: row.id,
    organisationId: row.organisation_id,
    name: row.name,
    email: row.email,
    locale: row.locale,
    timeZone: settings.time_zone,
    disabled: row.disabled_at !== null,
    emailProven: row.email_verified_at !== null,
    settings,
  };
}

/**
 * Hands new notifications to the e-mail and Telegram channels (docs/notifications.md). Sources
 * write notification rows with `dispatched_at` null; every API process runs one dispatcher, which
 * claims such rows in id order, decides per recipient with {@link deliveryPlan}, and writes the
 * messages to the mail outbox and the Telegram outbox, whose senders deliver and retry them.
 * A claimed row is never handed on again, so no copy goes out twice; a process that dies between
 * the claim and the writes loses those rows' copies (the list keeps the rows).
 */
export class NotificationDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<DispatchResult> | undefined;
  private followUp: Promise<DispatchResult> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly mail: MailService,
    private readonly options: {
      appUrl: string;
      /** Rows a pass claims at most (DISPATCH_BATCH; smaller in tests). */
      batch?: number;
      /** Told when Telegram messages were queued, so the bot sends them now (TelegramService.wake). */
      onTelegramQueued?: () => void;
    },
  ) {}

  private get batch() {
    return this.options.batch ?? DISPATCH_BATCH;
  }

  /**
   * Hands on every notification waiting when called; resolves with what was done (summed over
   * the passes), rejects when the database cannot be read or written. Calls while a round runs
   * share one more round after it, as the mail sender's `drain` does.
   */
  dispatch(): Promise<DispatchResult> {
    if (this.running) {
      this.followUp ??= this.running
        .catch(() => undefined)
        .then(() => {
          this.followUp = undefined;
          return this.dispatch();
        });
      return this.followUp;
    }
    this.running = this.dispatchAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(intervalMs = DISPATCH_INTERVAL_MS): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => this.dispatchInBackground(), intervalMs);
    this.timer.unref();
    this.dispatchInBackground();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([this.running, this.followUp]);
  }

  private dispatchInBackground(): void {
    this.dispatch().catch((error: unknown) => {
      this.log.error({ err: error }, 'notification dispatcher could not read notifications, will try again');
    });
  }

  private async dispatchAll(): Promise<DispatchResult> {
    const total: DispatchResult = { claimed: 0, mails: 0, telegrams: 0 };
    for (;;) {
      const pass = await this.pass();
      total.claimed += pass.claimed;
      total.mails += pass.mails;
      total.telegrams += pass.telegrams;
      if (pass.claimed < this.batch) return total;
    }
  }

  /** One batch: claim, decide, write. */
  private async pass(): Promise<DispatchResult> {
    const nowMs = Date.now();
    const now = new Date(nowMs).toISOString();
    const claimed = await claimUndispatched(this.db, now, this.batch);
    const result: DispatchResult = { claimed: claimed.length, mails: 0, telegrams: 0 };
    if (claimed.length === 0) return result;

    const userIds = [...new Set(claimed.map((row) => row.user_id))];
    const recipients = new Map(
      (await findRecipients(this.db, userIds)).map((row) => [row.id, toRecipient(row)]),
    );

    // Per user, channel and not-before moment: the notifications that go there, oldest first.
    const groups = new Map<
      string,
      { recipient: Recipient; channel: Channel; notBefore: string | null; rows: ClaimedNotification[] }
    >();
    for (const row of claimed) {
      const recipient = recipients.get(row.user_id);
      if (!recipient || recipient.disabled || recipient.organisationId !== row.organisation_id) continue;
      const plan = deliveryPlan(recipient.settings, row, nowMs);
      for (const channel of ['email', 'telegram'] as const) {
        if (!plan[channel]) continue;
        // An address nobody has proven (an invitation not accepted, a new address not confirmed)
        // gets no notifications: they would reach a stranger's inbox, past the invitation limits.
        if (channel === 'email' && !recipient.emailProven) continue;
        const key = `${recipient.id}|${channel}|${plan.notBefore ?? ''}`;
        const group = groups.get(key) ?? { recipient, channel, notBefore: plan.notBefore, rows: [] };
        group.rows.push(row);
        groups.set(key, group);
      }
    }

    const telegramUsers = [
      ...new Set([...groups.values()].filter((g) => g.channel === 'telegram').map((g) => g.recipient.id)),
    ];
    const chats = telegramUsers.length > 0 ? await findActiveChats(this.db, telegramUsers) : [];

    const mails: OutgoingMail[] = [];
    const telegrams: Insertable<TelegramOutboxTable>[] = [];
    for (const { recipient, channel, notBefore, rows } of groups.values()) {
      const digest = rows.length > DIGEST_THRESHOLD;
      if (channel === 'email') {
        const made = digest
          ? [digestMail(recipient, rows, this.options.appUrl)]
          : rows.map((row) => notificationMail(recipient, row, this.options.appUrl));
        for (const mail of made)
          mails.push({
            ...mail,
            organisationId: recipient.organisationId,
            ...(notBefore ? { notBefore } : {}),
          });
        continue;
      }
      for (const chat of chats) {
        if (chat.user_id !== recipient.id || chat.chat_id === null) continue;
        const messages = digest
          ? [{ text: digestTelegram(recipient, rows, this.options.appUrl), notificationId: null }]
          : rows.map((row) => ({
              text: notificationTelegram(recipient, row, this.options.appUrl),
              notificationId: row.id,
            }));
        for (const message of messages)
          telegrams.push({
            organisation_id: chat.organisation_id,
            integration_id: chat.id,
            chat_id: chat.chat_id,
            text: message.text,
            notification_id: message.notificationId,
            status: 'pending',
            next_attempt_at: notBefore ?? now,
            created_at: now,
          });
      }
    }

    try {
      await insertTelegramMessages(this.db, telegrams);
      result.telegrams = telegrams.length;
      if (telegrams.length > 0) this.options.onTelegramQueued?.();
      for (const mail of mails) {
        await this.mail.enqueue(mail);
        result.mails += 1;
      }
      this.log.debug(result, 'notifications handed on');
    } catch (error) {
      // The rows stay claimed: handing them on again could send some copies twice.
      this.log.error(
        { err: error, notifications: claimed.map((row) => row.id) },
        'notification dispatcher could not write every message; those copies are lost',
      );
    }
    return result;
  }
}
