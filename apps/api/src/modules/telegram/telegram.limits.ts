/**
 * Telegram's limits for a bot (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this):
 * about one message per second in a chat and about 30 per second overall. Kontrol keeps under
 * them, and after a 429 waits the `retry_after` it was given before that chat's next message.
 */
export const PER_CHAT_INTERVAL_MS = 1_000;
export const GLOBAL_PER_SECOND = 25;

/** When each chat may get its next message, and the moments of the last second's sends. */
export class SendLimits {
  private readonly chatReadyAt = new Map<string, number>();
  private readonly recent: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Chats that must wait now, and the moment the first of them may go. */
  waiting(): { chats: string[]; nextReadyAt: number | undefined } {
    const now = this.now();
    const chats: string[] = [];
    let nextReadyAt: number | undefined;
    for (const [chat, readyAt] of this.chatReadyAt) {
      if (readyAt <= now) {
        this.chatReadyAt.delete(chat);
        continue;
      }
      chats.push(chat);
      nextReadyAt = nextReadyAt === undefined ? readyAt : Math.min(nextReadyAt, readyAt);
    }
    return { chats, nextReadyAt };
  }

  /** How long to wait before the next message may go without passing the overall limit. */
  globalDelayMs(): number {
    const now = this.now();
    while (this.recent.length > 0 && (this.recent[0] ?? 0) <= now - 1_000) this.recent.shift();
    if (this.recent.length < GLOBAL_PER_SECOND) return 0;
    return (this.recent[0] ?? now) + 1_000 - now;
  }

  /** A message goes to `chat` now: it counts for the overall limit and holds the chat for a second. */
  sending(chat: string): void {
    const now = this.now();
    this.recent.push(now);
    this.holdChat(chat, now + PER_CHAT_INTERVAL_MS);
  }

  /** Telegram asked to wait (a 429's `retry_after`): nothing goes to this chat before `until` (ms). */
  retryAfter(chat: string, until: number): void {
    this.holdChat(chat, until);
  }

  private holdChat(chat: string, until: number) {
    this.chatReadyAt.set(chat, Math.max(this.chatReadyAt.get(chat) ?? 0, until));
  }
}
