import type { Clock, ClockTimer } from '../lib/clock.js';

interface Pending extends ClockTimer {
  due: number;
  callback: () => unknown;
  real: NodeJS.Timeout;
}

/**
 * A clock a test moves on: it runs with the real time (a wait nobody hurries ends as it would),
 * and `advance` jumps it ahead, firing the waits that come due, so a test proves what happens after
 * a second, a `retry_after` or a poll's interval without sleeping through it. The time it gives
 * only moves forward; rows the test writes with the real time stay in the past.
 */
export class TestClock implements Clock {
  private offset = 0;
  private readonly pending = new Set<Pending>();
  private readonly armed = new Set<() => void>();
  /** What fired waits started and has not finished (a look under way). */
  private readonly running = new Set<Promise<unknown>>();

  now(): number {
    return Date.now() + this.offset;
  }

  setTimeout(callback: () => unknown, ms: number): ClockTimer {
    const timer: Pending = {
      due: this.now() + Math.max(0, ms),
      callback,
      real: setTimeout(() => void this.fire(timer), Math.max(0, ms)),
      unref() {
        timer.real.unref();
        return timer;
      },
    };
    this.pending.add(timer);
    for (const notify of [...this.armed]) notify();
    return timer;
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    const pending = timer as Pending | undefined;
    if (!pending || !this.pending.delete(pending)) return;
    clearTimeout(pending.real);
  }

  /**
   * Moves the time on by `ms` and fires the waits due by then, earliest first, each awaited with
   * what it started (a look, a send): when this resolves, what those moments bring has happened.
   */
  async advance(ms: number): Promise<void> {
    this.offset += ms;
    await this.fireDue(this.now());
  }

  /**
   * Fires now, without moving the time, the waits due within `ms` (the live hub's next look): what
   * would have happened after them happens at once, and is awaited.
   */
  async fireWithin(ms: number): Promise<void> {
    // What is under way ends first (a look that then arms its next one); then only the waits
    // pending at that moment fire: a look that arms its next one does not fire it again.
    await Promise.allSettled([...this.running]);
    await this.fireDue(this.now() + ms, new Set(this.pending));
  }

  /**
   * Resolves once something waits on the clock (the sender holding a chat's next message), with
   * the milliseconds until the earliest wait ends: the proof that it waits rather than sends.
   */
  async nextWait(): Promise<number> {
    if (this.pending.size === 0) {
      await new Promise<void>((resolve) => {
        const notify = () => {
          this.armed.delete(notify);
          resolve();
        };
        this.armed.add(notify);
      });
    }
    return Math.min(...[...this.pending].map((timer) => timer.due)) - this.now();
  }

  private async fireDue(until: number, among?: Set<Pending>) {
    for (;;) {
      const next = [...this.pending]
        .filter((timer) => timer.due <= until && (!among || among.has(timer)))
        .sort((a, b) => a.due - b.due)[0];
      if (!next) return;
      await this.fire(next);
    }
  }

  private async fire(timer: Pending) {
    if (!this.pending.delete(timer)) return;
    clearTimeout(timer.real);
    const result = Promise.resolve(timer.callback());
    this.running.add(result);
    try {
      await result;
    } finally {
      this.running.delete(result);
    }
  }
}
