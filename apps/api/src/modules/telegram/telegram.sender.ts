import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Api, GrammyError } from 'grammy';
import type { Kysely } from 'kysely';
import { clockIso, systemClock, type Clock } from '../../lib/clock.js';
import { grammy } from './telegram.grammy.js';
import { SendLimits } from './telegram.limits.js';
import {
  blockIntegration,
  claimMessage,
  findDueMessages,
  markMessageDone,
  markMessageRetry,
  markMessageSent,
  moveChat,
  type ClaimedMessage,
} from './telegram.repository.js';

/** Attempts before a message is given up as `failed`; the wait doubles from 30 s up to an hour. */
export const TELEGRAM_MAX_ATTEMPTS = 8;
/** Telegram refuses longer texts (400): a longer one is cut, not lost. */
export const TELEGRAM_TEXT_MAX_LENGTH = 4096;
const BATCH = 50;
/** A claim outlives any send: the Bot API client gives up after 60 s (telegram.service.ts). */
const LOCK_MS = 2 * 60_000;
/** A round waits for a chat's rate limit this long at most; a longer wait is left to the next tick. */
const MAX_INLINE_WAIT_MS = 1_500;

function retryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);
}

function clip(text: string) {
  return text.length <= TELEGRAM_TEXT_MAX_LENGTH ? text : `${text.slice(0, TELEGRAM_TEXT_MAX_LENGTH - 1)}…`;
}

/** A 403 (blocked by the user, kicked from the group, user deactivated) or a chat that is gone. */
function chatIsGone(error: GrammyError) {
  return error.error_code === 403 || (error.error_code === 400 && /chat not found/i.test(error.description));
}

/**
 * The Telegram outbox's sender. Rows are written by whoever has something to say (the
 * notifications' dispatcher) as `pending`; each round sends the due ones, at most one message per
 * second to a chat and 25 per second overall, and records the outcome: `sent`, back to `pending`
 * with a later `next_attempt_at` (network errors, 5xx, 429), `failed` after
 * {@link TELEGRAM_MAX_ATTEMPTS} or on a request Telegram will never accept, `skipped` when the
 * integration is not active. A chat that has left the bot blocks its integration.
 */
