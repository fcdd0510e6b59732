import {
  canMoveComplaint,
  type Complaint,
  type complaintBodySchema,
  type ComplaintEvent,
  type complaintEventBodySchema,
  type ComplaintStatus,
  type Filters,
  type Locale,
  type MessageKey,
  type MessageParams,
} from '@kontrol/contracts';
import type { ComplaintsTable, Database } from '@kontrol/db';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { z } from 'zod';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { applyFilters, type FilterWhitelist } from '../../lib/pagination.js';
import {
  complaintStatusName,
  notifyComplaintChanges,
  type ComplaintChange,
} from './complaint-notifications.service.js';
import { toComplaint, toComplaintEvent } from './complaints.presenter.js';
import {
  complaintsQuery,
  findComplaint,
  findComplaintEvents,
  findComplaintEventsByIds,
  findOrganisationAddress,
  findOrganisationDevice,
  findOrganisationPhotos,
  findOrganisationUser,
  findSubjectNames,
  insertComplaint,
  insertComplaintEvent,
  updateComplaint,
} from './complaints.repository.js';

export type ComplaintInput = z.output<typeof complaintBodySchema>;
export type ComplaintEventInput = z.output<typeof complaintEventBodySchema>;

/** Who makes a change: a signed-in user holding module `requests`. */
export interface ComplaintActor {
  id: number;
  organisationId: number;
  name: string;
}

/** `filters[field]` of `GET /api/alerts/` (docs/complaints.md). */
export const COMPLAINT_FILTERS: FilterWhitelist = {
  status: { column: 'complaints.status', type: 'string', operators: ['=', 'in'] },
  priority: { column: 'complaints.priority', type: 'string', operators: ['=', 'in'] },
  device_id: { column: 'complaints.device_id', type: 'number', operators: ['=', 'in'] },
  address_id: { column: 'complaints.address_id', type: 'number', operators: ['=', 'in'] },
  assignee_id: { column: 'complaints.assignee_id', type: 'number', operators: ['=', 'in'] },
  title: { column: 'complaints.title', type: 'string', operators: ['like'] },
  created_at: { column: 'complaints.created_at', type: 'date', operators: ['>=', '<=', 'between'] },
};

/** The organisation's complaints through the filters, newest first. */
export function complaintsListQuery(
  db: Kysely<Database>,
  organisationId: number,
  filters: Filters | undefined,
) {
  return applyFilters(complaintsQuery(db, organisationId), filters, COMPLAINT_FILTERS)
    .orderBy('complaints.created_at', 'desc')
    .orderBy('complaints.id', 'desc');
}

export async function getComplaint(
  db: Kysely<Database>,
  organisationId: number,
  id: number,
): Promise<Complaint> {
  const row = await findComplaint(db, organisationId, id);
  if (!row) throw notFound();
  return toComplaint(row);
}

/** A complaint's timeline, oldest first; 404 for a complaint the organisation does not have. */
export async function listComplaintEvents(
  db: Kysely<Database>,
  organisationId: number,
  id: number,
): Promise<ComplaintEvent[]> {
  if (!(await findComplaint(db, organisationId, id))) throw notFound();
  return (await findComplaintEvents(db, organisationId, id)).map(toComplaintEvent);
}

/** Field → messages, collected so one answer names every problem of a body. */
class Problems {
  readonly fields: Record<string, MessageKey[]> = {};
  readonly fieldParams: Record<string, MessageParams> = {};
  add(field: string, key: MessageKey, params?: MessageParams) {
    (this.fields[field] ??= []).push(key);
    if (params) this.fieldParams[field] = params;
  }
  throwIfAny() {
    if (Object.keys(this.fields).length > 0)
      throw new FieldValidationError(this.fields, {}, this.fieldParams);
  }
}

/**
 * Whether the user may be given complaints: an active user of the organisation holding module
 * `requests` (`field.exists` for a user it does not have, else `complaint.assignee`).
 */
async function checkAssignee(
  db: Transaction<Database>,
  organisationId: number,
  userId: number,
  problems: Problems,
) {
  const user = await findOrganisationUser(db, organisationId, userId, 'requests');
  if (!user) problems.add('assignee_id', 'field.exists');
  else if (user.disabled_at !== null || !user.holds_module) problems.add('assignee_id', 'complaint.assignee');
  return user;
}

