import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Api } from 'grammy';
import type { Kysely } from 'kysely';
import { HttpError } from '@kontrol/server-kit';
import { systemClock, type Clock } from '../../lib/clock.js';
import { grammy } from './telegram.grammy.js';
import { SendLimits } from './telegram.limits.js';
import { UpdatePoller, type PollerOptions } from './telegram.poller.js';
import { TelegramSender } from './telegram.sender.js';
import { handleUpdate } from './telegram.updates.js';

export interface TelegramStartOptions extends Partial<PollerOptions> {
  /** How often the lease holder looks for due messages in the outbox (ms). */
  sendIntervalMs?: number;
}

const DEFAULTS: PollerOptions & { sendIntervalMs: number } = {
  pollTimeoutSeconds: 25,
  leaseMs: 90_000,
  leaseRetryMs: 15_000,
  errorRetryMs: 2_000,
  sendIntervalMs: 2_000,
};
/** Every Bot API request ends within this (a long poll included), well inside a sender's claim. */
const REQUEST_TIMEOUT_SECONDS = 60;
/** A page waiting for the bot's name waits this long at most (ms). */
const GET_ME_TIMEOUT_MS = 5_000;
/** After a failed getMe, the bot's username is not asked for again before this (ms). */
const GET_ME_RETRY_MS = 60_000;

/**
 * The Telegram bot (docs/integrations.md), `app.telegram`: the bot's @username for deep links,
 * the update poller (binding chats) and the outbox sender, both run by the one process of the
 * deployment that holds the bot's lease. Without TELEGRAM_BOT_TOKEN it is not `configured`:
 * nothing runs and the outbox's messages stay pending.
 */
export class TelegramService {
  readonly configured: boolean;
  private readonly api: Api | undefined;
  private readonly limits: SendLimits;
  private readonly sender: TelegramSender | undefined;
  private poller: UpdatePoller | undefined;
  private timer: NodeJS.Timeout | undefined;
  private username: string | undefined;
  private usernameFailedAt = 0;
  private usernameLookup: Promise<string> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    options: { token: string | undefined; apiRoot: string },
    /** The sender's and its limits' time (tests move it on: test/clock.ts). */
    clock: Clock = systemClock,
  ) {
    this.configured = Boolean(options.token);
    this.limits = new SendLimits(() => clock.now());
    this.api = options.token
      ? new (grammy().Api)(options.token, {
          apiRoot: options.apiRoot,
          timeoutSeconds: REQUEST_TIMEOUT_SECONDS,
        })
      : undefined;
    this.sender = this.api ? new TelegramSender(db, this.api, log, clock, this.limits) : undefined;
  }

  /** The bot's @username (getMe, asked once); a 503 when Telegram cannot be reached. */
  async botUsername(): Promise<string> {
    const api = this.api;
    if (!api) throw new Error('telegram: no bot is configured');
    if (this.username) return this.username;
    this.usernameLookup ??= api
      .getMe(AbortSignal.timeout(GET_ME_TIMEOUT_MS) as unknown as Parameters<Api['getMe']>[0])
      .then((me) => {
        this.username = me.username;
        return me.username;
      })
      .catch((error: unknown) => {
        this.usernameFailedAt = Date.now();
        this.log.warn({ err: error }, 'telegram: getMe failed');
        throw new HttpError(503, 'http.unavailable');
      })
      .finally(() => {
        this.usernameLookup = undefined;
      });
    return this.usernameLookup;
  }

  /**
   * The bot's @username when it is known or can be learnt now; undefined without a bot, or while
   * Telegram is unreachable (asked again a minute after a failure).
   */
  async knownBotUsername(): Promise<string | undefined> {
    if (!this.api) return undefined;
    if (this.username) return this.username;
    if (Date.now() - this.usernameFailedAt < GET_ME_RETRY_MS) return undefined;
    return this.botUsername().catch(() => undefined);
  }

  /** Sends the outbox's due messages now (tests; the running sender does it every tick). */
  drain(): Promise<void> {
    return this.sender?.drain() ?? Promise.resolve();
  }

  /**
   * Tells the sender new messages are waiting, so the lease holder sends them now rather than at
   * its next tick; in any other process the holder finds them within `sendIntervalMs`.
   */
  wake(): void {
    if (this.timer && this.poller?.holdsLease) setImmediate(() => this.drainInBackground());
  }

  /** Polls for updates and sends the outbox while this process holds the bot's lease. */
  start(options: TelegramStartOptions = {}): void {
    const api = this.api;
    if (!api || this.poller) return;
    const settings = { ...DEFAULTS, ...options };
    const poller = new UpdatePoller(
      this.db,
      api,
      this.log,
      async (update) =>
        handleUpdate(
          {
            db: this.db,
            api,
            log: this.log,
            botUsername: await this.knownBotUsername(),
            onSend: (chatId) => this.limits.sending(chatId),
          },
          update,
        ),
      settings,
    );
    this.poller = poller;
    poller.start();
    this.timer = setInterval(() => {
      if (poller.holdsLease) this.drainInBackground();
    }, settings.sendIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([this.poller?.stop(), this.sender?.stop()]);
  }

  /** A failed round (database unreachable) is logged and retried at the next tick, never thrown. */
  private drainInBackground(): void {
    this.drain().catch((error: unknown) => {
      this.log.error({ err: error }, 'telegram sender could not read the outbox, will try again');
    });
  }
}
