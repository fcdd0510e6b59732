/** A pending call of {@link Clock.setTimeout}; `unref` lets the process exit while it waits. */
export interface ClockTimer {
  unref(): ClockTimer;
}

/**
 * The time and the waits of a part that runs on its own timers (the Telegram sender and its
 * limits, the live hub's looks): the system's in production, a test's own clock in tests
 * (test/clock.ts), which moves time on or fires a wait at once instead of sleeping.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `callback` once `ms` have passed; what it returns (a promise) a test's clock may wait for. */
  setTimeout(callback: () => unknown, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer | undefined): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};

/** The clock's moment as ISO 8601 (what the database's text timestamps hold). */
export function clockIso(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
