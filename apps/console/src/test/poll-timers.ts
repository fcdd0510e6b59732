import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { queryClient } from '../lib/query-client';

/**
 * For a test file of a page that polls: its timers are Vitest's fake ones, which run with the real
 * time and which {@link passPolls} moves on, so a poll's interval passes at once.
 */
export function fakePollTimers() {
  beforeEach(() => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/**
 * `polls` intervals of `intervalMs` pass and every request they started has been answered: a poll
 * starts its request at once, so none can still be on its way unnoticed.
 */
export async function passPolls(intervalMs: number, polls = 1) {
  await act(() => vi.advanceTimersByTimeAsync(polls * intervalMs));
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
}
