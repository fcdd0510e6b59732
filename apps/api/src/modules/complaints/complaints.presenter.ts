import type { Complaint, ComplaintEvent, ComplaintPhoto } from '@kontrol/contracts';
import type { ComplaintEventRow, ComplaintRow } from './complaints.repository.js';

/** Where the console loads a complaint photo from (`GET /api/alerts/photo/{file}`). */
export const complaintPhotoUrl = (file: string) => `/api/alerts/photo/${file}`;

/** Stored photo names (a JSON array) as the API shows them. */
export function photosOf(json: string): ComplaintPhoto[] {
  return (JSON.parse(json) as string[]).map((file) => ({ photo: file, url: complaintPhotoUrl(file) }));
}

const person = (id: number | null, name: string | null) =>
  id === null || name === null ? null : { id, name };

export function toComplaint(row: ComplaintRow): Complaint {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    priority: row.priority,
    status: row.status,
    device_id: row.device_id,
    address_id: row.address_id,
    author: person(row.author_id, row.author_name),
    assignee: person(row.assignee_id, row.assignee_name),
    photos: photosOf(row.photos),
    comments_count: Number(row.comments_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
    resolved_at: row.resolved_at,
  };
}

export function toComplaintEvent(row: ComplaintEventRow): ComplaintEvent {
  return {
    id: row.id,
    alert_id: row.complaint_id,
    kind: row.kind,
    author: person(row.author_id, row.author_name),
    text: row.text,
    from_status: row.from_status,
    to_status: row.to_status,
    assignee: person(row.assignee_id, row.assignee_name),
    priority: row.priority,
    photos: photosOf(row.photos),
    created_at: row.created_at,
  };
}