export class TelegramSender {
  private running: Promise<void> | undefined;
  private followUp: Promise<void> | undefined;
  private stopping = false;
  private readonly wakeUp = new Set<() => void>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly api: Api,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock = systemClock,
    readonly limits: SendLimits = new SendLimits(() => clock.now()),
  ) {}

  /**
   * Gives every message that is due when called an attempt, waiting for chats' rate limits when
   * they are short; resolves when that is done, rejects when the outbox cannot be read or written.
   */
  drain(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (this.running) {
      // The round under way may have listed the due messages before the caller's were written.
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

  /** Ends the round under way after its current message; no new round starts. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.wakeUp) wake();
    await Promise.allSettled([this.running, this.followUp]);
  }

  private async sendDue(): Promise<void> {
    while (!this.stopping) {
      const waiting = this.limits.waiting();
      const now = clockIso(this.clock);
      const due = await findDueMessages(this.db, now, BATCH, waiting.chats);
      if (due.length === 0) {
        if (waiting.nextReadyAt === undefined) return;
        // Nothing due in the held chats either: the round is over, it does not wait for them.
        if ((await findDueMessages(this.db, now, 1, [])).length === 0) return;
        const wait = waiting.nextReadyAt - this.clock.now();
        if (wait > MAX_INLINE_WAIT_MS) return;
        await this.sleep(wait);
        continue;
      }
      // One message per chat in a round: the next round leaves out the chats just written to,
      // so one chat's backlog never holds up the others.
      const chats = new Set<string>();
      for (const row of due) {
        if (this.stopping) return;
        if (chats.has(row.chat_id)) continue;
        chats.add(row.chat_id);
        const delay = this.limits.globalDelayMs();
        if (delay > 0) await this.sleep(delay);
        await this.sendOne(row.id);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.clock.clearTimeout(timer);
        this.wakeUp.delete(done);
        resolve();
      };
      const timer = this.clock.setTimeout(done, Math.max(0, ms));
      this.wakeUp.add(done);
    });
  }

  private async sendOne(id: number): Promise<void> {
    const lockedUntil = new Date(this.clock.now() + LOCK_MS).toISOString();
    const message = await claimMessage(this.db, id, clockIso(this.clock), lockedUntil);
    if (!message) return;
    if (message.integration?.status !== 'active') {
      await markMessageDone(this.db, id, lockedUntil, {
        status: 'skipped',
        attempts: message.attempts,
        error: `the integration is ${message.integration?.status ?? 'deleted'}`,
      });
      return;
    }
    this.limits.sending(message.chat_id);
    try {
      await this.api.sendMessage(message.chat_id, clip(message.text), {
        link_preview_options: { is_disabled: true },
      });
      await markMessageSent(this.db, message, lockedUntil, clockIso(this.clock));
    } catch (error) {
      await this.failed(message, lockedUntil, error);
    }
  }

  private async failed(message: ClaimedMessage, lockedUntil: string, error: unknown) {
    const now = this.clock.now();
    const description =
      error instanceof grammy().GrammyError
        ? error.description
        : error instanceof Error
          ? error.message
          : String(error);
    if (error instanceof grammy().GrammyError) {
      const code = error.error_code;
      const retryAfter = error.parameters.retry_after;
      if (code === 429) {
        // Rate limited: not a failed attempt; this chat waits as long as Telegram asked.
        const seconds = Math.max(1, retryAfter ?? 1);
        const retryAt = now + seconds * 1_000;
        this.limits.retryAfter(message.chat_id, retryAt);
        this.log.warn(
          { messageId: message.id, chatId: message.chat_id, retryAfter: seconds },
          'telegram: 429',
        );
        await markMessageRetry(this.db, message.id, lockedUntil, {
          attempts: message.attempts,
          error: error.description,
          nextAttemptAt: new Date(retryAt).toISOString(),
        });
        return;
      }
      const movedTo = error.parameters.migrate_to_chat_id;
      if (code === 400 && movedTo !== undefined) {
        await moveChat(
          this.db,
          message.integration_id,
          message.chat_id,
          String(movedTo),
          clockIso(this.clock),
        );
        await markMessageRetry(this.db, message.id, lockedUntil, {
          attempts: message.attempts,
          error: error.description,
          nextAttemptAt: clockIso(this.clock),
        });
        return;
      }
      if (chatIsGone(error)) {
        this.log.info(
          { integrationId: message.integration_id, chatId: message.chat_id, error: error.description },
          'telegram: the chat has left the bot, integration blocked',
        );
        await blockIntegration(this.db, message.integration_id, clockIso(this.clock), error.description);
        return;
      }
      if (code >= 400 && code < 500 && code !== 401 && code !== 404) {
        // A request Telegram will never accept (a malformed text): retrying cannot help. 401 and
        // 404 say the bot's token is wrong, which the operator can fix: those are retried.
        this.log.warn({ messageId: message.id, err: error }, 'telegram: message refused, giving up');
        await markMessageDone(this.db, message.id, lockedUntil, {
          status: 'failed',
          attempts: message.attempts + 1,
          error: error.description,
        });
        return;
      }
    }
    const attempts = message.attempts + 1;
    const giveUp = attempts >= TELEGRAM_MAX_ATTEMPTS;
    this.log.warn(
      { messageId: message.id, attempts, err: error },
      giveUp ? 'telegram: message failed, giving up' : 'telegram: message failed, will retry',
    );
    if (giveUp) {
      await markMessageDone(this.db, message.id, lockedUntil, {
        status: 'failed',
        attempts,
        error: description,
      });
    } else {
      await markMessageRetry(this.db, message.id, lockedUntil, {
        attempts,
        error: description,
        nextAttemptAt: new Date(now + retryDelayMs(attempts)).toISOString(),
      });
    }
  }
}
