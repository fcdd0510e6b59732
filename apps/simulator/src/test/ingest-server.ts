import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny stand-in for Kontrol's ingest endpoint: stores samples per credential, deduplicated by
 * timestamp as the real server does, answers 202, 401 for the credential "bad", and 503 as many
 * times as asked first.
 */
export interface IngestServer {
  url: string;
  /** Samples stored, per credential, by timestamp. */
  stored: Map<string, Map<number, Record<string, unknown>>>;
  requests: number;
  /** The next `count` requests get a 503. */
  failNext(count: number): void;
  close(): Promise<void>;
}

export async function startIngestServer(): Promise<IngestServer> {
  let failuresLeft = 0;
  const state: Pick<IngestServer, 'stored' | 'requests'> = { stored: new Map(), requests: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.requests += 1;
      const answer = (status: number, body?: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (request.method !== 'POST' || request.url !== '/api/ingest/v1/telemetry') return answer(404);
      const credential = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!credential || credential === 'bad') return answer(401, { error: { code: 'unauthorized' } });
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        return answer(503);
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      const samples = (Array.isArray(body) ? body : [body]) as Array<Record<string, unknown>>;
      let stored = state.stored.get(credential);
      if (!stored) {
        stored = new Map<number, Record<string, unknown>>();
        state.stored.set(credential, stored);
      }
      let duplicates = 0;
      for (const sample of samples) {
        if (stored.has(sample.ts as number)) duplicates += 1;
        else stored.set(sample.ts as number, sample);
      }
      answer(202, { data: { accepted: samples.length - duplicates, duplicates, rejected: [] } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get stored() {
      return state.stored;
    },
    get requests() {
      return state.requests;
    },
    failNext(count) {
      failuresLeft = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
