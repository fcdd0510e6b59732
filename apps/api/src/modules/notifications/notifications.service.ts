import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { FieldValidationError } from '../../lib/http-errors.js';
import { nowIso } from '../../lib/time.js';
import { countOwn, countUnread, markRead } from './notifications.repository.js';

interface Caller {
  id: number;
  organisationId: number;
}

/**
 * Marks the caller's notifications read: those in `ids` (each must be the caller's own, or the
 * request is a 422 on `ids` and nothing changes), or all of them. Already read ones keep their time.
 */
export async function markNotificationsRead(db: Kysely<Database>, caller: Caller, ids: number[] | undefined) {
  const unique = ids ? [...new Set(ids)] : undefined;
  if (unique && (await countOwn(db, caller.organisationId, caller.id, unique)) !== unique.length)
    throw new FieldValidationError({ ids: ['field.exists'] });
  const marked = await markRead(db, caller.organisationId, caller.id, unique, nowIso());
  return { marked, unread: await countUnread(db, caller.organisationId, caller.id) };
}

export async function unreadNotifications(db: Kysely<Database>, caller: Caller) {
  return { unread: await countUnread(db, caller.organisationId, caller.id) };
}
