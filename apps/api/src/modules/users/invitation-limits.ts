import { HttpError } from '@kontrol/server-kit';
import type { RateLimiter } from '../../plugins/rate-limit.js';
import type { CurrentUser } from './users.repository.js';

/**
 * E-mails to addresses nobody has proven yet, sent because someone in an organisation asked:
 * invitations (new, sent again, or to a changed address) and the confirmation of a changed
 * address. Each is a message to a stranger's inbox, so they are limited per organisation
 * (INVITES_PER_HOUR, INVITES_PER_DAY; docs/people.md, docs/security.md).
 */
export interface InvitationLimits {
  perHour: number;
  perDay: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Inviting is for people whose own e-mail is proven: 403 `users.verify_first` otherwise. */
export function requireVerifiedInviter(inviter: CurrentUser) {
  if (!inviter.emailVerifiedAt) throw new HttpError(403, 'users.verify_first');
}

/**
 * Counts one such e-mail for the organisation before it is written to the outbox; over either
 * limit, 429 with `Retry-After` and the minutes to wait. Each count is one atomic upsert of the
 * shared `rate_limits` table, so parallel requests on any number of API processes get distinct
 * counts and no more than the limit pass.
 */
export async function countInvitation(
  limiter: RateLimiter,
  organisationId: number,
  limits: InvitationLimits,
) {
  const hour = await limiter.hit(`invitations:org:${organisationId}:hour`, HOUR_MS);
  if (hour.hits > limits.perHour) throw throttled(hour.ttlMs);
  const day = await limiter.hit(`invitations:org:${organisationId}:day`, DAY_MS);
  if (day.hits > limits.perDay) throw throttled(day.ttlMs);
}

function throttled(ttlMs: number) {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new HttpError(
    429,
    'users.invitations_throttle',
    { seconds, minutes: Math.ceil(seconds / 60) },
    { 'retry-after': String(seconds) },
  );
}
