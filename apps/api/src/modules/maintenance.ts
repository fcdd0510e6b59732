import { utcDay } from '@kontrol/contracts';
import { ensureSamplePartitions, sampleDay } from '@kontrol/db';
import type { FastifyInstance } from 'fastify';
import { purgeExpiredSessions } from './auth/sessions.repository.js';
import { purgeExpiredTokens } from './auth/tokens.repository.js';
import { purgeOldIngestDays, purgeOldTelemetry } from './telemetry/telemetry.repository.js';

const DAY_MS = 86_400_000;
/** Days the device limits' counts are kept (the console shows the last 7). */
const INGEST_DAYS_KEPT = 30;

/**
 * Removes expired sessions, tokens and rate-limit windows, telemetry past its retention
 * (TELEMETRY_RAW_DAYS, TELEMETRY_MINUTE_DAYS) and the device limits' counts after 30 days; makes
 * the coming days' partitions of raw samples. Idempotent; any instance may run it.
 */
export async function purgeExpired(app: FastifyInstance, now = Date.now()) {
  const iso = new Date(now).toISOString();
  await purgeExpiredSessions(app.db, iso);
  await purgeExpiredTokens(app.db, iso);
  await app.rateLimiter.purgeExpired();
  await purgeOldTelemetry(app.db, {
    rawBefore: now - app.config.telemetryRawDays * DAY_MS,
    minuteBefore: now - app.config.telemetryMinuteDays * DAY_MS,
  });
  await purgeOldIngestDays(app.db, utcDay(now - INGEST_DAYS_KEPT * DAY_MS));
  // Today's and tomorrow's partitions of raw samples ahead of their first samples (PostgreSQL; the
  // gateway makes one itself if it is still missing then).
  await ensureSamplePartitions(app.db, [sampleDay(now), sampleDay(now) + 1]);
}
