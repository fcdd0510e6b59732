import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../lib/time.js';
import { claimMail, findDueMail, insertMail, markMailFailed, markMailSent } from './mail.repository.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  organisationId?: number | null;
}

/** Attempts before a message is given up as `failed`; the wait doubles from 30 s up to an hour. */
export const MAIL_MAX_ATTEMPTS = 8;
const BATCH = 20;
const LOCK_MS = 2 * 60_000;

function retryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);
}

/**
 * The e-mail outbox. Messages are written to the database in the same request that causes them,
 * then a sender delivers them over SMTP and retries with back-off. Without `SMTP_URL` they are kept
 * (`held`) and their text, links included, goes to the log.
 */
export class MailService {
  private readonly transport: Transporter | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly options: { smtpUrl: string | undefined; from: string },
  ) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
  }

  async enqueue(mail: OutgoingMail): Promise<number> {
    const now = nowIso();
    const id = await insertMail(this.db, {
      organisation_id: mail.organisationId ?? null,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      status: this.transport ? 'pending' : 'held',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    });
    if (!this.transport) {
      this.log.info(
        { mailId: id, to: mail.to, subject: mail.subject },
        `mail kept in the outbox (SMTP_URL is not set):\n${mail.text}`,
      );
    } else if (this.timer) {
      // A sender is running: deliver now rather than at its next tick.
      setImmediate(() => void this.drain());
    }
    return id;
  }

  /** Sends every due message once; resolves when this round is done. */
  drain(): Promise<void> {
    if (!this.transport) return Promise.resolve();
    this.running ??= this.sendDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(intervalMs = 5_000): void {
    if (this.timer || !this.transport) return;
    this.timer = setInterval(() => void this.drain(), intervalMs);
    this.timer.unref();
    void this.drain();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    this.transport?.close();
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
    const mail = await claimMail(this.db, id, now, new Date(Date.now() + LOCK_MS).toISOString());
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
      this.log.warn({ mailId: id, attempts, err: error }, giveUp ? 'mail failed, giving up' : 'mail failed, will retry');
      await markMailFailed(this.db, id, {
        status: giveUp ? 'failed' : 'pending',
        attempts,
        error: error instanceof Error ? error.message : String(error),
        nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts)).toISOString(),
      });
    }
  }
}