/** The distinct photo names, each one the organisation uploaded (else 422 on `photos`). */
async function checkPhotos(
  db: Transaction<Database>,
  organisationId: number,
  photos: readonly string[],
  problems: Problems,
) {
  const unique = [...new Set(photos)];
  const found = await findOrganisationPhotos(db, organisationId, unique);
  if (found.size !== unique.length) problems.add('photos', 'complaint.photo');
  return unique;
}

/** A device, address or user deleted between the check and the write: the foreign key refuses; a 422. */
async function saving<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new FieldValidationError({ device_id: ['field.exists'] });
    throw error;
  }
}

/**
 * `POST /api/alerts/`: a new complaint about a device of the organisation (its address is the
 * device's) or one of its addresses, status `new`, with a `created` timeline entry; the holders of
 * `requests` are told (docs/complaints.md).
 */
export async function createComplaint(
  db: Kysely<Database>,
  actor: ComplaintActor,
  input: ComplaintInput,
): Promise<Complaint> {
  const organisationId = actor.organisationId;
  const id = await saving(() =>
    db.transaction().execute(async (trx) => {
      const problems = new Problems();
      const device =
        input.device_id === null
          ? undefined
          : await findOrganisationDevice(trx, organisationId, input.device_id);
      if (input.device_id !== null && !device) problems.add('device_id', 'field.exists');
      const address =
        input.address_id === null
          ? undefined
          : await findOrganisationAddress(trx, organisationId, input.address_id);
      if (input.address_id !== null && !address) problems.add('address_id', 'field.exists');
      if (device && address && device.address_id !== address.id)
        problems.add('address_id', 'complaint.device_address');
      if (input.assignee_id !== null) await checkAssignee(trx, organisationId, input.assignee_id, problems);
      const photos = await checkPhotos(trx, organisationId, input.photos, problems);
      problems.throwIfAny();

      const now = nowIso();
      const addressId = device ? device.address_id : (address?.id ?? null);
      const complaintId = await insertComplaint(trx, {
        organisation_id: organisationId,
        title: input.title,
        text: input.text,
        priority: input.priority,
        status: 'new',
        device_id: device?.id ?? null,
        address_id: addressId,
        author_id: actor.id,
        assignee_id: input.assignee_id,
        photos: JSON.stringify(photos),
        comments_count: 0,
        created_at: now,
        updated_at: now,
        resolved_at: null,
      });
      await insertComplaintEvent(trx, {
        organisation_id: organisationId,
        complaint_id: complaintId,
        kind: 'created',
        author_id: actor.id,
        text: null,
        from_status: null,
        to_status: 'new',
        assignee_id: input.assignee_id,
        priority: input.priority,
        photos: '[]',
        created_at: now,
      });
      await notifyComplaintChanges(
        trx,
        {
          organisationId,
          complaintId,
          title: input.title,
          priority: input.priority,
          deviceId: device?.id ?? null,
          subject: device?.name ?? address?.name ?? `#${complaintId}`,
          actor: { id: actor.id, name: actor.name },
          now,
        },
        [{ kind: 'created', text: input.text, assigneeId: input.assignee_id }],
      );
      return complaintId;
    }),
  );
  return getComplaint(db, organisationId, id);
}

/** The two statuses of a refused move, named in the caller's language. */
const transitionParams = (from: ComplaintStatus, to: ComplaintStatus, locale: Locale) => ({
  from: complaintStatusName(locale, from),
  to: complaintStatusName(locale, to),
});

/** 422 on `status`: the complaint cannot go from `from` to `to`. */
const transitionRefused = (from: ComplaintStatus, to: ComplaintStatus, locale: Locale) =>
  new FieldValidationError(
    { status: ['complaint.transition'] },
    {},
    { status: transitionParams(from, to, locale) },
  );

const RESOLVING: readonly ComplaintStatus[] = ['resolved', 'closed'];

/**
 * `POST /api/alerts/{id}/events`: writes, in this order, a comment (when there is text or photos),
 * then a status change (along COMPLAINT_TRANSITIONS), a new assignee and a new priority — each only
 * when it changes something — and tells the holders of `requests` of the comment, the status and
 * the assignee. A closed complaint takes comments only. Answers the entries written.
 * `locale`: the caller's language, for the statuses named in a refusal.
 */
