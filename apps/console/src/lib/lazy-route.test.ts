import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, isChunkLoadError, loadChunk } from './lazy-route';

describe('loadChunk', () => {
  it('hands on the module when it arrives in time', async () => {
    await expect(loadChunk(() => Promise.resolve({ Page: 1 }))).resolves.toEqual({ Page: 1 });
  });

  it('raises a chunk load error when the import fails', async () => {
    const error = await loadChunk(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    ).catch((e: unknown) => e);
    expect(isChunkLoadError(error)).toBe(true);
  });

  it('raises a chunk load error after 120 000 ms without an answer (docs/contract.md, "Constants and limits")', async () => {
    vi.useFakeTimers();
    try {
      const pending = loadChunk(() => new Promise<never>(() => undefined));
      const outcome = pending.catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(119_999);
      let settled = false;
      void outcome.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBeInstanceOf(ChunkLoadError);
    } finally {
      vi.useRealTimers();
    }
  });
});
