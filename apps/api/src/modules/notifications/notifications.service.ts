import { isTimeZone, type Filters, type Locale } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { FieldValidationError } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, paginate } from '../../lib/pagination.js';
import { findDeviceZones } from '../telemetry/telemetry.repository.js';
import { notificationsWorkbook } from './notifications.export.js';
import { toNotification } from './notifications.presenter.js';
import {
  countOwn,
  countUnread,
  markRead,
  NOTIFICATION_FILTERS,
  userNotifications,
} from './notifications.repository.js';

interface Caller {
  id: number;
  organisationId: number;
}

/** The caller's own notifications, filtered, newest first by when what they tell of happened; one page. */
export async function listNotifications(
  db: Kysely<Database>,
  request: FastifyRequest,
  caller: Caller,
  query: { page: number; per_page: number; filters?: Filters | undefined },
) {
  const rows = applyFilters(
    userNotifications(db, caller.organisationId, caller.id),
    query.filters,
    NOTIFICATION_FILTERS,
  )
    .orderBy('notifications.occurred_at', 'desc')
    .orderBy('notifications.id', 'desc');
  const page = await paginate(request, rows, query);
  return { ...page, data: page.data.map(toNotification) };
}

/**
 * The caller's filtered notifications as an .xlsx stream (notifications.export.ts); times at each
 * device's address, else in `timeZone` (a 422 on `tz` when it is not a time zone).
 */
export function notificationsDownload(
  db: Kysely<Database>,
  caller: Caller,
  options: { filters?: Filters | undefined; timeZone: string; locale: Locale; log: FastifyBaseLogger },
) {
  if (!isTimeZone(options.timeZone)) throw new FieldValidationError({ tz: ['field.time_zone'] });
  const rows = applyFilters(
    userNotifications(db, caller.organisationId, caller.id),
    options.filters,
    NOTIFICATION_FILTERS,
  );
  return notificationsWorkbook(rows, {
    timeZone: options.timeZone,
    locale: options.locale,
    log: options.log,
    deviceZones: async (ids) =>
      new Map((await findDeviceZones(db, caller.organisationId, ids)).map((row) => [row.id, row.time_zone])),
  });
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
