import type { Database } from '@kontrol/db';
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { tooManyRequests } from '@kontrol/server-kit';

export interface Hit {
  hits: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

/**
 * Fixed-window counters kept in the database, so every API instance sees the same counts. One
 * upsert per hit; both SQLite and PostgreSQL do it atomically.
 */
export class RateLimiter {
  constructor(private readonly db: Kysely<Database>) {}

  async hit(key: string, windowMs: number): Promise<Hit> {
    const now = Date.now();
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, hits: 1, reset_at: now + windowMs })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          hits: eb
            .case()
            .when('rate_limits.reset_at', '<=', now)
            .then(1)
            .else(eb('rate_limits.hits', '+', 1))
            .end(),
          reset_at: eb
            .case()
            .when('rate_limits.reset_at', '<=', now)
            .then(now + windowMs)
            .else(eb.ref('rate_limits.reset_at'))
            .end(),
        })),
      )
      .returning(['hits', 'reset_at'])
      .executeTakeFirstOrThrow();
    // Concurrent hits read the clock before their upserts run, so the window may have been opened
    // by a hit that read it later than this one: what is left is still never more than the window.
    return { hits: row.hits, ttlMs: Math.min(windowMs, Math.max(0, row.reset_at - now)) };
  }

  async peek(key: string): Promise<Hit> {
    const now = Date.now();
    const row = await this.db
      .selectFrom('rate_limits')
      .select(['hits', 'reset_at'])
      .where('key', '=', key)
      .where('reset_at', '>', now)
      .executeTakeFirst();
    return row ? { hits: row.hits, ttlMs: row.reset_at - now } : { hits: 0, ttlMs: 0 };
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  async purgeExpired(): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('reset_at', '<=', Date.now()).execute();
  }
}

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** @fastify/rate-limit's store interface over {@link RateLimiter}; `prefix` keeps routes apart. */
function storeFor(limiter: RateLimiter, prefix = 'route') {
  return class DatabaseStore {
    incr(key: string, callback: IncrCallback, timeWindow: number) {
      limiter.hit(`${prefix}:${key}`, timeWindow).then(
        (hit) => callback(null, { current: hit.hits, ttl: hit.ttlMs }),
        (error: Error) => callback(error),
      );
    }
    child(routeOptions: object) {
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      const Child = storeFor(limiter, `${route?.method ?? ''}${route?.url ?? ''}`);
      return new Child();
    }
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
  }
}

/**
 * Registers @fastify/rate-limit on the shared database store. Nothing is limited globally; a route
 * opts in with `config: {rateLimit: {max, timeWindow}}`.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const limiter = new RateLimiter(app.db);
    app.decorate('rateLimiter', limiter);
    await app.register(rateLimit, {
      global: false,
      store: storeFor(limiter),
      errorResponseBuilder: (_request, context) => tooManyRequests(Math.ceil(context.ttl / 1000)),
    });
  },
  { name: 'rate-limit', dependencies: ['db'] },
);
