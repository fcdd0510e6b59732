import { LIVE_PATH } from '@kontrol/contracts';
import { expect } from 'vitest';
import type { TestClient } from './http-client.js';

/** Test support: a browser's EventSource on `GET /api/live`, by hand, over a real socket. */

export interface LiveEvent {
  event: string;
  id: string | undefined;
  data: unknown;
}

/** The parsed events of one stream as they arrive. */
export class Stream {
  readonly events: LiveEvent[] = [];
  /** Set when the server ended the stream. */
  ended: Promise<void> | undefined;
  endedAt: number | undefined;
  constructor(readonly status: number) {}

  /** Resolves when the server ends the stream; fails the test if it has not within `timeoutMs`. */
  async waitForEnd(timeoutMs = 8_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the server did not end the stream')), timeoutMs);
    });
    try {
      await Promise.race([this.ended, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async waitFor(predicate: (event: LiveEvent) => boolean, timeoutMs = 8_000): Promise<LiveEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(this.events)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Opens a stream at `origin` with the client's cookies (and `headers`); `controller` aborts it at
 * the end of the test.
 */
export async function connectLive(
  origin: string,
  controller: AbortController,
  client: TestClient,
  query = '',
  headers: Record<string, string> = {},
): Promise<Stream> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(`${origin}${LIVE_PATH}${query}`, {
    headers: { cookie, ...headers },
    signal: controller.signal,
  });
  const stream = new Stream(response.status);
  if (response.status !== 200 || !response.body) {
    await response.body?.cancel();
    return stream;
  }
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          stream.endedAt = Date.now();
          return;
        }
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          const data = fields.get('data');
          if (data !== undefined)
            stream.events.push({
              event: fields.get('event') ?? 'message',
              id: fields.get('id'),
              data: JSON.parse(data),
            });
        }
      }
    } catch {
      // Aborted at the end of the test: never resolves as "ended by the server". Otherwise the
      // server reset the connection, which ends the stream as well.
      if (controller.signal.aborted) await new Promise(() => undefined);
      stream.endedAt = Date.now();
    }
  })();
  return stream;
}
