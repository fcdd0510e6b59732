import { CHUNK_LOAD_TIMEOUT_MS } from '@kontrol/contracts';

/** A script chunk that did not load (missing after a deploy, network failure, or too slow). */
export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super('A part of the application could not be loaded', { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Loads a route's module on demand; fails with {@link ChunkLoadError} when the import fails or
 * takes longer than docs/contract.md, "Constants and limits"'s 120 000 ms, so the error page can offer a reload.
 */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ChunkLoadError(new Error(`timed out after ${timeoutMs} ms`))),
      timeoutMs,
    );
  });
  return Promise.race([load(), timeout])
    .catch((error: unknown) => {
      throw error instanceof ChunkLoadError ? error : new ChunkLoadError(error);
    })
    .finally(() => clearTimeout(timer));
}

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof ChunkLoadError;
}
