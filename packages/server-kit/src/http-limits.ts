import type { FastifyInstance } from 'fastify';

/**
 * What one HTTP client can hold of a Kontrol server (docs/operations.md, "Limits"), for the API's
 * and the gateway's servers alike.
 */
export const HTTP_TIMEOUTS = {
  /** A connection that sends and receives nothing for this long is closed (live streams ping every 15 s). */
  connectionTimeoutMs: 60_000,
  /** A request must have arrived whole, body included, within this long (5 MB at 1 Mbit/s takes 40 s). */
  requestTimeoutMs: 120_000,
  /** Its headers within this long: a client that trickles them (slowloris) is cut off. */
  headersTimeoutMs: 10_000,
  /** How often Node looks for requests past those deadlines (its default is 30 s). */
  checkEveryMs: 2_000,
};

/** Fastify's options for {@link HTTP_TIMEOUTS}. */
export const httpTimeoutOptions = {
  connectionTimeout: HTTP_TIMEOUTS.connectionTimeoutMs,
  requestTimeout: HTTP_TIMEOUTS.requestTimeoutMs,
  http: { connectionsCheckingInterval: HTTP_TIMEOUTS.checkEveryMs },
};

/**
 * What Fastify has no option for: the headers' deadline, and the most connections the server keeps
 * open at once (HTTP_MAX_CONNECTIONS); past it Node closes a new connection at once.
 */
export function limitHttpServer(app: FastifyInstance, maxConnections: number): void {
  app.server.headersTimeout = HTTP_TIMEOUTS.headersTimeoutMs;
  app.server.maxConnections = maxConnections;
}
