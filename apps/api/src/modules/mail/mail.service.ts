import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { createRequire } from 'node:module';
import type * as Nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../lib/time.js';
import { claimMail, findDueMail, insertMail, markMailFailed, markMailSent } from './mail.repository.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  organisationId?: number | null;
  /** Not sent before this moment (ISO 8601): a notification held back by quiet hours. */
  notBefore?: string;
}

/** Attempts before a message is given up as `failed`; the wait doubles from 30 s up to an hour. */
export const MAIL_MAX_ATTEMPTS = 8;
const BATCH = 20;
const LOCK_MS = 2 * 60_000;
const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 30_000 };

/**
 * nodemailer, required where a transport is made (SMTP_URL set) rather than imported by every
 * process: a server that keeps its mail in the outbox never needs its few MB of heap.
 */
function loadNodemailer(): typeof Nodemailer {
  return createRequire(import.meta.url)('nodemailer') as typeof Nodemailer;
}

function retryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);
}

/**
 * The e-mail outbox. Messages are written to the database in the same request that causes them,
 * then a sender delivers them over SMTP and retries with back-off. Without `SMTP_URL` they are kept
 * (`held`), to be read with the operator tool's `mail:show`.
 */
export class MailService {
  private readonly transport: Nodemailer.Transporter | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private followUp: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly options: { smtpUrl: string | undefined; from: string },
  ) {
    // nodemailer waits up to 10 minutes on a silent server; a send must end well inside its
    // claim (LOCK_MS), or another sender takes the message over and it goes out twice. Timeouts
    // given in the URL's query still win.
    this.transport = options.smtpUrl
      ? loadNodemailer().createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS })
      : undefined;
  }

  async enqueue(mail: OutgoingMail): Promise<number> {
    const now = nowIso();
    const notBefore = mail.notBefore ? new Date(mail.notBefore).toISOString() : now;
    const due = notBefore <= now;
    const id = await insertMail(this.db, {
      organisation_id: mail.organisationId ?? null,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      status: this.transport ? 'pending' : 'held',
      attempts: 0,
      next_attempt_at: due ? now : notBefore,
      created_at: now,
    });
    if (!this.transport) {
      // Its text is not logged: links in it sign in, reset passwords and verify addresses.
      this.log.info(
        { mailId: id, to: mail.to, subject: mail.subject },
        'mail kept in the outbox (SMTP_URL is not set); read it with `npm run kontrol -- mail:show --email <to>`',
      );
    } else if (this.timer && due) {
      // A sender is running: deliver now rather than at its next tick.
      setImmediate(() => this.drainInBackground());
    }
    return id;
  }

  /**
   * Gives every message that is due when called one attempt; resolves when that is done, and
   * rejects when the outbox cannot be read or written.
   */
  drain(): Promise<void> {
    if (!this.transport) return Promise.resolve();
    if (this.running) {
      // The round under way may have listed the due messages before this call's message was
      // written, so one more round follows it, shared by every caller in the meantime.
      this.followUp ??= this.running
        .catch(() => undefined)
        .then(() => {
          this.followUp = undefined;
          return this.drain();
        });
      return this.followUp;
    }
    this.running = this.sendDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(intervalMs = 5_000): void {
    if (this.timer || !this.transport) return;
    this.timer = setInterval(() => this.drainInBackground(), intervalMs);
    this.timer.unref();
    this.drainInBackground();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([this.running, this.followUp]);
    this.transport?.close();
  }

  /** A failed round (database unreachable) is logged and retried at the next tick, never thrown. */
  private drainInBackground(): void {
    this.drain().catch((error: unknown) => {
      this.log.error({ err: error }, 'mail sender could not read the outbox, will try again');
    });
  }

  private async sendDue(): Promise<void> {
    for (;;) {
      const now = nowIso();
      const ids = await findDueMail(this.db, now, BATCH);
      if (ids.length === 0) return;
      for (const id of ids) await this.sendOne(id);
      if (ids.length < BATCH) return;
    }
  }

  private async sendOne(id: number): Promise<void> {
    const transport = this.transport;
    if (!transport) return;
    const now = nowIso();
    const lockedUntil = new Date(Date.now() + LOCK_MS).toISOString();
    const mail = await claimMail(this.db, id, now, lockedUntil);
    if (!mail) return;
    try {
      await transport.sendMail({
        from: this.options.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        ...(mail.html_body ? { html: mail.html_body } : {}),
      });
      await markMailSent(this.db, id, nowIso());
    } catch (error) {
      const attempts = mail.attempts + 1;
      const giveUp = attempts >= MAIL_MAX_ATTEMPTS;
      this.log.warn(
        { mailId: id, attempts, err: error },
        giveUp ? 'mail failed, giving up' : 'mail failed, will retry',
      );
      await markMailFailed(this.db, id, lockedUntil, {
        status: giveUp ? 'failed' : 'pending',
        attempts,
        error: error instanceof Error ? error.message : String(error),
        nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts)).toISOString(),
      });
    }
  }
}
