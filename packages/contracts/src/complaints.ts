import { z } from 'zod';
import { idSchema } from './ids.js';
import { filtersParamSchema, pageQuerySchema, pagedSchema } from './pagination.js';

/**
 * Complaints (the contract's "requests", the API's `alerts`; module `requests`): a problem with a device or
 * an address, followed from filing to closing. docs/complaints.md.
 */

export const COMPLAINT_TITLE_MAX_LENGTH = 255;
export const COMPLAINT_TEXT_MAX_LENGTH = 5000;
export const COMPLAINT_COMMENT_MAX_LENGTH = 5000;
/** Photos on one complaint or one comment. */
export const COMPLAINT_MAX_PHOTOS = 10;

export const COMPLAINT_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type ComplaintPriority = (typeof COMPLAINT_PRIORITIES)[number];

export const COMPLAINT_STATUSES = ['new', 'in_progress', 'resolved', 'closed'] as const;
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

/** Complaints in these statuses are open: they count on the dashboard (`issueReports`). */
export const OPEN_COMPLAINT_STATUSES: readonly ComplaintStatus[] = ['new', 'in_progress'];

/**
 * Where a complaint may go from each status: forward along new → in progress → resolved →
 * closed (a step may be skipped), and a resolved complaint may be reopened. Closed is final.
 */
export const COMPLAINT_TRANSITIONS: Record<ComplaintStatus, readonly ComplaintStatus[]> = {
  new: ['in_progress', 'resolved', 'closed'],
  in_progress: ['resolved', 'closed'],
  resolved: ['in_progress', 'closed'],
  closed: [],
};

export function canMoveComplaint(from: ComplaintStatus, to: ComplaintStatus): boolean {
  return COMPLAINT_TRANSITIONS[from].includes(to);
}

/** An uploaded photo: the server's name for it and where to get it. */
export const complaintPhotoSchema = z.object({ photo: z.string(), url: z.string() });
export type ComplaintPhoto = z.infer<typeof complaintPhotoSchema>;
/** A photo's server-given name (128 random bits and the type's extension). */
export const COMPLAINT_PHOTO_NAME = /^[0-9a-f]{32}\.(jpg|png|webp)$/;

const person = z.object({ id: z.number().int(), name: z.string() }).nullable();

export const complaintSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  text: z.string(),
  priority: z.enum(COMPLAINT_PRIORITIES),
  status: z.enum(COMPLAINT_STATUSES),
  device_id: z.number().int().nullable(),
  address_id: z.number().int().nullable(),
  author: person,
  assignee: person,
  photos: z.array(complaintPhotoSchema),
  comments_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** When it last became resolved or closed; null while open. */
  resolved_at: z.string().nullable(),
});
export type Complaint = z.infer<typeof complaintSchema>;

/**
 * `GET /api/alerts/` (page, filters, sort). Filters: status, priority, device_id, address_id,
 * assignee_id (`=`, `in`), title (`like`), created_at (`>=`, `<=`, `between`). Newest first.
 */
export const complaintsQuerySchema = pageQuerySchema.extend({ filters: filtersParamSchema.optional() });
export const complaintsPageSchema = pagedSchema(complaintSchema);

const photos = z.array(z.string().regex(COMPLAINT_PHOTO_NAME)).max(COMPLAINT_MAX_PHOTOS).default([]);

/** `POST /api/alerts/`: about a device or an address (at least one; a device implies its address). */
export const complaintBodySchema = z
  .object({
    title: z.string().trim().min(1).max(COMPLAINT_TITLE_MAX_LENGTH),
    text: z.string().trim().max(COMPLAINT_TEXT_MAX_LENGTH).default(''),
    priority: z.enum(COMPLAINT_PRIORITIES).default('normal'),
    device_id: idSchema.nullable().default(null),
    address_id: idSchema.nullable().default(null),
    assignee_id: idSchema.nullable().default(null),
    /** Photos uploaded first with `POST /api/alerts/photo`. */
    photos,
  })
  .refine((body) => body.device_id !== null || body.address_id !== null, {
    path: ['device_id'],
    params: { key: 'complaint.subject_required' },
  });
export type ComplaintBody = z.input<typeof complaintBodySchema>;

export const COMPLAINT_EVENT_KINDS = ['created', 'comment', 'status', 'assignee', 'priority'] as const;
export type ComplaintEventKind = (typeof COMPLAINT_EVENT_KINDS)[number];

/** One entry of a complaint's timeline, with its author and time. */
export const complaintEventSchema = z.object({
  id: z.number().int(),
  alert_id: z.number().int(),
  kind: z.enum(COMPLAINT_EVENT_KINDS),
  author: person,
  text: z.string().nullable(),
  from_status: z.enum(COMPLAINT_STATUSES).nullable(),
  to_status: z.enum(COMPLAINT_STATUSES).nullable(),
  assignee: person,
  priority: z.enum(COMPLAINT_PRIORITIES).nullable(),
  photos: z.array(complaintPhotoSchema),
  created_at: z.string(),
});
export type ComplaintEvent = z.infer<typeof complaintEventSchema>;

/**
 * `POST /api/alerts/{id}/events`: a comment (text and/or photos), a status change, a new assignee
 * or priority — or several at once; each becomes its own timeline entry. At least one is needed.
 */
export const complaintEventBodySchema = z
  .object({
    text: z.string().trim().max(COMPLAINT_COMMENT_MAX_LENGTH).optional(),
    photos,
    status: z.enum(COMPLAINT_STATUSES).optional(),
    assignee_id: idSchema.nullable().optional(),
    priority: z.enum(COMPLAINT_PRIORITIES).optional(),
  })
  .refine(
    (body) =>
      Boolean(body.text) ||
      body.photos.length > 0 ||
      body.status !== undefined ||
      body.assignee_id !== undefined ||
      body.priority !== undefined,
    { path: ['text'], params: { key: 'complaint.event_empty' } },
  );
export type ComplaintEventBody = z.input<typeof complaintEventBodySchema>;
