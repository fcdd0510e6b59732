import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Api } from 'grammy';
import type { Update } from 'grammy/types';
import type { Kysely } from 'kysely';
import { hostname } from 'node:os';
import { randomSecret } from '../../lib/crypto.js';
import { grammy } from './telegram.grammy.js';
import { acquireLease, releaseLease } from './telegram.repository.js';
import { ALLOWED_UPDATES } from './telegram.updates.js';

/** The `job_leases` row of the bot: its holder polls Telegram for updates and sends the outbox. */
export const BOT_LEASE = 'telegram-updates';

export interface PollerOptions {
  /** getUpdates' long-poll timeout (s): Telegram holds the request this long when it has nothing. */
  pollTimeoutSeconds: number;
  /** How long a taken or renewed lease lasts (ms); renewed before every poll, so well above a poll. */
  leaseMs: number;
  /** How often a process without the lease looks whether it has become free (ms). */
  leaseRetryMs: number;
  /** The wait after a failed poll (ms), doubled up to a minute while polls keep failing. */
  errorRetryMs: number;
}

/**
 * Long polling for the bot's updates, by one process of the deployment at a time: Telegram answers
 * 409 to a second getUpdates of the same bot. The process that holds the lease `telegram-updates`
 * in `job_leases` polls and renews it before each poll; the others look every `leaseRetryMs`
 * whether it expired (its holder died) and take it over. A clean stop gives it up at once.
 */
export class UpdatePoller {
  /** This process's name in `job_leases`. */
  readonly holder = `${hostname().slice(0, 60)}:${process.pid}:${randomSecret(9)}`;
  private offset: number | undefined;
  private leaseValidUntil = 0;
  private everHeld = false;
  private failures = 0;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly api: Api,
    private readonly log: FastifyBaseLogger,
    private readonly handle: (update: Update) => Promise<void>,
    private readonly options: PollerOptions,
  ) {}

  /** True while this process holds the lease (with a margin for the clocks of the processes). */
  get holdsLease(): boolean {
    return Date.now() < this.leaseValidUntil;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Cuts the poll under way short, waits for the loop to end and gives up the lease. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    this.leaseValidUntil = 0;
    if (this.everHeld) {
      await releaseLease(this.db, BOT_LEASE, this.holder).catch((error: unknown) => {
        this.log.warn({ err: error }, 'telegram: could not give up the polling lease');
      });
    }
  }

  private get stopped() {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (!(await this.renewLease())) {
          await this.sleep(this.options.leaseRetryMs);
          continue;
        }
        await this.pollOnce();
        this.failures = 0;
      } catch (error) {
        if (this.stopped) break;
        this.failures += 1;
        await this.sleep(this.failed(error));
      }
    }
  }

  private async renewLease(): Promise<boolean> {
    const now = Date.now();
    const held = await acquireLease(
      this.db,
      BOT_LEASE,
      this.holder,
      new Date(now).toISOString(),
      new Date(now + this.options.leaseMs).toISOString(),
    );
    if (held && !this.everHeld)
      this.log.info({ holder: this.holder }, 'telegram: this process polls the bot');
    this.everHeld ||= held;
    // A tenth of the lease is kept as a margin: the sender stops before another process may start.
    this.leaseValidUntil = held ? now + this.options.leaseMs * 0.9 : 0;
    return held;
  }

  /** One getUpdates; its updates are handled in order, each confirmed by the next call's offset. */
  private async pollOnce(): Promise<void> {
    const updates = await this.api.getUpdates(
      {
        offset: this.offset,
        timeout: this.options.pollTimeoutSeconds,
        allowed_updates: [...ALLOWED_UPDATES],
      },
      // grammY types its signal as the abort-controller package's; Node's own works the same.
      this.abort.signal as unknown as Parameters<Api['getUpdates']>[1],
    );
    for (const update of updates) {
      // A failure leaves the offset before this update, so the next poll brings it again.
      await this.handle(update);
      this.offset = update.update_id + 1;
    }
  }

  /** Logs a failed poll and says how long to wait before the next one. */
  private failed(error: unknown): number {
    const backoff = Math.min(this.options.errorRetryMs * 2 ** (this.failures - 1), 60_000);
    if (error instanceof grammy().GrammyError) {
      if (error.error_code === 409 && /webhook/i.test(error.description)) {
        // The bot had a webhook: long polling needs it gone (as grammY's own bot.start() does).
        this.log.warn('telegram: the bot has a webhook; deleting it to poll for updates');
        this.api.deleteWebhook().catch((cause: unknown) => {
          this.log.error({ err: cause }, 'telegram: could not delete the webhook');
        });
        return this.options.errorRetryMs;
      }
      if (error.error_code === 409) {
        // Another getUpdates of this bot: a takeover under way, or another deployment with the same token.
        this.log.warn({ error: error.description }, 'telegram: another process polls this bot');
        return backoff;
      }
      if (error.error_code === 429) return Math.max(1, error.parameters.retry_after ?? 1) * 1_000;
      if (error.error_code === 401 || error.error_code === 404) {
        this.log.error('telegram: the bot token was refused (TELEGRAM_BOT_TOKEN); retrying in a minute');
        return 60_000;
      }
    }
    this.log.warn({ err: error }, 'telegram: polling for updates failed, will retry');
    return backoff;
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.abort.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.abort.signal.addEventListener('abort', done);
    });
  }
}
