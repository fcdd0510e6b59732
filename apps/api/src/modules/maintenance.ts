import type { FastifyInstance } from 'fastify';
import { nowIso } from '../lib/time.js';
import { purgeExpiredSessions } from './auth/sessions.repository.js';
import { purgeExpiredTokens } from './auth/tokens.repository.js';

/** Removes expired sessions, tokens and rate-limit windows. Idempotent; any instance may run it. */
export async function purgeExpired(app: FastifyInstance) {
  const now = nowIso();
  await purgeExpiredSessions(app.db, now);
  await purgeExpiredTokens(app.db, now);
  await app.rateLimiter.purgeExpired();
}