export async function addComplaintEvents(
  db: Kysely<Database>,
  actor: ComplaintActor,
  complaintId: number,
  input: ComplaintEventInput,
  locale: Locale,
): Promise<ComplaintEvent[]> {
  const organisationId = actor.organisationId;
  return saving(() =>
    db.transaction().execute(async (trx) => {
      const complaint = await findComplaint(trx, organisationId, complaintId);
      if (!complaint) throw notFound();

      const problems = new Problems();
      const photos = await checkPhotos(trx, organisationId, input.photos, problems);
      const text = input.text ? input.text : null;
      const comment = text !== null || photos.length > 0;
      const status =
        input.status !== undefined && input.status !== complaint.status ? input.status : undefined;
      if (status !== undefined && !canMoveComplaint(complaint.status, status)) {
        problems.add('status', 'complaint.transition', transitionParams(complaint.status, status, locale));
      }
      const assigneeChanged = input.assignee_id !== undefined && input.assignee_id !== complaint.assignee_id;
      const assignee =
        assigneeChanged && input.assignee_id
          ? await checkAssignee(trx, organisationId, input.assignee_id, problems)
          : undefined;
      const priority =
        input.priority !== undefined && input.priority !== complaint.priority ? input.priority : undefined;
      if (complaint.status === 'closed') {
        if (assigneeChanged) problems.add('assignee_id', 'complaint.closed');
        if (priority !== undefined) problems.add('priority', 'complaint.closed');
      }
      problems.throwIfAny();
      if (!comment && status === undefined && !assigneeChanged && priority === undefined) {
        throw new FieldValidationError({ text: ['complaint.event_empty'] });
      }

      const now = nowIso();
      const changes: Updateable<ComplaintsTable> = { updated_at: now };
      if (status !== undefined) changes.status = status;
      if (status !== undefined) changes.resolved_at = RESOLVING.includes(status) ? now : null;
      if (assigneeChanged) changes.assignee_id = input.assignee_id ?? null;
      if (priority !== undefined) changes.priority = priority;
      const updated = await updateComplaint(trx, organisationId, complaintId, changes, {
        expectedStatus: status === undefined ? undefined : complaint.status,
        addComments: comment ? 1 : 0,
      });
      if (!updated && status !== undefined) {
        // Another request moved the status meanwhile (PostgreSQL); judged against the new one.
        const fresh = await findComplaint(trx, organisationId, complaintId);
        throw transitionRefused(fresh?.status ?? complaint.status, status, locale);
      }

      const entry = {
        organisation_id: organisationId,
        complaint_id: complaintId,
        author_id: actor.id,
        text: null,
        from_status: null,
        to_status: null,
        assignee_id: null,
        priority: null,
        photos: '[]',
        created_at: now,
      };
      const ids: number[] = [];
      const told: ComplaintChange[] = [];
      if (comment) {
        ids.push(
          await insertComplaintEvent(trx, {
            ...entry,
            kind: 'comment',
            text,
            photos: JSON.stringify(photos),
          }),
        );
        told.push({ kind: 'comment', text, photos: photos.length });
      }
      if (status !== undefined) {
        ids.push(
          await insertComplaintEvent(trx, {
            ...entry,
            kind: 'status',
            from_status: complaint.status,
            to_status: status,
          }),
        );
        told.push({ kind: 'status', from: complaint.status, to: status });
      }
      if (assigneeChanged) {
        const assigneeId = input.assignee_id ?? null;
        ids.push(await insertComplaintEvent(trx, { ...entry, kind: 'assignee', assignee_id: assigneeId }));
        told.push({ kind: 'assignee', assigneeId, assigneeName: assignee?.name ?? null });
      }
      if (priority !== undefined) {
        ids.push(await insertComplaintEvent(trx, { ...entry, kind: 'priority', priority }));
      }

      const names = await findSubjectNames(trx, organisationId, complaintId);
      await notifyComplaintChanges(
        trx,
        {
          organisationId,
          complaintId,
          title: complaint.title,
          priority: priority ?? complaint.priority,
          deviceId: complaint.device_id,
          subject: names?.device_name ?? names?.address_name ?? `#${complaintId}`,
          actor: { id: actor.id, name: actor.name },
          now,
        },
        told,
      );
      return (await findComplaintEventsByIds(trx, organisationId, ids)).map(toComplaintEvent);
    }),
  );
}
