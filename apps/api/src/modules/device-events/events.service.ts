import {
  EVENTS_ENTRY_LIMIT,
  type deviceEventBodySchema,
  type deviceEventUpdateSchema,
  type Filters,
  type Locale,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { notifyEvent } from '@kontrol/domain';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { FieldValidationError, HttpError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, type FilterWhitelist } from '../../lib/pagination.js';
import { toEvent } from './events.presenter.js';
import {
  deleteEvent as deleteEventRow,
  eventsQuery,
  findEvent,
  findOrganisationDevice,
  insertEvent,
  updateEvent as updateEventRow,
} from './events.repository.js';

export type EventInput = z.output<typeof deviceEventBodySchema>;
export type EventUpdate = z.output<typeof deviceEventUpdateSchema>;

const DAY_MS = 86_400_000;
/** The furthest moment a JavaScript date holds (10^8 days from 1970): a later one could never be shown. */
const MAX_MOMENT_MS = 8.64e15;

/**
 * 422 on `started_at` / `ended_at` past what a date holds: the schema takes any run of digits as
 * epoch milliseconds, and such an event, once stored, would break every answer that shows it.
 */
function checkMoments(input: { started_at?: number | null; ended_at?: number | null }) {
  const errors: Record<string, ['field.moment']> = {};
  for (const field of ['started_at', 'ended_at'] as const) {
    const value = input[field];
    if (typeof value === 'number' && !(Math.abs(value) <= MAX_MOMENT_MS)) errors[field] = ['field.moment'];
  }
  if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
}

/** `filters[field]` of `GET /api/devices/events` (docs/api.md). */
export const EVENT_FILTERS: FilterWhitelist = {
  id: { column: 'e.id', type: 'number', operators: ['=', 'in'] },
  device_id: { column: 'e.device_id', type: 'number', operators: ['=', 'in'] },
  device_type_id: { column: 'd.type_id', type: 'number', operators: ['=', 'in'] },
  template_id: { column: 'e.template_id', type: 'number', operators: ['=', 'in'] },
  kind: { column: 'e.kind', type: 'string', operators: ['=', 'in'] },
  severity: { column: 'e.severity', type: 'string', operators: ['=', 'in'] },
  started_at: { column: 'e.started_ts', type: 'moment', operators: ['>=', '<=', 'between'] },
  ended_at: { column: 'e.ended_ts', type: 'moment', operators: ['=', '!=', '>=', '<='] },
  acknowledged_at: { column: 'e.acknowledged_at', type: 'date', operators: ['=', '!='] },
};

/**
 * The events list: newest first. Without `page` (what the console loads on entry) only the open
 * events and those of the last 24 hours, at most EVENTS_ENTRY_LIMIT.
 */
export function eventsListQuery(
  db: Kysely<Database>,
  organisationId: number,
  filters: Filters | undefined,
  entry: boolean,
  now = Date.now(),
) {
  let query = applyFilters(eventsQuery(db, organisationId), filters, EVENT_FILTERS);
  if (entry)
    query = query
      .where((eb) => eb.or([eb('e.ended_ts', 'is', null), eb('e.started_ts', '>=', now - DAY_MS)]))
      .limit(EVENTS_ENTRY_LIMIT);
  return query.orderBy('e.started_ts', 'desc').orderBy('e.id', 'desc');
}

export async function getEvent(db: Kysely<Database>, organisationId: number, id: number, locale: Locale) {
  const row = await findEvent(db, organisationId, id);
  if (!row) throw notFound();
  return toEvent(row, locale);
}

/** A manual event: written by a person, notified like any other. */
export async function createEvent(
  db: Kysely<Database>,
  organisationId: number,
  userId: number,
  input: EventInput,
  locale: Locale,
) {
  const device = await findOrganisationDevice(db, organisationId, input.device_id);
  if (!device) throw new FieldValidationError({ device_id: ['field.exists'] });
  checkMoments(input);
  const startedTs = input.started_at ?? Date.now();
  const endedTs = input.ended_at ?? null;
  if (endedTs !== null && endedTs < startedTs)
    throw new FieldValidationError({ ended_at: ['field.after_start'] });
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const created = await insertEvent(trx, {
      organisation_id: organisationId,
      device_id: device.id,
      template_id: null,
      rule_key: null,
      condition_key: null,
      kind: 'manual',
      severity: input.severity,
      title: input.title,
      description: input.description,
      details: null,
      value: null,
      started_ts: startedTs,
      ended_ts: endedTs,
      created_by: userId,
      created_at: now,
      updated_at: now,
    });
    await notifyEvent(
      trx,
      {
        id: created,
        organisationId,
        deviceId: device.id,
        deviceName: device.name,
        kind: 'manual',
        severity: input.severity,
        title: input.title,
        description: input.description,
        details: null,
        value: null,
        startedTs,
      },
      now,
    );
    return created;
  });
  return getEvent(db, organisationId, id, locale);
}

/**
 * Acknowledges an event (or takes it back), with a comment. A manual event may also change its
 * words, severity and end; a rule's event is closed by its rule only (422 on `ended_at`).
 */
export async function updateEvent(
  db: Kysely<Database>,
  organisationId: number,
  userId: number,
  id: number,
  input: EventUpdate,
  locale: Locale,
) {
  const row = await findEvent(db, organisationId, id);
  if (!row) throw notFound();
  const manual = row.kind === 'manual';
  const errors: Record<string, ['event.rule_closed_by_rule']> = {};
  if (!manual) {
    for (const field of ['title', 'description', 'severity', 'ended_at'] as const)
      if (input[field] !== undefined) errors[field] = ['event.rule_closed_by_rule'];
  }
  if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
  checkMoments(input);
  const endedTs = input.ended_at;
  if (endedTs !== undefined && endedTs !== null && endedTs < Number(row.started_ts))
    throw new FieldValidationError({ ended_at: ['field.after_start'] });
  const now = nowIso();
  const values: Parameters<typeof updateEventRow>[3] = { updated_at: now };
  if (input.acknowledged === true) {
    values.acknowledged_at = now;
    values.acknowledged_by = userId;
    values.ack_comment = input.comment ?? null;
  } else if (input.acknowledged === false) {
    values.acknowledged_at = null;
    values.acknowledged_by = null;
    values.ack_comment = null;
  } else if (input.comment !== undefined && row.acknowledged_at !== null) {
    values.ack_comment = input.comment;
  }
  if (input.title !== undefined) values.title = input.title;
  if (input.description !== undefined) values.description = input.description;
  if (input.severity !== undefined) values.severity = input.severity;
  if (endedTs !== undefined) values.ended_ts = endedTs;
  if (!(await updateEventRow(db, organisationId, id, values))) throw notFound();
  return getEvent(db, organisationId, id, locale);
}

/** Deletes an event. A rule's event that is still open would be opened again by its rule: 409. */
export async function deleteEvent(db: Kysely<Database>, organisationId: number, id: number) {
  const row = await findEvent(db, organisationId, id);
  if (!row) throw notFound();
  if (row.kind !== 'manual' && row.ended_ts === null) throw new HttpError(409, 'event.rule_closed_by_rule');
  await deleteEventRow(db, organisationId, id);
}
