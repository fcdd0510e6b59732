import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../test/test-app.js';
import { RateLimiter } from './rate-limit.js';

const t = useTestApp();

afterEach(() => {
  vi.useRealTimers();
});

describe('RateLimiter', () => {
  it('never says more than the window is left, when a hit that read the clock later opened it', async () => {
    const limiter = new RateLimiter(t.db);
    const windowMs = 3_600_000;
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start + 5 });
    // This hit read the clock 5 ms after the next one, but its upsert ran first.
    const first = await limiter.hit('test:window', windowMs);
    vi.setSystemTime(start);
    const second = await limiter.hit('test:window', windowMs);
    expect(first).toEqual({ hits: 1, ttlMs: windowMs });
    expect(second.hits).toBe(2);
    expect(second.ttlMs).toBe(windowMs);
  });
});
